import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import { CountedCursorPageType } from '../../graphql/paging';
import { CoreEventFieldsType, VenueMarketFieldsType } from '../events/events.types';
import type { CursorPage } from './cursor-page';
import type {
  CategoryCountView,
  MarketDataEventView,
  MarketDataMarketView,
  MarketSummaryView,
} from './market-data.models';

@ObjectType('MarketDataMarket', {
  description: 'A venue market on the market-data surface. Prices on the 0..1 scale (1 = one dollar).',
})
export class MarketDataMarketType extends VenueMarketFieldsType implements MarketDataMarketView {
  @Field({ description: "The venue's native market id." })
  venueMarketId: string;
  @Field(() => ID, { description: "The service's event id." })
  coreEventId: string;
  @Field(() => String, { nullable: true })
  marketSlug: string | null;
  @Field(() => Date, { nullable: true, description: 'Scheduled close or resolution.' })
  endDateIso: Date | null;
  @Field(() => Float, { nullable: true, description: 'Midpoint of best bid and best ask (null unless both quote).' })
  midPrice: number | null;
  @Field(() => Float, { nullable: true, description: 'Best ask minus best bid (null unless both quote).' })
  spread: number | null;
}

@ObjectType('MarketSummary', { description: 'A market beside its counterpart in a comparison: quote and volume.' })
export class MarketSummaryType implements MarketSummaryView {
  @Field(() => VenueEnum)
  venue: MarketSummaryView['venue'];
  @Field()
  venueMarketId: string;
  @Field()
  title: string;
  @Field(() => Float, { nullable: true })
  midPrice: number | null;
  @Field(() => Float, { nullable: true })
  bestBid: number | null;
  @Field(() => Float, { nullable: true })
  bestAsk: number | null;
  @Field(() => Float, { nullable: true })
  spread: number | null;
  @Field(() => Float, { nullable: true })
  volume: number | null;
  @Field(() => Float, { nullable: true })
  volume24h: number | null;
}

@ObjectType('MarketDataEvent', { description: 'An item of the market-data events list.' })
export class MarketDataEventType extends CoreEventFieldsType implements MarketDataEventView {}

@ObjectType('EventCategory')
export class EventCategoryType implements CategoryCountView {
  @Field()
  category: string;
  @Field(() => Int, { description: 'Events in the category.' })
  count: number;
}

export const PAGE_FIELDS = {
  nextCursor: 'Opaque; pass it back as `cursor` for the next page. Null on the last page.',
  totalCount: 'Results matching the filters, over all pages.',
};

@ObjectType('MarketDataMarketPage', { description: 'A cursor page of venue markets, by identifier.' })
export class MarketDataMarketPageType
  extends CountedCursorPageType<MarketDataMarketView>(MarketDataMarketType, { descriptions: PAGE_FIELDS })
  implements CursorPage<MarketDataMarketView> {}

@ObjectType('MarketDataEventPage', { description: 'A cursor page of core events, by identifier.' })
export class MarketDataEventPageType
  extends CountedCursorPageType<MarketDataEventView>(MarketDataEventType, { descriptions: PAGE_FIELDS })
  implements CursorPage<MarketDataEventView> {}
