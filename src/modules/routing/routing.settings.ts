import { defineSettings, prose, setting } from '../../settings';

/** Cost preview and routing: the venues' fee schedules, how long a routed quote holds, route intents. */
export const routingSettings = defineSettings({
  name: 'routing',
  title: 'Fees and routing',
  variables: {
    VENUE_A_FEE_RATE: setting.number(
      0,
      1,
      0,
      prose`venue_a fee: rate × contracts × (p(1 − p))^exponent per fill, rounded up to the micro-dollar (default:
        none)`,
    ),
    VENUE_A_FEE_EXPONENT: setting.number(0, 4, 1, 'the exponent of that fee'),
    VENUE_B_TAKER_FEE: setting.number(
      0,
      1,
      0.07,
      'venue_b taker fee coefficient: ceil to the cent of it × contracts × p(1 − p) per fill',
    ),
    ROUTE_QUOTE_TTL_SECONDS: setting.integer(
      1,
      3600,
      30,
      'how long a quoted route from `POST /route` holds (`expiresAt`)',
    ),
    ROUTE_INTENT_PURGE_MS: setting.integer(
      0,
      86_400_000,
      60_000,
      prose`how often route intents whose quote expired (and that no order used) are deleted in the background
        (0 = never)`,
    ),
    ROUTE_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      120,
      'quoted intents stored per minute per client on the public `POST /route`',
    ),
  },
  map: (v) => ({
    /** Venue fee schedules, how long a routed quote holds, and how often expired route intents are deleted. */
    trading: {
      fees: {
        venueA: { rate: v.VENUE_A_FEE_RATE, exponent: v.VENUE_A_FEE_EXPONENT },
        venueB: { takerCoefficient: v.VENUE_B_TAKER_FEE },
      },
      routeTtlSeconds: v.ROUTE_QUOTE_TTL_SECONDS,
      /** How often expired route intents are deleted (ms; 0 = never in the background). */
      routeIntentPurgeMs: v.ROUTE_INTENT_PURGE_MS,
    },
    /** Per client (the route is public): quoted route intents stored. */
    limits: { routeIntentsPerMinute: v.ROUTE_RATE_LIMIT },
  }),
});
