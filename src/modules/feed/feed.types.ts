import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { CursorPageType } from '../../graphql/paging';
import type { FeedItemView } from './feed.models';
import type { FeedPage, FeedQuality, IngestReport, SourceQuality } from './feed.service';

@ObjectType('FeedItem', { description: 'A feed item, mapped to a core event where possible.' })
export class FeedItemType implements FeedItemView {
  @Field(() => ID, { description: 'Ascending sequence (decimal string): the SSE id.' })
  id: string;
  @Field()
  source: string;
  @Field()
  externalId: string;
  @Field()
  kind: string;
  @Field()
  title: string;
  @Field()
  summary: string;
  @Field(() => String, { nullable: true })
  url: string | null;
  @Field(() => String, { nullable: true })
  author: string | null;
  @Field(() => String, { nullable: true })
  category: string | null;
  @Field(() => String, { nullable: true })
  coreEventId: string | null;
  @Field(() => String, { nullable: true, description: '`given` (named by the worker), `matched` (by text) or null.' })
  mappingMethod: string | null;
  @Field(() => [String])
  tags: string[];
  @Field()
  publishedAt: Date;
  @Field()
  ingestedAt: Date;
}

@ObjectType('FeedPage', { description: 'A cursor page of feed items, newest first.' })
export class FeedPageType extends CursorPageType<FeedItemView>(FeedItemType) implements FeedPage {}

@ObjectType('FeedIngestReport')
export class FeedIngestReportType implements IngestReport {
  @Field(() => Int)
  received: number;
  @Field(() => Int)
  inserted: number;
  @Field(() => Int, { description: 'Items already stored (same source and external id), skipped.' })
  duplicates: number;
  @Field(() => Int)
  mapped: number;
}

@ObjectType('FeedSourceQuality')
export class FeedSourceQualityType implements SourceQuality {
  @Field()
  source: string;
  @Field(() => Int)
  items: number;
  @Field(() => Int)
  mapped: number;
  @Field(() => Date, { nullable: true })
  latestPublishedAt: Date | null;
  @Field(() => Date, { nullable: true })
  latestIngestedAt: Date | null;
  @Field(() => Int, { nullable: true, description: 'Seconds since the newest item was published.' })
  freshnessSeconds: number | null;
}

@ObjectType('FeedQuality', { description: 'Mapping and quality metrics of the feed.' })
export class FeedQualityType implements FeedQuality {
  @Field(() => Int)
  items: number;
  @Field(() => Int)
  mapped: number;
  @Field(() => Float, { description: 'Share of items mapped to a core event (0..1).' })
  mappingRate: number;
  @Field(() => Int)
  duplicatesRejected: number;
  @Field(() => Int)
  batches: number;
  @Field(() => [FeedSourceQualityType])
  sources: SourceQuality[];
  @Field()
  checkedAt: Date;
}
