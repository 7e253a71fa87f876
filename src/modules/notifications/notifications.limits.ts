import type { PreferenceKey } from './preferences.models';

/** Input bounds of the notifications surface (GraphQL arguments and the REST parameter schemas). */
export const NOTIFICATION_LIMITS = {
  limit: { min: 1, max: 100, default: 20 },
  offset: { min: 0, max: 100_000 },
  readIds: { max: 500 },
} as const;

/** Kinds of notification, each gated by its push preference. */
export const NOTIFICATION_KINDS = {
  order_fill: 'notifications.fills',
  followed_trade: 'notifications.followed_trades',
  comment_reply: 'notifications.comment_replies',
  comment_like: 'notifications.comment_likes',
  reward: 'notifications.rewards',
  withdrawal: 'notifications.withdrawals',
} as const satisfies Record<string, PreferenceKey>;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

/** Platforms a device registers its push token for. */
export const PUSH_PLATFORMS = ['ios', 'android', 'web'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];
