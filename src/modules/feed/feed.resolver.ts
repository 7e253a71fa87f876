import { Args, Ctx, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { MaxLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { AppError } from '../../errors/app-error';
import { mapFilter, withReplay } from '../../graphql/async-iterators';
import { FEED_TOPIC } from './feed.limits';
import { fromMessage, matchesFilters, type FeedItemMessage, type FeedItemView } from './feed.models';
import { FeedFilterArgs, FeedListArgs, IngestFeedArgs } from './feed.inputs';
import { FeedIngestReportType, FeedItemType, FeedPageType, FeedQualityType } from './feed.types';

@ArgsType()
export class FeedItemArgs {
  @Field()
  @MaxLength(40)
  id: string;
}

type FeedSubscribeData = SubscribeResolverData<unknown, FeedFilterArgs, GraphQLContext>;

/** Resumes after `Last-Event-ID` (REST SSE) when the client sends one. */
async function subscribeFeed({ args, context }: FeedSubscribeData): Promise<AsyncIterableIterator<FeedItemView>> {
  const raw = context.header('last-event-id')?.trim();
  if (raw !== undefined && raw !== '' && !/^\d{1,19}$/.test(raw)) throw AppError.badRequest('Last-Event-ID', 'must be a feed item id');
  const live = context.services.infra.pubsub.iterate<FeedItemMessage>(FEED_TOPIC);
  await live.ready;
  const items = mapFilter(live, (m) => matchesFilters(m, args), fromMessage);
  if (!raw) return items;
  const replay = await context.services.feed.since(BigInt(raw), args);
  const covered = replay.length > 0 ? BigInt(replay[replay.length - 1]!.id) : BigInt(raw);
  return withReplay(replay, items, (v) => BigInt(v.id) > covered);
}

@Resolver(() => FeedItemType)
export class FeedResolver {
  @Query(() => FeedPageType, { description: 'Feed items, newest first (cursor pages).' })
  feed(@Args() args: FeedListArgs, @Ctx() ctx: GraphQLContext) {
    const { limit, cursor, ...filters } = args;
    return ctx.services.feed.list(filters, limit, cursor);
  }

  @Query(() => FeedItemType)
  feedItem(@Args() { id }: FeedItemArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.feed.get(id);
  }

  @Query(() => FeedQualityType, { description: 'Mapping rate, per-source counts, duplicates rejected, freshness.' })
  feedQuality(@Ctx() ctx: GraphQLContext) {
    return ctx.services.feed.quality();
  }

  @Mutation(() => FeedIngestReportType, { description: 'The ingest worker delivers a batch (X-Feed-Ingest-Token).' })
  ingestFeed(@Args() { items }: IngestFeedArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('feedIngest');
    return ctx.services.feed.ingest(items);
  }

  @Subscription(() => FeedItemType, {
    description: 'New feed items as they are ingested; REST SSE resumes after Last-Event-ID.',
    subscribe: subscribeFeed,
  })
  feedItems(@Root() item: FeedItemView, @Args() _filters: FeedFilterArgs): FeedItemView {
    return item;
  }
}
