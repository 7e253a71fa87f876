export {
  ComparisonsService,
  comparisonUpserts,
  type ComparisonListQuery,
  type ComparisonPair,
} from './comparisons.service';
export {
  matchVenueEvents,
  surfaceRelationship,
  CLOSE_TOLERANCE_MS,
  type MatchRelationship,
  type MatchSide,
  type MatchVerdict,
  type Confidence,
  type RelationshipType,
} from './comparison-matcher';
export { bucketOf, subtagOf } from './comparison-taxonomy';
export * from './comparisons.models';
export * from './comparisons.limits';
