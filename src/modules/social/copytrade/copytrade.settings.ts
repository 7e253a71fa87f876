import { defineSettings, setting } from '../../../settings';

/** A comma-separated list of category names, trimmed and lower-cased. */
function categoryList(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '');
}

/** Copytrading: copies per user per minute and the risk caps of each copy. */
export const copytradeSettings = defineSettings({
  name: 'copytrade',
  title: 'Copytrading',
  variables: {
    COPYTRADE_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      10,
      'copies per minute per user on `/api/social/copytrade` (429 beyond)',
    ),
    COPYTRADE_MAX_TRADE_USD: setting.integer(1, 10_000_000, 500, 'USD per copy'),
    COPYTRADE_MAX_DAILY_USD: setting.integer(1, 100_000_000, 2_000, 'USD per user per UTC day'),
    COPYTRADE_MAX_OPEN_POSITIONS: setting.integer(0, 10_000, 25, 'open positions a copy may add to'),
    COPYTRADE_MAX_PRICE_DEVIATION: setting.number(
      0,
      1,
      0.05,
      "largest distance between the best price and the trader's fill",
    ),
    COPYTRADE_ALLOWED_CATEGORIES: setting.text({
      meaning: 'event categories a copy may trade in',
      default: 'empty: all',
      accepted: 'comma-separated, any case',
      example: 'politics,sports',
    }),
    COPYTRADE_BLOCKED_CATEGORIES: setting.text({
      meaning: 'event categories a copy never trades in',
      default: 'empty',
      accepted: 'comma-separated, any case',
      example: 'crypto',
    }),
  },
  map: (v) => ({
    /**
     * Copytrading: copies per user per minute and the risk caps of each copy (USD per copy and per
     * UTC day, open positions, event categories allowed and blocked (lower case; empty allowed = all),
     * largest distance between the current best price and the trader's fill).
     */
    copytrade: {
      perMinute: v.COPYTRADE_RATE_LIMIT,
      maxTradeUsd: v.COPYTRADE_MAX_TRADE_USD,
      maxDailyUsd: v.COPYTRADE_MAX_DAILY_USD,
      maxOpenPositions: v.COPYTRADE_MAX_OPEN_POSITIONS,
      maxPriceDeviation: v.COPYTRADE_MAX_PRICE_DEVIATION,
      allowedCategories: categoryList(v.COPYTRADE_ALLOWED_CATEGORIES),
      blockedCategories: categoryList(v.COPYTRADE_BLOCKED_CATEGORIES),
    },
  }),
});
