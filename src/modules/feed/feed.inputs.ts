import {
  ArrayMaxSize,
  ArrayMinSize,
  IsOptional,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ArgsType, Field, InputType } from 'type-graphql';
import { CursorPagingArgs } from '../../graphql/paging';
import { FEED_LIMITS as L } from './feed.limits';
import type { FeedItemInput } from './feed.models';

@ArgsType()
export class FeedFilterArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.category.max)
  category?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.source.max)
  source?: string;

  @Field(() => String, { nullable: true, description: 'Only items mapped to this core event.' })
  @IsOptional()
  @MaxLength(200)
  coreEventId?: string;
}

@ArgsType()
export class FeedItemArgs {
  @Field()
  @MaxLength(40)
  id: string;
}

@ArgsType()
export class FeedListArgs extends CursorPagingArgs(
  L,
  { cursorDescription: 'The nextCursor of the previous page.' },
  FeedFilterArgs,
) {}

@InputType('FeedItemInput')
export class FeedItemInputType implements FeedItemInput {
  @Field({ description: 'The producer (e.g. a news wire), lowercase letters, digits, `-` `_` `.`.' })
  @Matches(/^[a-z0-9][a-z0-9._-]*$/, { message: 'must be lowercase letters, digits, dot, dash or underscore' })
  @MaxLength(L.source.max)
  source: string;

  @Field({ description: "The item's id at its source: ingest is idempotent on (source, externalId)." })
  @MinLength(1)
  @MaxLength(L.externalId.max)
  externalId: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(32)
  kind?: string;

  @Field()
  @MinLength(1)
  @MaxLength(L.title.max)
  title: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.summary.max)
  summary?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.url.max)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  url?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.author.max)
  author?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.category.max)
  category?: string;

  @Field(() => String, { nullable: true, description: 'The core event (id or slug) when the producer knows it.' })
  @IsOptional()
  @MaxLength(200)
  coreEventId?: string;

  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(L.tags.max)
  @MaxLength(L.tags.length, { each: true })
  tags?: string[];

  @Field()
  publishedAt: Date;
}

@ArgsType()
export class IngestFeedArgs {
  @Field(() => [FeedItemInputType])
  @ArrayMinSize(1)
  @ArrayMaxSize(L.batch.max)
  @ValidateNested({ each: true })
  items: FeedItemInputType[];
}
