import { Field, Float, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, VenueEnum } from '../../graphql/enums';
import type { Venue } from '../../venues/venue.models';
import type { Confidence, RelationshipType } from '../comparisons/comparisons.limits';
import { ConfidenceEnum, RelationshipTypeEnum } from '../comparisons/comparisons.types';
import type { SyncReport } from './catalog.service';
import {
  CATALOG_DECISION_KINDS,
  CATALOG_DECISION_ORIGINS,
  type CatalogDecisionKind,
  type CatalogDecisionOrigin,
  type CatalogDecisionView,
} from './ingestion.models';

@ObjectType('CatalogSyncReport')
export class CatalogSyncReportType implements SyncReport {
  @Field(() => Int, { description: 'Core events written.' })
  events: number;
  @Field(() => Int, { description: 'Markets written.' })
  markets: number;
  @Field(() => Int, { description: 'Core events holding a venue_a event merged with its venue_b match.' })
  merged: number;
  @Field(() => [VenueEnum], { description: 'Venues whose listing failed; nothing was regrouped.' })
  failedVenues: Venue[];
  @Field({ description: 'True when another process was syncing: this run wrote nothing.' })
  skipped: boolean;
}

const CatalogDecisionKindEnum = graphqlEnum(CATALOG_DECISION_KINDS, {
  name: 'CatalogDecisionKind',
  description: 'One core event for the pair (`merge`) or one each (`separate`).',
});
const CatalogDecisionOriginEnum = graphqlEnum(CATALOG_DECISION_ORIGINS, {
  name: 'CatalogDecisionOrigin',
  description: 'Who decided: the catalog job (`matcher`) or an administrator (`admin`).',
});

@ObjectType('CatalogDecision', {
  description: 'The catalog job’s decision on a venue_a event and a venue_b event; pinned ones survive every sync.',
})
export class CatalogDecisionType implements CatalogDecisionView {
  @Field(() => Int)
  id: number;
  @Field()
  venueAEventId: string;
  @Field()
  venueBEventId: string;
  @Field(() => CatalogDecisionKindEnum)
  decision: CatalogDecisionKind;
  @Field(() => CatalogDecisionOriginEnum)
  origin: CatalogDecisionOrigin;
  @Field()
  pinned: boolean;
  @Field(() => Float, { description: 'Cosine similarity of the two events’ search embeddings (0..1).' })
  similarity: number;
  @Field(() => RelationshipTypeEnum, { nullable: true, description: 'The comparisons matcher’s verdict.' })
  relationshipType: RelationshipType | null;
  @Field(() => ConfidenceEnum, { nullable: true })
  confidence: Confidence | null;
  @Field()
  reason: string;
  @Field(() => String, { nullable: true, description: 'The merged core event; null when kept apart.' })
  coreEventId: string | null;
  @Field()
  updatedAt: Date;
}

@ObjectType('CatalogDecisionPage')
export class CatalogDecisionPageType {
  @Field(() => [CatalogDecisionType])
  data: CatalogDecisionView[];
  @Field(() => Int)
  limit: number;
  @Field(() => Int)
  offset: number;
  @Field(() => Int)
  total: number;
}
