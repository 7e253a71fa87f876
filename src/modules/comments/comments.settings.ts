import { defineSettings, setting } from '../../settings';

/** Comments: how many a user creates, likes and unlikes per minute. */
export const commentsSettings = defineSettings({
  name: 'comments',
  title: 'Comments',
  variables: {
    COMMENT_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      30,
      'comments (and replies) created per minute per user, on events and trades',
    ),
    LIKE_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      120,
      'likes and unlikes per minute per user (`/api/comments/{commentId}/like`)',
    ),
  },
  map: (v) => ({
    /** Per user: comments created, likes and unlikes. */
    limits: { commentsPerMinute: v.COMMENT_RATE_LIMIT, likesPerMinute: v.LIKE_RATE_LIMIT },
  }),
});
