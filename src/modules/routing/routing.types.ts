import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import type { Quote } from './order-book.math';
import {
  COST_VENUE_STATUSES,
  type CostAlternativeView,
  type CostBestView,
  type CostMarketView,
  type CostRundownView,
  type CostVenueStatus,
  type CostVenueView,
  type RouteAlternativeView,
  type RouteIntentView,
} from './routing.models';

export const CostVenueStatusEnum = graphqlEnum(COST_VENUE_STATUSES, {
  name: 'CostVenueStatus',
  description:
    '`ok`: every open market priced; `partial`: some books could not be read (those markets are left out, ' +
    'listed in `failedMarkets`); `unavailable`: no book could be read (outage); `no_open_markets`: the event ' +
    'has none there.',
});

@ObjectType('CostQuote', {
  description:
    'An order walked through a venue book: average and worst price, slippage against mid, fees, all-in cost.',
})
export class CostQuoteType implements Quote {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field(() => TradeSideEnum)
  side: Side;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => Float, { description: 'Contracts the order fills (below the target when the book is thin).' })
  contracts: number;
  @Field(() => Float, { description: 'Contracts the book offers on this side: the most any order could fill.' })
  fillableContracts: number;
  @Field({ description: 'Whether the whole target fills.' })
  complete: boolean;
  @Field(() => Float, { nullable: true, description: 'Volume-weighted average price, 0..1.' })
  avgPrice: number | null;
  @Field(() => Float, { nullable: true, description: 'Price of the last level touched.' })
  worstPrice: number | null;
  @Field(() => Float, { nullable: true, description: "Mid of the outcome's book (NO mid = 1 − YES mid)." })
  mid: number | null;
  @Field(() => Float, {
    nullable: true,
    description: 'Average price against mid, per contract (buys: avg − mid; sells: mid − avg).',
  })
  slippage: number | null;
  @Field(() => Int, { nullable: true })
  slippageBps: number | null;
  @Field(() => Float, { description: 'USD exchanged before fees.' })
  notionalUsd: number;
  @Field(() => Float, { description: "The venue's fees, USD." })
  feesUsd: number;
  @Field(() => Float, { description: 'Buys: notional + fees (paid); sells: notional − fees (received).' })
  allInUsd: number;
  @Field(() => Float, { nullable: true, description: 'All-in USD per contract.' })
  allInPrice: number | null;
}

@ObjectType('CostVenue')
export class CostVenueType implements CostVenueView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field(() => CostVenueStatusEnum)
  status: CostVenueStatus;
  @Field(() => Int, { description: 'Open markets of the event on this venue (priced or not).' })
  markets: number;
  @Field(() => [String], {
    description: "The venue's market ids whose book could not be read (left out of the figures).",
  })
  failedMarkets: string[];
  @Field(() => String, {
    nullable: true,
    description: 'Why markets are missing from the figures (the first failure), else null.',
  })
  reason: string | null;
}

@ObjectType('CostMarket', { description: 'An open market and the cost of the order on each outcome.' })
export class CostMarketType implements CostMarketView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field()
  title: string;
  @Field(() => CostQuoteType)
  yes: Quote;
  @Field(() => CostQuoteType)
  no: Quote;
}

@ObjectType('CostAlternative')
export class CostAlternativeType implements CostAlternativeView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field()
  marketId: string;
  @Field()
  complete: boolean;
  @Field(() => Float, { nullable: true })
  allInPrice: number | null;
}

@ObjectType('CostBest', { description: 'The best venue for one question of the event and one outcome.' })
export class CostBestType implements CostBestView {
  @Field()
  title: string;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => VenueEnum)
  venue: Venue;
  @Field()
  marketId: string;
  @Field(() => Float)
  contracts: number;
  @Field()
  complete: boolean;
  @Field(() => Float)
  allInUsd: number;
  @Field(() => Float, { nullable: true })
  allInPrice: number | null;
  @Field(() => CostAlternativeType, { nullable: true, description: 'The same question on the other venue.' })
  alternative: CostBestView['alternative'];
  @Field(() => Float, { nullable: true, description: 'USD per contract saved against the alternative.' })
  advantagePerContract: number | null;
}

@ObjectType('CostRundown', {
  description: 'The cost of an order on every open market of a core event, both venues, both outcomes.',
})
export class CostRundownType implements CostRundownView {
  @Field()
  coreId: string;
  @Field()
  eventTitle: string;
  @Field(() => TradeSideEnum)
  side: Side;
  @Field(() => Int, { nullable: true, description: 'Target in contracts…' })
  size: number | null;
  @Field(() => Float, { nullable: true, description: '…or in USD to spend (buys) / receive (sells).' })
  amountUsd: number | null;
  @Field(() => [CostVenueType], { description: 'Each venue, and why one is missing from the figures.' })
  venues: CostVenueView[];
  @Field(() => [CostMarketType])
  markets: CostMarketView[];
  @Field(() => [CostBestType])
  best: CostBestView[];
  @Field()
  generatedAt: Date;
}

@ObjectType('RouteAlternative')
export class RouteAlternativeType extends CostAlternativeType implements RouteAlternativeView {
  @Field(() => Float)
  allInCost: number;
}

@ObjectType('RouteIntent', {
  description: 'A quoted route: venue and market picked for an order, its price and fees, held until `expiresAt`.',
})
export class RouteIntentType implements RouteIntentView {
  @Field(() => ID)
  id: string;
  @Field()
  userId: string;
  @Field()
  accountId: string;
  @Field()
  coreId: string;
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field()
  marketTitle: string;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => TradeSideEnum)
  side: Side;
  @Field(() => Float, { description: 'Contracts.' })
  size: number;
  @Field(() => Float, { description: 'Volume-weighted average price of the quoted walk.' })
  quotedPrice: number;
  @Field(() => Float)
  worstPrice: number;
  @Field(() => Float, { nullable: true })
  mid: number | null;
  @Field(() => Float)
  notional: number;
  @Field(() => Float)
  fees: number;
  @Field(() => Float, { description: 'Buys: notional + fees; sells: notional − fees.' })
  allInCost: number;
  @Field(() => Float)
  allInPrice: number;
  @Field()
  expiresAt: Date;
  @Field()
  createdAt: Date;
  @Field(() => [RouteAlternativeType], { description: 'The other candidates priced, for transparency.' })
  alternatives: RouteAlternativeView[];
}
