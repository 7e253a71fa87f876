import { Field, Float, Int, ObjectType } from 'type-graphql';
import { OutcomeEnum, VenueEnum } from '../../graphql/enums';
import { UncountedOffsetPageType } from '../../graphql/paging';
import type { BookLevel, OutcomeSide, Venue } from '../../venues/venue.models';
import type { MarketView } from '../events/events.models';
import { MarketType } from '../events/events.types';
import { TradeType } from '../trades/trades.types';
import type {
  CounterpartView,
  HolderSummaryView,
  HoldersView,
  HolderView,
  MarketTradeView,
  OrderBookView,
  TradePageView,
} from './markets.models';

@ObjectType('BookLevel', { description: 'A price level: YES price (0..1) and resting size in contracts.' })
export class BookLevelType implements BookLevel {
  @Field(() => Float)
  price: number;
  @Field(() => Float)
  size: number;
}

@ObjectType('OrderBook', { description: "A market's YES book, best level first on each side." })
export class OrderBookType implements OrderBookView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field()
  marketId: string;
  @Field(() => [BookLevelType], { description: 'Highest first.' })
  bids: BookLevel[];
  @Field(() => [BookLevelType], { description: 'Lowest first.' })
  asks: BookLevel[];
  @Field(() => Float, { nullable: true })
  spread: number | null;
  @Field(() => Float, { nullable: true })
  mid: number | null;
  @Field()
  timestamp: Date;
  @Field(() => String, {
    description: '`stream`: the book a venue stream keeps (no venue call); `venue`: read from the venue.',
  })
  source: OrderBookView['source'];
  @Field(() => Float, {
    nullable: true,
    description:
      "The market's sequence number of the book (its last market update included); null when read from the venue.",
  })
  seq: number | null;
}

@ObjectType('MarketTradePage', {
  description:
    'Public trades, newest first (offset pages; venues do not count trades, so `hasMore` instead of a total).',
})
export class MarketTradePageType extends UncountedOffsetPageType<MarketTradeView>(TradeType) implements TradePageView {}

@ObjectType('Holder', { description: 'A position in a market, aggregated per wallet and outcome.' })
export class HolderType implements HolderView {
  @Field({ description: 'Wallet address.' })
  wallet: string;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => Float, { description: 'Contracts held.' })
  size: number;
  @Field(() => Float, { nullable: true })
  avgPrice: number | null;
}

@ObjectType('MarketHolders', {
  description: "A market's largest holders. venue_b publishes no identities: an empty list with the reason.",
})
export class MarketHoldersType implements HoldersView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field()
  marketId: string;
  @Field({ description: 'False when the venue exposes no holder identities.' })
  supported: boolean;
  @Field(() => String, { nullable: true })
  reason: string | null;
  @Field(() => Int)
  limit: number;
  @Field(() => [HolderType], { description: 'Largest first.' })
  data: HolderView[];
}

@ObjectType('HolderSummary', { description: "Figures over the market's largest holders (up to 200)." })
export class HolderSummaryType implements HolderSummaryView {
  @Field()
  supported: boolean;
  @Field(() => String, { nullable: true })
  reason: string | null;
  @Field(() => Int)
  holders: number;
  @Field(() => Int)
  yesHolders: number;
  @Field(() => Int)
  noHolders: number;
  @Field(() => Float)
  yesSize: number;
  @Field(() => Float)
  noSize: number;
  @Field(() => Float, { nullable: true, description: 'Share of the counted size held by `top`, 0..1.' })
  topShare: number | null;
  @Field(() => [HolderType])
  top: HolderView[];
}

@ObjectType('MarketCounterpart', { description: 'The same question on the other venue, within the same core event.' })
export class MarketCounterpartType implements CounterpartView {
  @Field(() => MarketType)
  market: MarketView;
  @Field(() => Float, { description: 'Title similarity of the pair, 0..1.' })
  similarity: number;
  @Field(() => Float, { nullable: true, description: "This market's YES price minus the counterpart's." })
  priceDifference: number | null;
}
