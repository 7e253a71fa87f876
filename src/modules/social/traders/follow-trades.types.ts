import { Field, Float, Int, ObjectType } from 'type-graphql';
import { OutcomeEnum, TradeSideEnum, VenueEnum } from '../../../graphql/enums';
import { HistoryWindowFieldsType } from '../../charts/charts.types';
import type { BubbleTraderView, BubbleView } from './bubbles';
import type { FollowTradesMarketView, FollowTradesView } from './follow-trades.service';

@ObjectType('BubbleTrader', { description: "One followed trader's trades inside a bubble." })
export class BubbleTraderType implements BubbleTraderView {
  @Field()
  traderId: string;
  @Field(() => Float, { description: 'Contracts traded in the bucket.' })
  size: number;
  @Field(() => Float, { description: 'USD exchanged (price × size).' })
  notional: number;
  @Field(() => Float, { description: 'Volume-weighted average price (0..1).' })
  avgPrice: number;
  @Field(() => Int)
  trades: number;
}

@ObjectType('FollowTradeBubble', {
  description: "Followed traders' trades sharing a group key: candle bucket `t`, venue, market, side and outcome.",
})
export class FollowTradeBubbleType implements BubbleView {
  @Field(() => Int, { description: 'Bucket start (unix seconds): the x-coordinate of the history row it overlays.' })
  t: number;
  @Field(() => VenueEnum)
  venue: BubbleView['venue'];
  @Field()
  marketId: string;
  @Field(() => TradeSideEnum)
  side: BubbleView['side'];
  @Field(() => OutcomeEnum)
  outcome: BubbleView['outcome'];
  @Field(() => Int, { description: 'Followed traders in the bubble (all, not only those listed).' })
  traderCount: number;
  @Field(() => Int)
  trades: number;
  @Field(() => Float, { description: 'Contracts, all traders.' })
  size: number;
  @Field(() => Float, { description: 'USD, all traders.' })
  notional: number;
  @Field(() => [BubbleTraderType], { description: 'The top N traders by trade size (contracts), largest first.' })
  traders: BubbleTraderView[];
}

@ObjectType('FollowTradesMarket')
export class FollowTradesMarketType implements FollowTradesMarketView {
  @Field(() => VenueEnum)
  venue: FollowTradesMarketView['venue'];
  @Field()
  marketId: string;
  @Field()
  title: string;
  @Field({ description: "False where the venue's public feed has no trader identity (venue_b): no bubbles there." })
  traderIdentity: boolean;
  @Field(() => [FollowTradeBubbleType], { description: 'Oldest first.' })
  bubbles: BubbleView[];
}

@ObjectType('FollowTrades', {
  description: "An overlay of the caller's followed traders' trades on the event's chart.",
})
export class FollowTradesType extends HistoryWindowFieldsType implements FollowTradesView {
  @Field()
  eventId: string;
  @Field(() => Int, { description: 'Effective range start, unix seconds (bubbles cover its whole buckets).' })
  from: number;
  @Field(() => Int, { description: 'Effective range end, unix seconds.' })
  to: number;
  @Field(() => Int)
  topN: number;
  @Field(() => [FollowTradesMarketType])
  markets: FollowTradesMarketView[];
}
