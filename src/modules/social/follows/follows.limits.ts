/** Paging of the caller's follows. */
export const FOLLOW_LIMITS = { limit: { min: 1, max: 200, default: 50 }, offset: { min: 0, max: 100_000 } } as const;
