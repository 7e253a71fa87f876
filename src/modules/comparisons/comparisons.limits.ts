/** Bounds of the comparisons surface. */
export const COMPARISON_LIMITS = {
  bucket: { max: 64 },
  /** Comparison ids are positive 32-bit integers (the table's serial). */
  id: { min: 1, max: 2_147_483_647 },
} as const;

/**
 * How a venue_a event relates to its venue_b counterpart: `exact_match` (same resolution condition)
 * or `similar` (same topic, criteria or timeframe differ).
 */
export const RELATIONSHIP_TYPES = ['exact_match', 'similar'] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** How sure the matcher is of a comparison. */
export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];
