/** Bounds of the comparisons surface. */
export const COMPARISON_LIMITS = {
  bucket: { max: 64 },
  /** Comparison ids are positive 32-bit integers (the table's serial). */
  id: { min: 1, max: 2_147_483_647 },
} as const;

export const RELATIONSHIP_TYPES = ['exact_match', 'similar'] as const;
export const CONFIDENCES = ['high', 'medium', 'low'] as const;
