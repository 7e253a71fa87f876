import { IsOptional, MaxLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { graphqlEnum, SourceTypeEnum, VenueEnum } from '../../graphql/enums';
import { NumberedPagingArgs } from '../../graphql/paging';
import { DISCOVER_SORTS, EVENTS_LIMITS, MARKET_SORTS, type DiscoverSort, type MarketSort } from './events.limits';
import { type SourceType, type Venue } from '../../venues/venue.models';

const { searchLength } = EVENTS_LIMITS;

export const DiscoverSortEnum = graphqlEnum(DISCOVER_SORTS, { name: 'DiscoverSort' });

export const MarketSortEnum = graphqlEnum(MARKET_SORTS, { name: 'MarketSort' });

@ArgsType()
export class PageArgs extends NumberedPagingArgs(EVENTS_LIMITS) {}

@ArgsType()
export class ListEventsArgs extends PageArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(64)
  category?: string;

  @Field(() => SourceTypeEnum, { nullable: true })
  sourceType?: SourceType;
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
  venue?: Venue;

  @Field(() => DiscoverSortEnum, { defaultValue: DiscoverSortEnum.activity_desc })
  sort: DiscoverSort;
}

@ArgsType()
export class MarketFilterArgs {
  @Field(() => VenueEnum, { nullable: true })
  venue?: Venue;

  @Field(() => Boolean, { defaultValue: false, description: 'Only markets that are still trading.' })
  openOnly: boolean;

  @Field(() => MarketSortEnum, { defaultValue: MarketSortEnum.volume_desc })
  sort: MarketSort;
}

@ArgsType()
export class EventMarketsArgs extends MarketFilterArgs {
  @Field({ description: 'Event id or slug.' })
  @MaxLength(200)
  eventId: string;
}
