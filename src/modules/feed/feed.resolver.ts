import { Args, Ctx, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { AppError } from '../../errors/app-error';
import { parseFeedId, type FeedItemView } from './feed.models';
import { FeedFilterArgs, FeedItemArgs, FeedListArgs, IngestFeedArgs } from './feed.inputs';
import { FeedIngestReportType, FeedItemType, FeedPageType, FeedQualityType } from './feed.types';
import { FeedService } from './feed.service';

type FeedSubscribeData = SubscribeResolverData<unknown, FeedFilterArgs, GraphQLContext>;

/** Resumes after `Last-Event-ID` (REST SSE) when the client sends one: every item after it, then live. */
async function subscribeFeed({ args, context }: FeedSubscribeData): Promise<AsyncIterableIterator<FeedItemView>> {
  const raw = context.header('last-event-id')?.trim();
  const after = raw ? parseFeedId(raw) : undefined;
  if (after === null)
    throw AppError.badRequest('Last-Event-ID', 'must be a feed item id (a non-negative 64-bit integer)');
  return context.services.get(FeedService).stream(args, after);
}

@Resolver(() => FeedItemType)
export class FeedResolver {
  @Query(() => FeedPageType, { description: 'Feed items, newest first (cursor pages).' })
  feed(@Args() args: FeedListArgs, @Ctx() ctx: GraphQLContext) {
    const { limit, cursor, ...filters } = args;
    return ctx.services.get(FeedService).list(filters, limit, cursor);
  }

  @Query(() => FeedItemType)
  feedItem(@Args() { id }: FeedItemArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(FeedService).get(id);
  }

  @Query(() => FeedQualityType, { description: 'Mapping rate, per-source counts, duplicates rejected, freshness.' })
  feedQuality(@Ctx() ctx: GraphQLContext) {
    return ctx.services.get(FeedService).quality();
  }

  @Mutation(() => FeedIngestReportType, { description: 'The ingest worker delivers a batch (X-Feed-Ingest-Token).' })
  ingestFeed(@Args() { items }: IngestFeedArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('feedIngest');
    return ctx.services.get(FeedService).ingest(items);
  }

  @Subscription(() => FeedItemType, {
    name: 'feed',
    description: 'New feed items as they are ingested, in id order; REST SSE resumes after Last-Event-ID.',
    subscribe: subscribeFeed,
  })
  feedSubscription(@Root() item: FeedItemView, @Args() _filters: FeedFilterArgs): FeedItemView {
    return item;
  }
}
