import { IsOptional, MaxLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { graphqlEnum, SourceTypeEnum, VenueEnum } from '../../graphql/enums';
import { NumberedPagingArgs } from '../../graphql/paging';
import { DISCOVER_SORTS, EVENTS_LIMITS, MARKET_SORTS, type DiscoverSort, type MarketSort } from './events.limits';

const { searchLength } = EVENTS_LIMITS;

export const DiscoverSortEnum = graphqlEnum(DISCOVER_SORTS, { name: 'DiscoverSort' });
export type DiscoverSortEnum = DiscoverSort;

export const MarketSortEnum = graphqlEnum(MARKET_SORTS, { name: 'MarketSort' });
export type MarketSortEnum = MarketSort;

@ArgsType()
export class PageArgs extends NumberedPagingArgs(EVENTS_LIMITS) {}

@ArgsType()
export class ListEventsArgs extends PageArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(64)
  category?: string;

  @Field(() => SourceTypeEnum, { nullable: true })
  sourceType?: SourceTypeEnum;
}

@ArgsType()
export class DiscoverEventsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Words to find in titles and descriptions.' })
  @IsOptional()
  @MaxLength(searchLength.max)
  search?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(64)
  category?: string;

  @Field(() => VenueEnum, { nullable: true, description: 'Only events with a market on this venue.' })
  venue?: VenueEnum;

  @Field(() => DiscoverSortEnum, { defaultValue: DiscoverSortEnum.activity_desc })
  sort: DiscoverSortEnum;
}

@ArgsType()
export class MarketFilterArgs {
  @Field(() => VenueEnum, { nullable: true })
  venue?: VenueEnum;

  @Field(() => Boolean, { defaultValue: false, description: 'Only markets that are still trading.' })
  openOnly: boolean;

  @Field(() => MarketSortEnum, { defaultValue: MarketSortEnum.volume_desc })
  sort: MarketSortEnum;
}

@ArgsType()
export class EventMarketsArgs extends MarketFilterArgs {
  @Field({ description: 'Event id or slug.' })
  @MaxLength(200)
  eventId: string;
}
