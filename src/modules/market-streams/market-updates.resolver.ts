import { Args, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { AppError } from '../../errors/app-error';
import { VENUES } from '../../venues/venue.models';
import { MarketFollowers } from './market-followers';
import { parseStreamItemId, type MarketRef, type MarketStreamItem } from './market-stream.models';
import { MARKET_STREAM_LIMITS as L } from './market-streams.limits';
import { MarketUpdatesArgs } from './market-updates.inputs';
import { MarketUpdateType } from './market-updates.types';
import { VenueStreamStatus } from './stream-status';

type Data<A> = SubscribeResolverData<unknown, A, GraphQLContext>;

function checkDepth(depth: number): void {
  if (!Number.isInteger(depth) || depth < L.depth.min || depth > L.depth.max)
    throw AppError.badRequest('depth', `must be an integer from ${L.depth.min} to ${L.depth.max}`);
}

/** Where a reconnecting client resumes: `after`, else the REST `Last-Event-ID`; a 400 naming it when malformed. */
function resumeOf(after: string | undefined, context: GraphQLContext) {
  const field = after !== undefined ? 'after' : 'Last-Event-ID';
  const raw = (after ?? context.header('last-event-id'))?.trim();
  if (!raw) return undefined;
  const parsed = parseStreamItemId(raw);
  if (!parsed) throw AppError.badRequest(field, 'must be the id of a market update (`venue:marketId:seq`)');
  return parsed;
}

/** The markets the catalog does not hold, of those asked. */
async function unknownOf(context: GraphQLContext, refs: readonly MarketRef[]): Promise<MarketRef[]> {
  const ids = refs.map((r) => `${r.venue}:${r.marketId}`);
  const rows = await context.services.db.prisma.market.findMany({ where: { id: { in: ids } }, select: { id: true } });
  const held = new Set(rows.map((r) => r.id));
  return refs.filter((_, i) => !held.has(ids[i]));
}

/** Every venue named has a stream (or the simulated world's): a 503 otherwise (`VENUE_STREAMS=off`). */
function requireStreams(context: GraphQLContext, refs: readonly MarketRef[]): void {
  const status = context.services.get(VenueStreamStatus);
  for (const venue of new Set(refs.map((r) => r.venue))) {
    if (status.of(venue).state === 'off')
      throw AppError.unavailable(`${venue} streams no books here (VENUE_STREAMS=off or no stream for this venue)`);
  }
}

/** The markets asked for: `venue` and `marketId`, or `markets`; a 400 naming the field otherwise. */
function marketsOf(args: MarketUpdatesArgs): { refs: MarketRef[]; single: boolean } {
  const one = args.venue !== undefined || args.marketId !== undefined;
  if (args.markets !== undefined && args.markets !== null) {
    if (one) throw AppError.badRequest('markets', 'give either `venue` and `marketId`, or `markets`, not both');
    const seen = new Map<string, MarketRef>();
    for (const m of args.markets) seen.set(`${m.venue}:${m.marketId}`, { venue: m.venue, marketId: m.marketId });
    const refs = [...seen.values()];
    if (refs.length < L.markets.min || refs.length > L.markets.max)
      throw AppError.badRequest('markets', `must list ${L.markets.min} to ${L.markets.max} markets`);
    for (const ref of refs) {
      if (!VENUES.includes(ref.venue) || ref.marketId.length < 1 || ref.marketId.length > L.marketId.max)
        throw AppError.badRequest('markets', `marketId must be 1 to ${L.marketId.max} characters`);
    }
    return { refs, single: false };
  }
  if (args.venue === undefined || args.venue === null) throw AppError.badRequest('venue', 'is required (or `markets`)');
  if (args.marketId === undefined || args.marketId === null)
    throw AppError.badRequest('marketId', 'is required (or `markets`)');
  if (args.marketId.length < 1 || args.marketId.length > L.marketId.max)
    throw AppError.badRequest('marketId', `must be 1 to ${L.marketId.max} characters`);
  return { refs: [{ venue: args.venue, marketId: args.marketId }], single: true };
}

async function subscribe({ args, context }: Data<MarketUpdatesArgs>): Promise<AsyncIterableIterator<unknown>> {
  checkDepth(args.depth);
  const { refs } = marketsOf(args);
  const resume = resumeOf(args.after, context);
  // An unknown market is a 404 in either form: there is nothing to follow (the id names it).
  const unknown = await unknownOf(context, refs);
  if (unknown.length) throw AppError.notFound(`market ${unknown[0].venue}:${unknown[0].marketId}`);
  requireStreams(context, refs);
  return context.services.get(MarketFollowers).watch(refs, args.depth, resume);
}

function toType(item: MarketStreamItem): MarketUpdateType {
  return {
    ...item,
    trades: item.trades.map((t) => ({ ...t, filledAt: new Date(t.filledAt) })),
    at: new Date(item.at),
    receivedAt: new Date(item.receivedAt),
  };
}

/**
 * Live books: a market's (or up to {@link L.markets.max} markets') snapshot, then its changes in
 * `seq` order. One follower per market per process serves every client of it.
 */
@Resolver(() => MarketUpdateType)
export class MarketUpdatesResolver {
  @Subscription(() => MarketUpdateType, {
    description:
      "Live YES books: one market's (`venue`, `marketId`) or several markets' (`markets`, on one stream). " +
      'First a snapshot of the top `depth` levels, best bid and ask and last price, then each change with its ' +
      '`seq`; a fresh snapshot after a gap. `not_found` for a market the catalog does not hold.',
    subscribe,
  })
  marketUpdates(@Root() item: MarketStreamItem, @Args() _args: MarketUpdatesArgs): MarketUpdateType {
    return toType(item);
  }
}
