import type { CatalogDecision } from '../../db/generated/client';
import type { Confidence, RelationshipType } from '../comparisons/comparisons.limits';

/** One core event for a pair of venue events (`merge`), or one each (`separate`). */
export const CATALOG_DECISION_KINDS = ['merge', 'separate'] as const;
export type CatalogDecisionKind = (typeof CATALOG_DECISION_KINDS)[number];

/** Who made a catalog decision: the catalog job's matcher, or an administrator (then pinned). */
export const CATALOG_DECISION_ORIGINS = ['matcher', 'admin'] as const;
export type CatalogDecisionOrigin = (typeof CATALOG_DECISION_ORIGINS)[number];

/** A catalog decision as the admin surface shows it. */
export interface CatalogDecisionView {
  id: number;
  venueAEventId: string;
  venueBEventId: string;
  decision: CatalogDecisionKind;
  origin: CatalogDecisionOrigin;
  pinned: boolean;
  similarity: number;
  relationshipType: RelationshipType | null;
  confidence: Confidence | null;
  reason: string;
  coreEventId: string | null;
  updatedAt: Date;
}

export function toCatalogDecisionView(d: CatalogDecision): CatalogDecisionView {
  return {
    id: d.id,
    venueAEventId: d.venueAEventId,
    venueBEventId: d.venueBEventId,
    decision: d.decision,
    origin: d.origin,
    pinned: d.pinned,
    similarity: Number(d.similarity),
    relationshipType: d.relationshipType,
    confidence: d.confidence,
    reason: d.reason,
    coreEventId: d.coreEventId,
    updatedAt: d.updatedAt,
  };
}
