import { Field, Float, ID, ObjectType } from 'type-graphql';
import { MarketStatusEnum, SourceTypeEnum, VenueEnum } from '../../graphql/enums';
import { NumberedPageType } from '../../graphql/paging';
import type { MarketFigures, MarketStatus, Venue, VenueMarket } from '../../venues/venue.models';
import type { CoreEventFields, EventView, MarketView, OutcomeTokenIds } from './events.models';

/** What `Market` and `MarketDataMarket` show of a venue market under the venue's own names. */
type VenueMarketFields = MarketFigures &
  Pick<VenueMarket, 'venue' | 'venueEventId' | 'title' | 'description' | 'status' | 'outcomes' | 'bestBid' | 'bestAsk'>;

@ObjectType('OutcomeTokenIds', {
  description: "A market's outcome tokens (venue_a's CLOB / on-chain asset ids, in decimal): what fills name.",
})
export class OutcomeTokenIdsType implements OutcomeTokenIds {
  @Field({ description: 'The YES token id.' })
  yes: string;
  @Field({ description: 'The NO token id.' })
  no: string;
}

/**
 * The fields every GraphQL view of a venue market declares alike (`Market` here,
 * `MarketDataMarket` on the market-data surface), its figures and pictures included; each adds
 * its ids and the fields it names or describes otherwise. Never named in the schema.
 */
@ObjectType()
export abstract class VenueMarketFieldsType implements VenueMarketFields {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: "The venue's native event id." })
  venueEventId: string;
  @Field()
  title: string;
  @Field(() => String, { nullable: true, description: 'Resolution criteria.' })
  description: string | null;
  @Field(() => MarketStatusEnum)
  status: MarketStatus;
  @Field(() => [String])
  outcomes: string[];
  @Field(() => Float, { nullable: true })
  bestBid: number | null;
  @Field(() => Float, { nullable: true })
  bestAsk: number | null;
  @Field(() => Float, { nullable: true })
  volume: number | null;
  @Field(() => Float, { nullable: true })
  volume24h: number | null;
  @Field(() => Float, { nullable: true })
  openInterest: number | null;
  @Field(() => Float, { nullable: true })
  liquidity: number | null;
  @Field(() => String, { nullable: true })
  iconUrl: string | null;
  @Field(() => String, { nullable: true })
  imageUrl: string | null;
  @Field(() => OutcomeTokenIdsType, {
    nullable: true,
    description: "The outcomes' token ids where the venue trades them as tokens (venue_a); null elsewhere.",
  })
  outcomeTokenIds: OutcomeTokenIds | null;
}

@ObjectType('Market', { description: "A venue's market inside a core event. Prices are on the 0..1 scale." })
export class MarketType extends VenueMarketFieldsType implements MarketView {
  @Field(() => ID, { description: 'Internal id (`venue:marketId`).' })
  id: string;
  @Field({ description: "The venue's native market id." })
  marketId: string;
  @Field(() => ID, { description: 'The core event this market belongs to.' })
  eventId: string;
  @Field(() => String, { nullable: true })
  slug: string | null;
  @Field(() => Date, { nullable: true })
  endDate: Date | null;
  @Field(() => Float, { nullable: true })
  lastPrice: number | null;
  @Field()
  updatedAt: Date;
}

/**
 * The fields every GraphQL view of a core event declares alike (`Event` here, `MarketDataEvent`
 * on the market-data surface). Never named in the schema.
 */
@ObjectType()
export abstract class CoreEventFieldsType implements CoreEventFields {
  @Field(() => ID)
  id: string;
  @Field()
  slug: string;
  @Field()
  title: string;
  @Field()
  category: string;
  @Field(() => SourceTypeEnum)
  sourceType: CoreEventFields['sourceType'];
  @Field(() => Date, { nullable: true })
  closeTime: Date | null;
}

@ObjectType('Event', { description: 'A core event: one question, with the markets of one or both venues.' })
export class EventType extends CoreEventFieldsType implements EventView {
  @Field()
  description: string;
  @Field(() => Float, { description: '24 h volume across the markets: the discover `activity_desc` order.' })
  activityScore: number;
  @Field()
  updatedAt: Date;
}

@ObjectType('EventPage', { description: 'A page of events.' })
export class EventPageType extends NumberedPageType<EventView>(EventType, {
  descriptions: { total: 'Events matching the filters, over all pages.' },
}) {}
