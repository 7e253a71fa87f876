import { IsOptional, Max, MaxLength, Min } from 'class-validator';
import { ArgsType, Field, Float } from 'type-graphql';
import { MarketStatusEnum, VenueEnum } from '../../graphql/enums';
import { CursorPagingArgs } from '../../graphql/paging';
import { MARKET_DATA_LIMITS as L } from './market-data.limits';
import { type Venue, type MarketStatus } from '../../venues/venue.models';

@ArgsType()
export class CursorArgs extends CursorPagingArgs(L) {}

@ArgsType()
export class MarketListArgs extends CursorArgs {
  @Field(() => VenueEnum, { nullable: true })
  venue?: Venue;

  @Field(() => MarketStatusEnum, { nullable: true })
  status?: MarketStatus;

  @Field(() => Float, { nullable: true, description: 'Only markets with at least this volume.' })
  @IsOptional()
  @Min(L.minVolume.min)
  @Max(L.minVolume.max)
  minVolume?: number;

  @Field(() => String, { nullable: true, description: "The core event's category." })
  @IsOptional()
  @MaxLength(L.category.max)
  category?: string;
}

@ArgsType()
export class EventListArgs extends CursorArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(L.category.max)
  category?: string;
}

@ArgsType()
export class VenueMarketArgs {
  @Field(() => VenueEnum)
  venue: Venue;

  @Field({ description: "The venue's native market id." })
  @MaxLength(L.marketId.max)
  marketId: string;
}
