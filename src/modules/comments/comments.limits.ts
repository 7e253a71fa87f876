/** Bounds of the comments surface. */
export const COMMENT_LIMITS = {
  body: { min: 1, max: 2000 },
  limit: { min: 1, max: 100, default: 20 },
  offset: { min: 0, max: 10_000, default: 0 },
} as const;

export const COMMENT_SORTS = ['recent', 'top'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
