import { registerEnumType } from 'type-graphql';
import { MARKET_STATUSES, OUTCOME_SIDES, SOURCE_TYPES, TRADE_SIDES, VENUES } from '../venues/venue.models';

/** What the schema says about one value of an enum (keyed by the wire value). */
export interface EnumValueConfig {
  description?: string;
  deprecationReason?: string;
}

/** How a wire-value tuple is shown in the schema. */
export interface GraphqlEnumOptions<V extends string> {
  /** The GraphQL type name. */
  name: string;
  description?: string;
  valuesConfig?: Partial<Record<V, EnumValueConfig>>;
}

/** An enum object whose keys are its values: `Venue.venue_a === 'venue_a'`. */
export type EnumObject<V extends string> = { readonly [K in V]: K };

/**
 * Registers the GraphQL enum of a wire-value tuple (`const VENUES = [...] as const`)
 * and returns its `{ value: value }` object, for `@Field(() => VenueEnum)` and
 * `VenueEnum.venue_a`. The values are declared once, in the tuple that REST
 * validation and the services read too; GraphQL value names are the wire values
 * (lowercase), so REST and GraphQL speak the same words. Fields and arguments
 * are typed with the tuple's union (`venue: Venue`); the object is only what
 * the schema is told.
 */
export function graphqlEnum<const V extends string>(
  values: readonly V[],
  options: GraphqlEnumOptions<V>,
): EnumObject<V> {
  const enumObject = Object.freeze(Object.fromEntries(values.map((v) => [v, v]))) as EnumObject<V>;
  registerEnumType(enumObject, options);
  return enumObject;
}

// Enums shared across domains (the venue contract's words); a domain's own enums live in its module.

export const VenueEnum = graphqlEnum(VENUES, { name: 'Venue', description: 'A trading venue.' });

export const SourceTypeEnum = graphqlEnum(SOURCE_TYPES, {
  name: 'SourceType',
  description: 'Which venues list the event: both (`matched`) or one of them.',
});

export const MarketStatusEnum = graphqlEnum(MARKET_STATUSES, { name: 'MarketStatus' });

export const TradeSideEnum = graphqlEnum(TRADE_SIDES, { name: 'TradeSide' });

export const OutcomeEnum = graphqlEnum(OUTCOME_SIDES, { name: 'Outcome' });
