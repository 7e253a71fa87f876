import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { checkExecuteRequest, checkSellRequest } from './execute-request';
import { ExecuteInput, SellPositionInput } from './execution.inputs';
import type { ExecuteRequest, ExecutionEvent, ExecutionPrincipal, SellRequest } from './execution.models';
import { ExecutionEventType } from './execution.types';
import { ExecutionService } from './execution.service';
import { definedOnly } from '../../graphql/defined-only';

/** GraphQL passes explicit nulls for absent optional fields: the service speaks undefined. */

/**
 * Live mode: the wallet-auth token (401 without it); otherwise the user bearer, required or optional. `either`
 * (a position sell without a mode, which sells in the position's own mode): the user bearer, else the wallet-auth
 * token.
 */
async function principalFor(
  ctx: GraphQLContext,
  need: 'live' | 'user' | 'optional' | 'either',
): Promise<ExecutionPrincipal | null> {
  if (need === 'either') {
    try {
      return await principalFor(ctx, 'user');
    } catch (userError) {
      if (ctx.auth.bearer() === undefined) throw userError;
      return principalFor(ctx, 'live').catch(() => Promise.reject(userError as Error));
    }
  }
  if (need === 'live') {
    const w = await ctx.auth.requireWallet();
    return { userId: w.userId, live: true, walletToken: ctx.auth.bearer() };
  }
  const u = need === 'user' ? await ctx.auth.requireUser() : await ctx.auth.optionalUser();
  return u ? { userId: u.userId, live: false } : null;
}

type ExecuteData = SubscribeResolverData<unknown, { input: ExecuteInput }, GraphQLContext>;
type SellData = SubscribeResolverData<
  unknown,
  { positionId: string; input?: SellPositionInput | null },
  GraphQLContext
>;

/** Everything that can refuse the order (400, 401, 409, 502, 503) happens before the iterator is returned. */
async function subscribeExecute({ args, context }: ExecuteData): Promise<AsyncIterableIterator<ExecutionEvent>> {
  const request: ExecuteRequest = definedOnly(args.input);
  checkExecuteRequest(request); // a bad body is a 400 before credentials are looked at
  const principal = await principalFor(context, request.mode === 'live' ? 'live' : 'optional');
  // A bearer caller's simulation is stored (paper account): limited per user. Anonymous ones store nothing.
  if (principal && request.mode !== 'live')
    await context.services.rateLimits.consume('storedSimulation', principal.userId);
  const stream = await context.services.get(ExecutionService).run(request, principal, {
    idempotencyKey: context.header('idempotency-key'),
  });
  return stream.events();
}

async function subscribeSell({ args, context }: SellData): Promise<AsyncIterableIterator<ExecutionEvent>> {
  const body: SellRequest = definedOnly(args.input ?? {});
  checkSellRequest(body);
  const need = body.mode === undefined ? 'either' : body.mode === 'live' ? 'live' : 'user';
  const principal = (await principalFor(context, need))!;
  if (!principal.live) await context.services.rateLimits.consume('storedSimulation', principal.userId);
  const stream = await context.services.get(ExecutionService).sell(args.positionId, body, principal, {
    idempotencyKey: context.header('idempotency-key'),
  });
  return stream.events();
}

/**
 * The arguments' check for each event of a stream: none. They are checked when the stream is
 * created (a 400 before anything runs): the schema refuses unstorable text in any subscription's
 * arguments (schema.ts), and the subscribe functions above check the request. The event resolvers
 * only return the event; type-graphql would otherwise validate the same arguments again for every
 * event, after the order ran.
 */
const checkedAtSubscribe = (): void => undefined;

@Resolver()
export class ExecutionResolver {
  @Subscription(() => ExecutionEventType, {
    description:
      'Run an order and stream its progress: accepted, quote, submitted, fill…, completed | failed. ' +
      'Simulation by default (anonymous: nothing stored); live needs the wallet-auth token. Idempotency-Key ' +
      'honoured.',
    subscribe: subscribeExecute,
  })
  execute(
    @Root() event: ExecutionEvent,
    @Arg('input', () => ExecuteInput, { validateFn: checkedAtSubscribe }) _input: ExecuteInput,
  ): ExecutionEvent {
    return event;
  }

  @Subscription(() => ExecutionEventType, {
    description:
      "Sell from one of the caller's positions (default: all of it) and stream the execution (bearer; live: " +
      'wallet-auth token).',
    subscribe: subscribeSell,
  })
  sellPosition(
    @Root() event: ExecutionEvent,
    @Arg('positionId', () => ID, { validateFn: checkedAtSubscribe }) _positionId: string,
    @Arg('input', () => SellPositionInput, { nullable: true, validateFn: checkedAtSubscribe })
    _input?: SellPositionInput,
  ): ExecutionEvent {
    return event;
  }
}
