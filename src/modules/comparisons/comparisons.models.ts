import type { Comparison } from '../../db/generated/client';
import type { Venue } from '../../venues/venue.models';
import type { Confidence, RelationshipType } from './comparison-matcher';

/** A cross-venue mapping as the surface shows it (the detail adds market summaries). */
export interface ComparisonView {
  id: number;
  venueAId: string;
  venueBId: string;
  venueATitle: string | null;
  venueBTitle: string | null;
  relationshipType: RelationshipType;
  confidence: Confidence;
  reasoning: string | null;
  bucket: string | null;
  subtag: string | null;
}

export function toComparisonView(c: Comparison): ComparisonView {
  return {
    id: c.id,
    venueAId: c.venueAEventId,
    venueBId: c.venueBEventId,
    venueATitle: c.venueATitle,
    venueBTitle: c.venueBTitle,
    relationshipType: c.relationshipType,
    confidence: c.confidence,
    reasoning: c.reasoning,
    bucket: c.bucket,
    subtag: c.subtag,
  };
}

/** Loader key of a venue event's markets. */
export function venueEventKey(venue: Venue, venueEventId: string): string {
  return `${venue}:${venueEventId}`;
}
