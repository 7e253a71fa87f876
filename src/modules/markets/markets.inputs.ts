import { ArrayMaxSize, ArrayMinSize, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import { OffsetPagingArgs } from '../../graphql/paging';
import { MARKETS_LIMITS as L } from './markets.limits';
import { type Venue } from '../../venues/venue.models';

const between = (lo: number, hi: number) => ({ message: `must be an integer from ${lo} to ${hi}` });

@ArgsType()
export class MarketRefArgs {
  @Field(() => VenueEnum)
  venue: Venue;

  @Field({ description: "The venue's market id." })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(L.marketId.max, { message: `must be at most ${L.marketId.max} characters` })
  marketId: string;
}

@ArgsType()
export class OrderBookArgs {
  @Field(() => Int, {
    defaultValue: L.bookDepth.default,
    description: `Levels per side, ${L.bookDepth.min}..${L.bookDepth.max}.`,
  })
  @Min(L.bookDepth.min, between(L.bookDepth.min, L.bookDepth.max))
  @Max(L.bookDepth.max, between(L.bookDepth.min, L.bookDepth.max))
  depth: number;
}

@ArgsType()
export class MarketTradesArgs extends OffsetPagingArgs(
  { limit: L.trades, offset: L.tradesOffset },
  { rangeMessage: true },
) {}

@ArgsType()
export class HoldersArgs {
  @Field(() => Int, { defaultValue: L.holders.default, description: `${L.holders.min}..${L.holders.max}` })
  @Min(L.holders.min, between(L.holders.min, L.holders.max))
  @Max(L.holders.max, between(L.holders.min, L.holders.max))
  limit: number;
}

@InputType('MarketRefInput')
export class MarketRefInput {
  @Field(() => VenueEnum)
  venue: Venue;

  @Field()
  @MaxLength(L.marketId.max)
  marketId: string;
}

@ArgsType()
export class OrderBooksArgs extends OrderBookArgs {
  @Field(() => [MarketRefInput], {
    description: `The markets, 1..${L.orderBooks.max}; a book per market, in this order.`,
  })
  @ArrayMinSize(1, { message: 'must list at least one market' })
  @ArrayMaxSize(L.orderBooks.max, { message: `must list at most ${L.orderBooks.max} markets` })
  @ValidateNested({ each: true })
  markets: MarketRefInput[];
}
