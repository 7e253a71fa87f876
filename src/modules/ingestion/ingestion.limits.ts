/** Bounds of the catalog admin surface. */
export const CATALOG_ADMIN_LIMITS = {
  /** Core event ids and venue event ids. */
  id: { max: 200 },
  decisions: { min: 1, max: 200, default: 50 },
  decisionsOffset: { min: 0, max: 100_000, default: 0 },
  /** An administrator's note, kept in the decision's reason. */
  reason: { max: 500 },
} as const;
