import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { ExecuteInput, SellPositionInput } from './execution.inputs';
import type { ExecutionEvent } from './execution.models';
import { ExecutionEventType } from './execution.types';
import { ExecutionService } from './execution.service';
import { definedOnly } from '../../graphql/defined-only';

type ExecuteData = SubscribeResolverData<unknown, { input: ExecuteInput }, GraphQLContext>;
type SellData = SubscribeResolverData<
  unknown,
  { positionId: string; input?: SellPositionInput | null },
  GraphQLContext
>;

/**
 * The service refuses the order (400, 401, 409, 429, 502, 503) before it returns the stream. GraphQL passes
 * explicit nulls for absent optional fields: the service speaks undefined.
 */
async function subscribeExecute({ args, context }: ExecuteData): Promise<AsyncIterableIterator<ExecutionEvent>> {
  const stream = await context.services.get(ExecutionService).execute(definedOnly(args.input), context.auth, {
    idempotencyKey: context.header('idempotency-key'),
  });
  return stream.events();
}

async function subscribeSell({ args, context }: SellData): Promise<AsyncIterableIterator<ExecutionEvent>> {
  const stream = await context.services
    .get(ExecutionService)
    .sell(args.positionId, definedOnly(args.input ?? {}), context.auth, {
      idempotencyKey: context.header('idempotency-key'),
    });
  return stream.events();
}

/**
 * The arguments' check for each event of a stream: none. They are checked when the stream is
 * created (a 400 before anything runs): the schema refuses unstorable text in any subscription's
 * arguments (schema.ts), and the service checks the request. The event resolvers
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
