/** Bounds of the usage report (the interface document's Limits section). */
export const USAGE_LIMITS = {
  days: { min: 1, max: 90, default: 30 },
} as const;

/** The endpoint name usage counts GraphQL requests under. */
export const GRAPHQL_ENDPOINT = '/graphql';
/** Requests to paths no route serves are counted under one name, so junk paths cannot grow the table. */
export const UNMATCHED_ENDPOINT = 'other';
