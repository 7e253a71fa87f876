import { registerEnumType } from 'type-graphql';

/**
 * GraphQL enums shared across domains. Values are the wire values of the
 * interface documents (lowercase), so REST and GraphQL speak the same words.
 */
export enum VenueEnum {
  venue_a = 'venue_a',
  venue_b = 'venue_b',
}
registerEnumType(VenueEnum, { name: 'Venue', description: 'A trading venue.' });

export enum SourceTypeEnum {
  matched = 'matched',
  venue_a_only = 'venue_a_only',
  venue_b_only = 'venue_b_only',
}
registerEnumType(SourceTypeEnum, {
  name: 'SourceType',
  description: 'Which venues list the event: both (`matched`) or one of them.',
});

export enum MarketStatusEnum {
  active = 'active',
  closed = 'closed',
  resolved = 'resolved',
}
registerEnumType(MarketStatusEnum, { name: 'MarketStatus' });

export enum DiscoverSortEnum {
  activity_desc = 'activity_desc',
  updated_desc = 'updated_desc',
  close_asc = 'close_asc',
}
registerEnumType(DiscoverSortEnum, { name: 'DiscoverSort' });

export enum MarketSortEnum {
  volume_desc = 'volume_desc',
  updated_desc = 'updated_desc',
  close_asc = 'close_asc',
}
registerEnumType(MarketSortEnum, { name: 'MarketSort' });

export enum TradeSideEnum {
  buy = 'buy',
  sell = 'sell',
}
registerEnumType(TradeSideEnum, { name: 'TradeSide' });

export enum OutcomeEnum {
  yes = 'yes',
  no = 'no',
}
registerEnumType(OutcomeEnum, { name: 'Outcome' });
