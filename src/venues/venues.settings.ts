import { createPrivateKey } from 'node:crypto';
import { defineSettings, prose, setting, type SettingsOf } from '../settings';
import { SIM_SECRET_BYTES } from './sim/sim-keys';

/** The venues' public API bases, used unless overridden. */
export const VENUE_DEFAULT_URLS = {
  gamma: 'https://gamma-api.polymarket.com',
  clob: 'https://clob.polymarket.com',
  data: 'https://data-api.polymarket.com',
  kalshi: 'https://api.elections.kalshi.com/trade-api/v2',
  /** venue_a's CLOB websocket, market channel. */
  venueAWs: 'wss://ws-subscriptions-clob.polymarket.com/ws/market',
  /** venue_b's trade API v2 websocket. */
  venueBWs: 'wss://api.elections.kalshi.com/trade-api/ws/v2',
} as const;

const SOURCES = ['sim', 'live'] as const;
const httpUrl = (fallback: string, meaning: string) =>
  setting.url(['http:', 'https:'], { meaning, default: `\`${fallback}\``, example: fallback });
const wsUrl = (fallback: string, meaning: string) =>
  setting.url(['ws:', 'wss:'], { meaning, default: `\`${fallback}\``, example: fallback });
const sourceOf = (venue: string) =>
  setting.optionalChoice(SOURCES, { meaning: `the same for ${venue} alone`, default: '`VENUE_SOURCE`' });
const trim = (u: string): string => u.replace(/\/+$/, '');

/**
 * Where each venue's data comes from (the simulated world or the real venues), and the live clients'
 * endpoints, keys, budgets, breakers and push channels (docs/venues.md).
 */
export const venuesSettings = defineSettings({
  name: 'venues',
  title: 'Venues',
  variables: {
    VENUE_SOURCE: setting.choice(SOURCES, 'sim', "both venues: the simulated world, or the real venues' public APIs"),
    VENUE_A_SOURCE: sourceOf('venue_a'),
    VENUE_B_SOURCE: sourceOf('venue_b'),
    ALLOW_SIMULATED_VENUES: setting.choice(
      ['true', 'false'],
      'false',
      prose`with \`NODE_ENV=production\`, while a venue is simulated the service refuses to start unless this is
        \`true\`, and then runs the simulated world on a secret (\`SIM_SECRET\` or a random one) and refuses live
        orders on the simulated venues (409)`,
    ),
    VENUE_A_GAMMA_URL: httpUrl(VENUE_DEFAULT_URLS.gamma, 'venue_a events and markets'),
    VENUE_A_CLOB_URL: httpUrl(VENUE_DEFAULT_URLS.clob, 'venue_a books and price history'),
    VENUE_A_DATA_URL: httpUrl(VENUE_DEFAULT_URLS.data, 'venue_a trades and holders'),
    VENUE_B_API_URL: httpUrl(VENUE_DEFAULT_URLS.kalshi, "venue_b's trade API v2 base (with its path)"),
    VENUE_B_API_KEY_ID: setting.text('venue_b API key id; set with `VENUE_B_PRIVATE_KEY`, or neither'),
    VENUE_B_PRIVATE_KEY: setting.text({
      meaning: prose`signs live venue_b orders and the websocket's handshake (its books stream only then); checked
        at start. Without the pair, live venue_b orders are 503`,
      accepted: 'RSA private key, PEM (`\\n` escapes accepted)',
    }),
    VENUE_TRADES_POLL_MS: setting.integer(
      100,
      3_600_000,
      5_000,
      prose`how often each live venue's recent trades are polled while the trade feed has listeners (venue_b's only
        while its stream is down), and watched books no stream carries`,
    ),
    VENUE_HTTP_TIMEOUT_MS: setting.integer(100, 120_000, 10_000, 'timeout of one request to a venue'),
    VENUE_HTTP_RETRIES: setting.integer(
      0,
      10,
      2,
      'extra attempts of a GET after a 5xx, a network error or a timeout (backoff with jitter), and of any request ' +
        'after a 429',
    ),
    VENUE_A_RATE_LIMIT: setting.integer(
      1,
      100_000,
      100,
      'reads per 10 s to each venue_a API (the read budget, shared by all processes through Redis)',
    ),
    VENUE_B_RATE_LIMIT: setting.integer(
      1,
      100_000,
      10,
      'reads per second to venue_b (the read budget, shared likewise)',
    ),
    VENUE_A_ORDER_RATE_LIMIT: setting.integer(
      1,
      100_000,
      100,
      prose`venue_a's order budget: a live order's book read (its quote) on the CLOB, per 10 s, with its own
        connection pool and circuit breaker, so reads never hold an order up
        ([venues](venues.md#published-rate-limits-and-what-is-kept-to))`,
    ),
    VENUE_B_ORDER_RATE_LIMIT: setting.integer(
      1,
      100_000,
      10,
      "venue_b's order budget: orders and a live order's book read, per second, with their own pool and breaker",
    ),
    VENUE_READ_CACHE_MS: setting.integer(
      0,
      60_000,
      1000,
      prose`how long a live venue's book, trades page, holders or history answer is shared by every caller of the
        process (one call in flight per question; 0 = every ask is a call). Simulated venues are not cached`,
    ),
    VENUE_BREAKER_FAILURES: setting.integer(1, 1_000, 5, 'failures in a row after which a venue API fails fast'),
    VENUE_BREAKER_RESET_MS: setting.integer(
      10,
      3_600_000,
      30_000,
      'how long it fails fast before one probe is let through',
    ),
    VENUE_STREAMS: setting.choice(
      ['on', 'off'],
      'on',
      prose`the venues' push channels: a live venue's websocket and the simulated world's stream, held by one
        process (the \`ingestion:venue streams\` lease); \`off\`: trades polled, books read on request
        ([venues](venues.md#what-is-streamed))`,
    ),
    VENUE_A_WS_URL: wsUrl(VENUE_DEFAULT_URLS.venueAWs, "venue_a's CLOB websocket, market channel"),
    VENUE_B_WS_URL: wsUrl(
      VENUE_DEFAULT_URLS.venueBWs,
      prose`venue_b's trade API v2 websocket (its handshake is signed with
        \`VENUE_B_API_KEY_ID\`/\`VENUE_B_PRIVATE_KEY\` when set; books stream only then)`,
    ),
    VENUE_STREAM_MARKETS: setting.integer(
      0,
      100_000,
      500,
      prose`the most active listed markets (by 24-hour volume) each venue's stream follows, besides the markets
        clients watch`,
    ),
    VENUE_WS_PING_MS: setting.integer(
      100,
      120_000,
      10_000,
      "the websockets' heartbeat; a connection silent for three is closed and opened again",
    ),
    VENUE_WS_RECONNECT_MAX_MS: setting.integer(
      100,
      600_000,
      30_000,
      'the longest wait before a reconnect (waits grow from 250 ms, doubling, with full jitter)',
    ),
    VENUE_STREAM_RESYNC_MS: setting.integer(
      0,
      600_000,
      3_000,
      "how long a watched market whose book the stream lost waits for the venue's snapshot before it is read over HTTP",
    ),
  },
  check(v, ctx) {
    // The simulated books are a pure function of the world's secret and time: never a public one where money is real.
    const anySimulated = [v.VENUE_A_SOURCE, v.VENUE_B_SOURCE].some((s) => (s ?? v.VENUE_SOURCE) === 'sim');
    if (ctx.production && anySimulated && v.ALLOW_SIMULATED_VENUES !== 'true') {
      ctx.problem(
        'ALLOW_SIMULATED_VENUES: the venues are simulated; set it to true to run them with NODE_ENV=production ' +
          `(they then use SIM_SECRET, or a random ${SIM_SECRET_BYTES * 8}-bit secret)`,
      );
    }
  },
  map(v, ctx) {
    // PEM in a single-line environment variable usually arrives with literal `\n` escapes.
    const pem = v.VENUE_B_PRIVATE_KEY?.replace(/\\n/g, '\n');
    checkKeyPair(v.VENUE_B_API_KEY_ID, pem, ctx.problem);
    return {
      /** Where each venue's data comes from, and the live clients' endpoints, keys and limits. */
      venues: {
        source: { venue_a: v.VENUE_A_SOURCE ?? v.VENUE_SOURCE, venue_b: v.VENUE_B_SOURCE ?? v.VENUE_SOURCE },
        /**
         * venue_a's three APIs (Gamma events, the CLOB's books and history, the Data API's trades and
         * holders): reads per 10 s per API (`ratePer10s`) and, on the CLOB, the order budget per 10 s
         * (`orderRatePer10s`: a live order's own book read), kept apart so reads never hold up an order.
         */
        venueA: {
          gammaUrl: trim(v.VENUE_A_GAMMA_URL ?? VENUE_DEFAULT_URLS.gamma),
          clobUrl: trim(v.VENUE_A_CLOB_URL ?? VENUE_DEFAULT_URLS.clob),
          dataUrl: trim(v.VENUE_A_DATA_URL ?? VENUE_DEFAULT_URLS.data),
          ratePer10s: v.VENUE_A_RATE_LIMIT,
          orderRatePer10s: v.VENUE_A_ORDER_RATE_LIMIT,
        },
        /**
         * venue_b's trade API v2: reads per second (`ratePerSecond`) and the order budget per second (orders
         * and their book reads); the key id and its RSA private key (PEM), both or neither, needed only for
         * live orders.
         */
        venueB: {
          apiUrl: trim(v.VENUE_B_API_URL ?? VENUE_DEFAULT_URLS.kalshi),
          apiKeyId: v.VENUE_B_API_KEY_ID,
          privateKeyPem: pem,
          ratePerSecond: v.VENUE_B_RATE_LIMIT,
          orderRatePerSecond: v.VENUE_B_ORDER_RATE_LIMIT,
        },
        /**
         * How long a live venue's book, trades page, holders or history answer is shared by every caller
         * (ms; 0 = not).
         */
        readCacheMs: v.VENUE_READ_CACHE_MS,
        tradesPollMs: v.VENUE_TRADES_POLL_MS,
        http: {
          timeoutMs: v.VENUE_HTTP_TIMEOUT_MS,
          retries: v.VENUE_HTTP_RETRIES,
          breakerFailures: v.VENUE_BREAKER_FAILURES,
          breakerResetMs: v.VENUE_BREAKER_RESET_MS,
        },
        /**
         * The venues' push channels (docs/venues.md#what-is-streamed): whether they are used (`enabled`:
         * the live venues' websockets and the simulated world's stream), their URLs, how many of each
         * venue's listed markets are followed (`markets`, the most active first), the heartbeat and the
         * longest reconnect wait (ms), and how long a market whose book the stream lost waits for the
         * venue's own snapshot before a watched one is read over HTTP (`resyncMs`).
         */
        streams: {
          enabled: v.VENUE_STREAMS === 'on',
          venueAUrl: trim(v.VENUE_A_WS_URL ?? VENUE_DEFAULT_URLS.venueAWs),
          venueBUrl: trim(v.VENUE_B_WS_URL ?? VENUE_DEFAULT_URLS.venueBWs),
          markets: v.VENUE_STREAM_MARKETS,
          pingMs: v.VENUE_WS_PING_MS,
          reconnectMaxMs: v.VENUE_WS_RECONNECT_MAX_MS,
          resyncMs: v.VENUE_STREAM_RESYNC_MS,
        },
      },
    };
  },
});

/** The venues' settings, as the live clients read them. */
export type VenuesConfig = SettingsOf<typeof venuesSettings>['venues'];

/** Where a venue's data comes from. */
export type VenueSource = (typeof SOURCES)[number];

/** A venue_b key pair must parse at start, not at the first order. */
function checkKeyPair(keyId: string | undefined, pem: string | undefined, problem: (message: string) => void): void {
  if ((keyId === undefined) !== (pem === undefined)) {
    problem('VENUE_B_API_KEY_ID: set together with VENUE_B_PRIVATE_KEY, or neither');
  }
  if (pem === undefined) return;
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') problem('VENUE_B_PRIVATE_KEY: must be an RSA private key');
  } catch {
    problem('VENUE_B_PRIVATE_KEY: not a PEM private key');
  }
}
