import { IsOptional, Max, MaxLength, Min } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { DiscoverSortEnum, MarketSortEnum, SourceTypeEnum, VenueEnum } from '../../graphql/enums';
import { EVENTS_LIMITS } from './events.limits';

const { page, pageSize, searchLength } = EVENTS_LIMITS;

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: page.default, description: `${page.min}..${page.max}` })
  @Min(page.min)
  @Max(page.max)
  page: number;

  @Field(() => Int, { defaultValue: pageSize.default, description: `${pageSize.min}..${pageSize.max}` })
  @Min(pageSize.min)
  @Max(pageSize.max)
  pageSize: number;
}

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
