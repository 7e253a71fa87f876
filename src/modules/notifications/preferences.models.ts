import { AppError } from '../../errors/app-error';

/**
 * The preference keys a user may store, with their value types and defaults.
 * GET answers every key (stored or default); PUT merges given keys and refuses
 * unknown keys, wrong types and oversize values.
 */
type Spec =
  | { type: 'boolean'; default: boolean; description: string }
  | { type: 'enum'; values: readonly string[]; default: string; description: string }
  | { type: 'integer'; min: number; max: number; default: number; description: string }
  | { type: 'string-list'; maxItems: number; maxLength: number; default: string[]; description: string };

export const PREFERENCES = {
  'notifications.fills': {
    type: 'boolean',
    default: true,
    description: 'Push a notification when an order of yours fills.',
  },
  'notifications.followed_trades': {
    type: 'boolean',
    default: true,
    description: 'Push when a trader you follow trades.',
  },
  'notifications.comment_replies': { type: 'boolean', default: true, description: 'Push on replies to your comments.' },
  'notifications.comment_likes': { type: 'boolean', default: false, description: 'Push on likes of your comments.' },
  'notifications.rewards': { type: 'boolean', default: true, description: 'Push when a reward is credited.' },
  'notifications.withdrawals': { type: 'boolean', default: true, description: 'Push when a withdrawal changes state.' },
  'display.odds_format': {
    type: 'enum',
    values: ['probability', 'decimal', 'american'],
    default: 'probability',
    description: 'How prices are shown.',
  },
  'display.currency': { type: 'enum', values: ['USD', 'EUR', 'GBP'], default: 'USD', description: 'Display currency.' },
  'trading.default_order_size': {
    type: 'integer',
    min: 1,
    max: 100_000,
    default: 10,
    description: 'Contracts pre-filled in order tickets.',
  },
  'trading.slippage_tolerance_bps': {
    type: 'integer',
    min: 0,
    max: 1000,
    default: 100,
    description: 'Tolerance for market orders, in basis points.',
  },
  'trading.confirm_orders': { type: 'boolean', default: true, description: 'Ask before sending an order.' },
  'home.categories': {
    type: 'string-list',
    maxItems: 10,
    maxLength: 32,
    default: [],
    description: 'Categories shown first on the home screen.',
  },
} as const satisfies Record<string, Spec>;

export type PreferenceKey = keyof typeof PREFERENCES;
export type PreferenceValue = boolean | number | string | string[];
export type Preferences = Record<PreferenceKey, PreferenceValue>;

export const PREFERENCE_KEYS = Object.keys(PREFERENCES) as PreferenceKey[];

export function isPreferenceKey(key: string): key is PreferenceKey {
  return Object.prototype.hasOwnProperty.call(PREFERENCES, key);
}

/** Checks one value against its key's spec; a 400 naming the key otherwise. */
export function checkPreference(key: string, value: unknown): PreferenceValue {
  if (!isPreferenceKey(key))
    throw AppError.badRequest(key, `is not a preference (known: ${PREFERENCE_KEYS.join(', ')})`);
  const spec: Spec = PREFERENCES[key];
  switch (spec.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw AppError.badRequest(key, 'must be true or false');
      return value;
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value))
        throw AppError.badRequest(key, `must be one of ${spec.values.join(', ')}`);
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
        throw AppError.badRequest(key, `must be an integer from ${spec.min} to ${spec.max}`);
      }
      return value;
    case 'string-list':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        throw AppError.badRequest(key, 'must be a list of strings');
      if (value.length > spec.maxItems) throw AppError.badRequest(key, `must have at most ${spec.maxItems} items`);
      if ((value as string[]).some((v) => v.length === 0 || v.length > spec.maxLength)) {
        throw AppError.badRequest(key, `items must be 1 to ${spec.maxLength} characters`);
      }
      return value as string[];
    default: {
      const never: never = spec;
      throw new Error(`unknown spec ${String(never)}`);
    }
  }
}

export function defaultPreferences(): Preferences {
  return Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, structuredClone(PREFERENCES[k].default)])) as Preferences;
}
