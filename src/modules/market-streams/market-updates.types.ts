import { Field, Float, ID, ObjectType } from 'type-graphql';
import { OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import type { BookLevel, OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { BookLevelType } from '../markets/markets.types';

@ObjectType('MarketTradeTick', { description: 'A trade in a market, as its stream carries it.' })
export class MarketTradeTickType {
  @Field(() => ID, { description: '`venue:venueTradeId`, as on the `trades` subscription.' })
  id: string;
  @Field(() => TradeSideEnum)
  side: Side;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => Float, { description: "In the traded outcome's terms." })
  price: number;
  @Field(() => Float)
  size: number;
  @Field()
  filledAt: Date;
}

@ObjectType('MarketUpdate', {
  description:
    "One message of a market's stream: a `snapshot` of the top of the YES book first (and again after a gap), " +
    'then each change (`delta`), or `stale` while the book is not live; `seq` is consecutive per market.',
})
export class MarketUpdateType {
  @Field(() => ID, { description: '`venue:marketId:seq`: resume after it (REST `Last-Event-ID`, GraphQL `after`).' })
  id: string;
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field(() => Float, { description: "The market's sequence number: each update the previous one's plus 1." })
  seq: number;
  @Field({
    description:
      '`snapshot`: `bids` and `asks` are the top of the book to `depth` (replace what is held); `delta`: the levels ' +
      'that changed within it, at their new size (0: gone from it); `stale`: the book is not live (no levels) until ' +
      'the next `snapshot`.',
  })
  kind: string;
  @Field({ description: '`book`: the whole book streams; `quotes`: only best bid, best ask and last price do.' })
  depth: string;
  @Field(() => [BookLevelType], { description: 'Highest first.' })
  bids: BookLevel[];
  @Field(() => [BookLevelType], { description: 'Lowest first.' })
  asks: BookLevel[];
  @Field(() => Float, { nullable: true })
  bestBid: number | null;
  @Field(() => Float, { nullable: true })
  bestAsk: number | null;
  @Field(() => Float, { nullable: true, description: "The last trade's YES price." })
  lastPrice: number | null;
  @Field(() => Float, { nullable: true })
  tickSize: number | null;
  @Field(() => [MarketTradeTickType], { description: 'Trades since the previous update, oldest first.' })
  trades: MarketTradeTickType[];
  @Field({ description: "The venue's time of the newest change." })
  at: Date;
  @Field({ description: 'When the change reached the service (for a snapshot: when it was taken).' })
  receivedAt: Date;
  @Field(() => String, { nullable: true, description: 'Why, for `stale`.' })
  reason: string | null;
}
