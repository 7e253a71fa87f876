import { createPrivateKey, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { SIM_SECRET_BYTES } from './venues/sim/sim-keys';

/**
 * The only reader of `process.env`. Every variable is parsed once at start; a bad
 * value stops the process with a message naming each offending variable.
 */

const DEV_SECRET = 'development-only-secret-change-me-0123456789';
const DEV_TOKEN = 'development-admin-token';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));
const optionalUrl = (protocols: string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL (${protocols.join(', ')})` },
  );
const intInRange = (min: number, max: number, fallback: number) =>
  optionalString.pipe(
    z.preprocess(
      (v) => (v === undefined ? fallback : Number(v)),
      z.number().int(`must be an integer from ${min} to ${max}`).min(min).max(max),
    ),
  );
const numberInRange = (min: number, max: number, fallback: number) =>
  optionalString.pipe(
    z.preprocess(
      (v) => (v === undefined ? fallback : Number(v)),
      z.number(`must be a number from ${min} to ${max}`).min(min).max(max),
    ),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intInRange(0, 65535, 4000),
  HOST: optionalString.transform((v) => v ?? '127.0.0.1'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  DATA_DIR: optionalString.transform((v) => v ?? '.data'),
  EMBEDDED_TEMPLATE_DIR: optionalString,
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  REDIS_KEY_PREFIX: optionalString.transform((v) => v ?? 'pma:'),
  DATABASE_CONNECT_TIMEOUT_MS: intInRange(100, 120_000, 5_000),
  REDIS_COMMAND_TIMEOUT_MS: intInRange(10, 60_000, 1_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  AUTH_JWT_SECRET: optionalString,
  AUTH_JWKS_URL: optionalUrl(['http:', 'https:']),
  AUTH_JWT_PUBLIC_KEY: optionalString,
  AUTH_JWT_ISSUER: optionalString,
  AUTH_JWT_AUDIENCE: optionalString,
  AUTH_JWT_ALGORITHMS: optionalString,
  WALLET_AUTH_JWT_SECRET: optionalString,
  WALLET_AUTH_JWKS_URL: optionalUrl(['http:', 'https:']),

  ADMIN_TOKEN: optionalString,
  REWARDS_ADMIN_TOKEN: optionalString,
  FEED_INGEST_TOKEN: optionalString,
  PAYMENT_WEBHOOK_SECRET: optionalString,
  INDEXER_SHARED_SECRET: optionalString,
  WALLET_PROVIDER_URL: optionalUrl(['http:', 'https:']),
  WALLET_PROVIDER_API_KEY: optionalString,
  CHAIN_BALANCES_URL: optionalUrl(['http:', 'https:']),
  CHAIN_BALANCES_API_KEY: optionalString,
  PAYMENT_PROCESSOR_URL: optionalUrl(['http:', 'https:']),
  PAYMENT_PROCESSOR_API_KEY: optionalString,
  IDENTITY_PROVIDER_URL: optionalUrl(['http:', 'https:']),
  IDENTITY_PROVIDER_API_KEY: optionalString,
  UPSTREAM_TIMEOUT_MS: intInRange(100, 120_000, 10_000),
  WITHDRAWAL_DISPATCH_MS: intInRange(0, 3_600_000, 5_000),
  WITHDRAWAL_CLAIM_MS: intInRange(1_000, 600_000, 15_000),
  WITHDRAW_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  WITHDRAW_IMPORT_COOLDOWN_HOURS: intInRange(0, 720, 24),
  EXECUTION_SERVICE_URL: optionalUrl(['http:', 'https:']),
  EXECUTION_POLL_MS: intInRange(10, 60_000, 500),
  EXECUTION_WAIT_MS: intInRange(100, 55_000, 30_000),
  EXECUTION_RECONCILE_MS: intInRange(0, 3_600_000, 15_000),
  EXECUTION_STALE_ORDER_MS: intInRange(1_000, 3_600_000, 30_000),
  VENUE_A_FEE_RATE: numberInRange(0, 1, 0),
  VENUE_A_FEE_EXPONENT: numberInRange(0, 4, 1),
  VENUE_B_TAKER_FEE: numberInRange(0, 1, 0.07),
  ROUTE_QUOTE_TTL_SECONDS: intInRange(1, 3600, 30),
  ROUTE_INTENT_PURGE_MS: intInRange(0, 86_400_000, 60_000),
  EMBEDDINGS_PROVIDER: z.enum(['local', 'remote']).default('local'),
  EMBEDDINGS_API_URL: optionalUrl(['http:', 'https:']),
  EMBEDDINGS_API_KEY: optionalString,
  EMBEDDINGS_MODEL: optionalString.transform((v) => v ?? 'text-embedding-3-small'),
  EMBEDDINGS_TIMEOUT_MS: intInRange(100, 120_000, 10_000),
  SEARCH_RATE_LIMIT: intInRange(1, 1_000_000, 60),
  SEARCH_EMBEDDING_CACHE_SIZE: intInRange(0, 1_000_000, 1000),
  CATALOG_SYNC_MS: intInRange(0, 86_400_000, 60_000),
  CATALOG_MATCH_THRESHOLD: numberInRange(0, 1, 0.5),
  CURSOR_SECRET: optionalString,
  PUSH_PROVIDER_URL: optionalUrl(['http:', 'https:']),
  PUSH_PROVIDER_KEY: optionalString,
  PUSH_TOKENS_PER_USER: intInRange(1, 10_000, 20),
  PUSH_TOKEN_RATE_LIMIT: intInRange(1, 1_000_000, 30),

  SIM_TRADE_RATE: numberInRange(0, 10000, 2),
  SIM_BACKFILL_TRADES: intInRange(0, 1000, 40),
  SIM_SEED: intInRange(0, 2 ** 31 - 1, 42),
  SIM_SECRET: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a 256-bit secret)')
      .optional(),
  ),
  ALLOW_SIMULATED_VENUES: z.enum(['true', 'false']).default('false'),
  PAPER_STARTING_BALANCE_USD: intInRange(0, 1_000_000_000, 10_000),
  DISCOVER_RATE_LIMIT: intInRange(1, 1_000_000, 120),
  AUTH_SETUP_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  AUTH_ME_RATE_LIMIT: intInRange(1, 1_000_000, 120),
  ONRAMP_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  REWARDS_CLAIM_RATE_LIMIT: intInRange(1, 1_000_000, 5),
  COPYTRADE_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  WALLET_IMPORT_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  WALLET_VERIFY_RATE_LIMIT: intInRange(1, 1_000_000, 30),
  WALLET_CHALLENGE_TTL_SECONDS: intInRange(30, 86_400, 600),
  COMMENT_RATE_LIMIT: intInRange(1, 1_000_000, 30),
  SIMULATION_RATE_LIMIT: intInRange(1, 1_000_000, 120),
  LIKE_RATE_LIMIT: intInRange(1, 1_000_000, 120),
  FOLLOW_RATE_LIMIT: intInRange(1, 1_000_000, 60),
  ROUTE_RATE_LIMIT: intInRange(1, 1_000_000, 120),
  PAYMENT_INTENT_RATE_LIMIT: intInRange(1, 1_000_000, 30),
  COPYTRADE_MAX_TRADE_USD: intInRange(1, 10_000_000, 500),
  COPYTRADE_MAX_DAILY_USD: intInRange(1, 100_000_000, 2_000),
  COPYTRADE_MAX_OPEN_POSITIONS: intInRange(0, 10_000, 25),
  COPYTRADE_MAX_PRICE_DEVIATION: numberInRange(0, 1, 0.05),
  COPYTRADE_ALLOWED_CATEGORIES: optionalString,
  COPYTRADE_BLOCKED_CATEGORIES: optionalString,
  REWARDS_CASHBACK_BPS: intInRange(0, 10_000, 1_000),
  REWARDS_REFERRAL_TIER1_BPS: intInRange(0, 10_000, 2_000),
  REWARDS_REFERRAL_TIER2_BPS: intInRange(0, 10_000, 500),
  REWARDS_POINTS_PER_USD: intInRange(0, 1_000_000, 100),
  REWARDS_HOLD_SECONDS: intInRange(0, 31_536_000, 86_400),
  REWARDS_SETTLE_MS: intInRange(0, 3_600_000, 60_000),
  ETAG_MAX_AGE_SECONDS: intInRange(0, 86400, 5),
  READ_CACHE_TTL_MS: intInRange(1_000, 3_600_000, 30_000),
  // Unset: the two settings it replaces, together (each 32 MiB by default), so a deployment keeps its bound.
  ANSWER_CACHE_MAX_BYTES: optionalString.pipe(
    z.preprocess(
      (v) => (v === undefined ? undefined : Number(v)),
      z.number().int('must be an integer from 1024 to 4294967296').min(1_024).max(4_294_967_296).optional(),
    ),
  ),
  REST_MEMO_MAX_BYTES: intInRange(1_024, 4_294_967_296, 33_554_432),
  PUBLIC_READ_CACHE_MAX_BYTES: intInRange(1_024, 4_294_967_296, 33_554_432),
  SHUTDOWN_GRACE_MS: intInRange(0, 120_000, 10_000),
  SHUTDOWN_DRAIN_MS: intInRange(0, 120_000, 0),
  API_KEY_RATE_LIMIT: z.enum(['on', 'off']).default('on'),
  API_KEYS_PER_OWNER: intInRange(1, 10_000, 10),
  USAGE_FLUSH_MS: intInRange(100, 3_600_000, 10_000),
  TRUST_PROXY: optionalString,
  HSTS: z.enum(['auto', 'on', 'off']).default('auto'),
  HSTS_MAX_AGE_SECONDS: intInRange(0, 63_072_000, 31_536_000),
  METRICS_TOKEN: optionalString,
  HTTP_HEADERS_TIMEOUT_MS: intInRange(1_000, 600_000, 20_000),
  HTTP_REQUEST_TIMEOUT_MS: intInRange(1_000, 3_600_000, 60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: intInRange(1_000, 600_000, 65_000),
  HTTP_BODY_LIMIT_BYTES: intInRange(1_024, 104_857_600, 1_048_576),
  JSON_MAX_DEPTH: intInRange(8, 512, 64),
  STREAMS_PER_ADDRESS: intInRange(1, 1_000_000, 100),
  STREAMS_TOTAL: intInRange(1, 10_000_000, 10_000),
  STREAM_MAX_BUFFER_BYTES: intInRange(1_024, 1_073_741_824, 1_048_576),
  SSE_RESERVATIONS_PER_ADDRESS: intInRange(1, 1_000_000, 100),
  SSE_RESERVATIONS_TOTAL: intInRange(1, 10_000_000, 10_000),
  SSE_RESERVATION_TTL_SECONDS: intInRange(1, 3_600, 30),
  SSE_MAX_OPERATIONS_PER_STREAM: intInRange(1, 10_000, 20),

  GRAPHQL_MAX_DEPTH: intInRange(1, 1000, 12),
  GRAPHQL_MAX_ALIASES: intInRange(0, 100_000, 30),
  GRAPHQL_MAX_TOKENS: intInRange(1, 1_000_000, 3000),
  GRAPHQL_MAX_DIRECTIVES: intInRange(0, 100_000, 20),
  GRAPHQL_MAX_COST: intInRange(1, 1_000_000_000, 10_000),
  API_KEY_GRAPHQL_COST_UNIT: intInRange(1, 1_000_000_000, 100),
  GRAPHQL_INTROSPECTION: optionalString.pipe(z.enum(['true', 'false']).optional()),
  GRAPHIQL: optionalString.pipe(z.enum(['true', 'false']).optional()),

  VENUE_SOURCE: z.enum(['sim', 'live']).default('sim'),
  VENUE_A_SOURCE: optionalString.pipe(z.enum(['sim', 'live']).optional()),
  VENUE_B_SOURCE: optionalString.pipe(z.enum(['sim', 'live']).optional()),
  VENUE_A_GAMMA_URL: optionalUrl(['http:', 'https:']),
  VENUE_A_CLOB_URL: optionalUrl(['http:', 'https:']),
  VENUE_A_DATA_URL: optionalUrl(['http:', 'https:']),
  VENUE_B_API_URL: optionalUrl(['http:', 'https:']),
  VENUE_B_API_KEY_ID: optionalString,
  VENUE_B_PRIVATE_KEY: optionalString,
  VENUE_TRADES_POLL_MS: intInRange(100, 3_600_000, 5_000),
  VENUE_HTTP_TIMEOUT_MS: intInRange(100, 120_000, 10_000),
  VENUE_HTTP_RETRIES: intInRange(0, 10, 2),
  VENUE_A_RATE_LIMIT: intInRange(1, 100_000, 100),
  VENUE_B_RATE_LIMIT: intInRange(1, 100_000, 10),
  VENUE_A_ORDER_RATE_LIMIT: intInRange(1, 100_000, 100),
  VENUE_B_ORDER_RATE_LIMIT: intInRange(1, 100_000, 10),
  VENUE_READ_CACHE_MS: intInRange(0, 60_000, 1000),
  VENUE_READ_RATE_LIMIT: intInRange(1, 1_000_000, 600),
  VENUE_BREAKER_FAILURES: intInRange(1, 1_000, 5),
  VENUE_BREAKER_RESET_MS: intInRange(10, 3_600_000, 30_000),
  VENUE_STREAMS: z.enum(['on', 'off']).default('on'),
  VENUE_A_WS_URL: optionalUrl(['ws:', 'wss:']),
  VENUE_B_WS_URL: optionalUrl(['ws:', 'wss:']),
  VENUE_STREAM_MARKETS: intInRange(0, 100_000, 500),
  VENUE_WS_PING_MS: intInRange(100, 120_000, 10_000),
  VENUE_WS_RECONNECT_MAX_MS: intInRange(100, 600_000, 30_000),
  VENUE_STREAM_RESYNC_MS: intInRange(0, 600_000, 3_000),

  WORKERS: z.enum(['on', 'off']).default('on'),
  MIGRATE_ON_START: z.enum(['on', 'off']).default('on'),
  SEED_ON_START: z.enum(['on', 'off']).default('on'),
  LEASE_TTL_MS: intInRange(1_000, 600_000, 15_000),
  PROCESS_HEARTBEAT_MS: intInRange(100, 60_000, 1_000),
  PROCESS_LEASE_MS: intInRange(300, 600_000, 3_000),
  CORS_ORIGINS: optionalString,
  API_DOCS: z.enum(['true', 'false']).default('true'),
});

type Env = z.infer<typeof envSchema>;

/** Which bearer token a verifier takes: the user's, or the wallet-auth token of live trading. */
export type TokenUse = 'user' | 'wallet';

export interface JwtVerifierConfig {
  /** The token type (the `token_use` claim): each verifier refuses the other type's tokens. */
  tokenUse: TokenUse;
  /**
   * Wallet-auth only: whether a token without `token_use` is a wallet-auth token. True only when
   * the wallet-auth key material shares nothing with the user tokens' (no common secret or JWKS
   * URL), so the key that verifies such a token says which kind it is. User tokens may always
   * omit the claim.
   */
  acceptUntyped?: boolean;
  secret?: string;
  jwksUrl?: string;
  publicKey?: string;
  issuer?: string;
  audience?: string;
  algorithms: string[];
}

/** An HTTP upstream: its base URL (unset: the simulated one) and API key. */
export interface UpstreamConfig {
  url?: string;
  apiKey?: string;
}

export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /**
   * Where the embedded mode keeps its ready database (migrated and seeded, per day and world
   * settings), which a new DATA_DIR starts from; undefined = off.
   */
  embeddedTemplateDir?: string;
  redisUrl?: string;
  redisKeyPrefix: string;
  /**
   * PostgreSQL: how long getting a connection may take (connecting, or waiting for a pooled one)
   * before the statement fails and the request is answered 503 (ms).
   */
  databaseConnectTimeoutMs: number;
  /** How long one Redis command may take before it fails and its caller falls back (ms). */
  redisCommandTimeoutMs: number;
  logLevel: Env['LOG_LEVEL'];
  auth: { user: JwtVerifierConfig; wallet: JwtVerifierConfig };
  /** Header tokens; `indexer` (INDEXER_SHARED_SECRET) may be unset. */
  tokens: { admin: string; rewardsAdmin: string; feedIngest: string; indexer?: string };
  webhooks: { paymentSecret?: string };
  /** Wallet provider, chain balances and payment processor: base URL and API key; unset URL = simulated. */
  upstreams: {
    walletProvider: UpstreamConfig;
    chainBalances: UpstreamConfig;
    payments: UpstreamConfig;
    /** The proof/identity provider of link proof. */
    identity: UpstreamConfig;
    timeoutMs: number;
  };
  /**
   * Withdrawals: how often queued ones are sent to the processor (ms; 0 = never, tests dispatch by
   * hand); requests per user per minute; how long an imported wallet must have been verified before
   * a user-token withdrawal may go to it (hours; 0 = at once; the wallet-auth token skips the wait);
   * how long a dispatcher's claim on a withdrawal lasts unless renewed (ms; renewed every third of it
   * while the processor call runs).
   */
  withdrawals: { dispatchMs: number; perMinute: number; importCooldownHours: number; claimMs: number };
  executionServiceUrl?: string;
  /**
   * Cost preview, routing and execution: venue fee schedules, how long a routed quote holds, and
   * how a live venue_a order is followed at the execution service (poll interval, longest wait), how
   * often the reconciler runs, and how long a live order no runner follows (its process is gone, or
   * its venue_b answer was lost) stays open before the reconciler asks its venue (`staleOrderMs`).
   */
  trading: {
    fees: { venueA: { rate: number; exponent: number }; venueB: { takerCoefficient: number } };
    routeTtlSeconds: number;
    /** How often expired route intents are deleted (ms; 0 = never in the background). */
    routeIntentPurgeMs: number;
    execution: { pollMs: number; waitMs: number; reconcileMs: number; staleOrderMs: number };
  };
  /**
   * `model` and `timeoutMs` apply to the remote provider (the local one has its own fixed model);
   * `queryCacheSize`: search query vectors kept per process (least recently used out; 0 = none).
   */
  embeddings: {
    provider: 'local' | 'remote';
    apiUrl?: string;
    apiKey?: string;
    model: string;
    timeoutMs: number;
    queryCacheSize: number;
  };
  /**
   * The catalog job with a live venue: `syncMs` between syncs of the venues' open events (0 = only
   * at start and on demand); `matchThreshold`, the embedding similarity a cross-venue pair needs
   * before the matcher may merge it.
   */
  catalog: { syncMs: number; matchThreshold: number };
  cursorSecret: string;
  /**
   * Push provider for notifications (unset: simulated, nothing leaves the process), and the most
   * device tokens one user keeps (registering another drops the least recently registered).
   */
  push: { url?: string; apiKey?: string; tokensPerUser: number };
  /**
   * `backfillTrades`: recent public trades per market loaded when an empty database is seeded.
   * `secret`: the simulated world's 256-bit secret (every stream of the world is keyed by it):
   * SIM_SECRET, else in production a random one; unset outside production, where the world is the
   * demo world numbered `seed` (SIM_SEED), which anyone can rebuild. `shareSecret` (production
   * without SIM_SECRET): the first process to meet the database records its random secret there,
   * so every process of a deployment builds the same world.
   */
  sim: { tradeRate: number; seed: number; secret?: Buffer; backfillTrades: number; shareSecret: boolean };
  /** Paper trading: the balance a paper account starts with (and a reset puts back), USD. */
  paper: { startingBalanceUsd: number };
  /** Requests per minute: per client on discover, per user on onboarding and onramp. */
  limits: {
    discoverPerMinute: number;
    authSetupPerMinute: number;
    authMePerMinute: number;
    onrampPerMinute: number;
    rewardsClaimPerMinute: number;
    /** Per user: comments created, likes and unlikes, follows and unfollows, payment intents. */
    commentsPerMinute: number;
    likesPerMinute: number;
    followsPerMinute: number;
    paymentIntentsPerMinute: number;
    /** Per client (the route is public): quoted route intents stored. */
    routeIntentsPerMinute: number;
    /** Per user: simulated orders of a bearer caller (stored in the paper account), position sells included. */
    simulationsPerMinute: number;
    /** Per user: push-token registrations. */
    pushTokensPerMinute: number;
    /** Per client (the user when a user token is sent, else the address): semantic searches. */
    searchPerMinute: number;
    /** Per client, while a venue is live: resolutions of fields that read a venue (books, trades, charts…). */
    venueReadsPerMinute: number;
  };
  /**
   * Wallet ownership: imports per user per minute; challenges and verify attempts (together) per
   * user per minute; how long a challenge stays open (seconds).
   */
  wallets: { importPerMinute: number; verifyPerMinute: number; challengeTtlSeconds: number };
  /**
   * Copytrading: copies per user per minute and the risk caps of each copy (USD per copy and per
   * UTC day, open positions, event categories allowed and blocked (lower case; empty allowed = all),
   * largest distance between the current best price and the trader's fill).
   */
  copytrade: {
    perMinute: number;
    maxTradeUsd: number;
    maxDailyUsd: number;
    maxOpenPositions: number;
    maxPriceDeviation: number;
    allowedCategories: string[];
    blockedCategories: string[];
  };
  /**
   * Rewards: shares of each trading fee in basis points (cashback to the payer, tier 1 and tier 2 to
   * the payer's referrers), points per USD of fee, how long a reward is held before it can be
   * claimed, and how often held rewards are released in the background (ms; 0 = only on reads).
   */
  rewards: {
    cashbackBps: number;
    tier1Bps: number;
    tier2Bps: number;
    pointsPerUsd: number;
    holdSeconds: number;
    settleMs: number;
  };
  etagMaxAgeSeconds: number;
  /**
   * Per-process read caches: how long an answer of the answer cache or an entry of a module's
   * catalog memo lives at most when no invalidation reaches it (ms), and the bytes of answers the
   * answer cache keeps at most (least recently used first out).
   */
  readCaches: { ttlMs: number; answerMaxBytes: number };
  shutdownGraceMs: number;
  /**
   * On SIGTERM: how long readiness answers 503 (draining) while requests are still served, before the
   * server closes (ms).
   */
  shutdownDrainMs: number;
  /**
   * This process's roles among several: whether it runs the exclusive background jobs (each under a
   * lease, so one process at a time runs it; `false`: an API-only replica), whether it applies pending
   * migrations and seeds an empty database at start, and how long a job's lease outlives its holder
   * (a survivor takes a dead holder's jobs over after at most this; renewed every third of it).
   */
  roles: { workers: boolean; migrateOnStart: boolean; seedOnStart: boolean; leaseTtlMs: number };
  /**
   * This process's liveness among the processes sharing the database: how often it renews its lease
   * (ms) and how far each renewal reaches (ms). Work a process claims (an in-flight Idempotency-Key, a
   * withdrawal's dispatch, a live order) is taken over once its lease lapsed.
   */
  processes: { heartbeatMs: number; leaseMs: number };
  /**
   * Market-data surface: per-key plan limits on or off; how often API usage counts are written (ms); the most
   * active keys one owner may hold.
   */
  marketData: { rateLimit: boolean; usageFlushMs: number; keysPerOwner: number };
  /**
   * The HTTP edge: Express `trust proxy` (false, a hop count, or addresses/CIDRs), when
   * Strict-Transport-Security is sent (`auto`: on requests that arrived over TLS, as `req.secure`
   * sees them) and its max-age, the bearer token of `/metrics` (unset: open), and the Node server
   * timeouts (ms).
   */
  http: {
    trustProxy: boolean | number | string[];
    hsts: 'auto' | 'on' | 'off';
    hstsMaxAgeSeconds: number;
    metricsToken?: string;
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /**
     * Request bodies on every route: bytes at most (after content decoding; 413 beyond) and how
     * deep JSON may nest (bodies, and GraphQL `variables`/`extensions` in a query string; 400
     * beyond). See src/http/body-gate.ts.
     */
    body: { limitBytes: number; maxDepth: number };
  };
  /**
   * Server-sent-event streams: concurrent streams per client address and in total (per process),
   * the unsent bytes a client may fall behind before it is dropped, and graphql-sse reservations
   * (per address, in total, and how long an unused one is kept), and the live operations one
   * graphql-sse stream (or reservation) carries at most.
   */
  streams: {
    perAddress: number;
    total: number;
    maxBufferBytes: number;
    reservationsPerAddress: number;
    reservationsTotal: number;
    reservationTtlMs: number;
    maxOperationsPerStream: number;
  };
  /**
   * GraphQL limits, checked before execution on /graphql, /graphql/stream and the REST adapter
   * (`src/graphql/limits.ts`); `costUnit`: the computed cost one market-data quota unit buys.
   */
  graphql: {
    maxDepth: number;
    maxAliases: number;
    maxTokens: number;
    maxDirectives: number;
    maxCost: number;
    costUnit: number;
    introspection: boolean;
    graphiql: boolean;
  };
  /** Where each venue's data comes from, and the live clients' endpoints, keys and limits. */
  venues: VenuesConfig;
  /** Names of secrets that fell back to development defaults (warned about at start). */
  devDefaults: string[];
  /**
   * What browsers get: the origins allowed to call the API cross-origin (empty: same-origin only,
   * no CORS headers at all) and whether `/docs` serves the OpenAPI page.
   */
  browser: { corsOrigins: string[]; apiDocs: boolean };
}

export type VenueSource = 'sim' | 'live';

/**
 * The venues' settings (`src/venues/live`): venue_a's three APIs (Gamma events, the CLOB's books
 * and history, the Data API's trades and holders) and venue_b's trade API v2, with its signing key.
 */
export interface VenuesConfig {
  source: { venue_a: VenueSource; venue_b: VenueSource };
  /**
   * venue_a: reads per 10 s per API (`ratePer10s`) and, on the CLOB, the order budget per 10 s
   * (`orderRatePer10s`: a live order's own book read), kept apart so reads never hold up an order.
   */
  venueA: { gammaUrl: string; clobUrl: string; dataUrl: string; ratePer10s: number; orderRatePer10s: number };
  /** venue_b: reads per second (`ratePerSecond`) and the order budget per second (orders and their book reads). */
  venueB: {
    apiUrl: string;
    /** Both or neither: the key id and its RSA private key (PEM), needed only for live orders. */
    apiKeyId?: string;
    privateKeyPem?: string;
    ratePerSecond: number;
    orderRatePerSecond: number;
  };
  /** How long a live venue's book, trades page, holders or history answer is shared by every caller (ms; 0 = not). */
  readCacheMs: number;
  tradesPollMs: number;
  http: { timeoutMs: number; retries: number; breakerFailures: number; breakerResetMs: number };
  /**
   * The venues' push channels (docs/venues.md#what-is-streamed): whether they are used (`enabled`:
   * the live venues' websockets and the simulated world's stream), their URLs, how many of each
   * venue's listed markets are followed (`markets`, the most active first), the heartbeat and the
   * longest reconnect wait (ms), and how long a market whose book the stream lost waits for the
   * venue's own snapshot before a watched one is read over HTTP (`resyncMs`).
   */
  streams: {
    enabled: boolean;
    venueAUrl: string;
    venueBUrl: string;
    markets: number;
    pingMs: number;
    reconnectMaxMs: number;
    resyncMs: number;
  };
}

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

/** VENUE_* settings: sources, URLs, and a venue_b key pair that must parse (at start, not at the first order). */
function venuesConfigOf(e: Env, problems: string[]): VenuesConfig {
  // PEM in a single-line environment variable usually arrives with literal `\n` escapes.
  const pem = e.VENUE_B_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if ((e.VENUE_B_API_KEY_ID === undefined) !== (pem === undefined)) {
    problems.push('VENUE_B_API_KEY_ID: set together with VENUE_B_PRIVATE_KEY, or neither');
  }
  if (pem !== undefined) {
    try {
      const key = createPrivateKey(pem);
      if (key.asymmetricKeyType !== 'rsa') problems.push('VENUE_B_PRIVATE_KEY: must be an RSA private key');
    } catch {
      problems.push('VENUE_B_PRIVATE_KEY: not a PEM private key');
    }
  }
  const trim = (u: string): string => u.replace(/\/+$/, '');
  return {
    source: { venue_a: e.VENUE_A_SOURCE ?? e.VENUE_SOURCE, venue_b: e.VENUE_B_SOURCE ?? e.VENUE_SOURCE },
    venueA: {
      gammaUrl: trim(e.VENUE_A_GAMMA_URL ?? VENUE_DEFAULT_URLS.gamma),
      clobUrl: trim(e.VENUE_A_CLOB_URL ?? VENUE_DEFAULT_URLS.clob),
      dataUrl: trim(e.VENUE_A_DATA_URL ?? VENUE_DEFAULT_URLS.data),
      ratePer10s: e.VENUE_A_RATE_LIMIT,
      orderRatePer10s: e.VENUE_A_ORDER_RATE_LIMIT,
    },
    venueB: {
      apiUrl: trim(e.VENUE_B_API_URL ?? VENUE_DEFAULT_URLS.kalshi),
      apiKeyId: e.VENUE_B_API_KEY_ID,
      privateKeyPem: pem,
      ratePerSecond: e.VENUE_B_RATE_LIMIT,
      orderRatePerSecond: e.VENUE_B_ORDER_RATE_LIMIT,
    },
    readCacheMs: e.VENUE_READ_CACHE_MS,
    tradesPollMs: e.VENUE_TRADES_POLL_MS,
    http: {
      timeoutMs: e.VENUE_HTTP_TIMEOUT_MS,
      retries: e.VENUE_HTTP_RETRIES,
      breakerFailures: e.VENUE_BREAKER_FAILURES,
      breakerResetMs: e.VENUE_BREAKER_RESET_MS,
    },
    streams: {
      enabled: e.VENUE_STREAMS === 'on',
      venueAUrl: trim(e.VENUE_A_WS_URL ?? VENUE_DEFAULT_URLS.venueAWs),
      venueBUrl: trim(e.VENUE_B_WS_URL ?? VENUE_DEFAULT_URLS.venueBWs),
      markets: e.VENUE_STREAM_MARKETS,
      pingMs: e.VENUE_WS_PING_MS,
      reconnectMaxMs: e.VENUE_WS_RECONNECT_MAX_MS,
      resyncMs: e.VENUE_STREAM_RESYNC_MS,
    },
  };
}

/** Raised when the environment is invalid; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const ALLOWED_ALGS = ['HS256', 'ES256', 'RS256'];

/** A comma-separated list of category names, trimmed and lower-cased. */
function categoryList(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '');
}

/**
 * TRUST_PROXY as Express's `trust proxy` takes it: unset, `false` or `0` = off; `true` = every hop
 * (only behind a proxy that overwrites X-Forwarded-For); an integer = that many hops; otherwise a
 * comma-separated list of addresses, CIDRs or Express's names (`loopback`, `linklocal`, `uniquelocal`).
 */
function trustProxyOf(v: string | undefined, problems: string[]): boolean | number | string[] {
  const t = v?.trim().toLowerCase();
  if (t === undefined || t === 'false' || t === '0') return false;
  if (t === 'true') return true;
  if (/^\d+$/.test(t)) {
    const hops = Number(t);
    if (hops > 100) problems.push('TRUST_PROXY: a hop count must be at most 100');
    return hops;
  }
  const names = new Set(['loopback', 'linklocal', 'uniquelocal']);
  const list = t
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  for (const entry of list) {
    const [address, prefix, ...rest] = entry.split('/');
    const ok =
      names.has(entry) ||
      (rest.length === 0 &&
        isIP(address) !== 0 &&
        (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128))));
    if (!ok) problems.push(`TRUST_PROXY: "${entry}" is not a hop count, an address, a CIDR or a known name`);
  }
  return list;
}

/**
 * CORS_ORIGINS: comma-separated origins exactly as a browser sends them in `Origin`
 * (`https://app.example.com`, `http://localhost:5173`): a scheme, a host and an optional port,
 * no path and no wildcard, so the allowlist is always explicit.
 */
function corsOriginsOf(v: string | undefined, problems: string[]): string[] {
  const list = (v ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const entry of list) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (origin !== entry) {
      problems.push(`CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port], no path or trailing slash)`);
    }
  }
  return list;
}

/** The shortest secret accepted (bytes): HS256 keys always, every shared secret in production. */
export const MIN_SECRET_BYTES = 32;

/** Shared secrets this service checks callers against: each must be at least {@link MIN_SECRET_BYTES} in production. */
const PRODUCTION_SECRETS = [
  'ADMIN_TOKEN',
  'REWARDS_ADMIN_TOKEN',
  'FEED_INGEST_TOKEN',
  'PAYMENT_WEBHOOK_SECRET',
  'INDEXER_SHARED_SECRET',
  'CURSOR_SECRET',
  'METRICS_TOKEN',
] as const satisfies readonly (keyof Env)[];

/**
 * What production demands of tokens and secrets beyond the general rules: bearer tokens bound to
 * an issuer and audience, distinct user and wallet-auth secrets (so neither kind can be forged
 * with the other's key), JWKS fetched over https only, and no short shared secret.
 */
function productionAuthProblems(e: Env, userSecret: string | undefined, walletSecret: string | undefined): string[] {
  const problems: string[] = [];
  if (e.AUTH_JWT_ISSUER === undefined) problems.push('AUTH_JWT_ISSUER: required when NODE_ENV=production');
  if (e.AUTH_JWT_AUDIENCE === undefined) problems.push('AUTH_JWT_AUDIENCE: required when NODE_ENV=production');
  if (userSecret !== undefined && userSecret === walletSecret) {
    problems.push('WALLET_AUTH_JWT_SECRET: must differ from AUTH_JWT_SECRET when NODE_ENV=production');
  }
  for (const name of ['AUTH_JWKS_URL', 'WALLET_AUTH_JWKS_URL'] as const) {
    const url = e[name];
    if (url !== undefined && new URL(url).protocol !== 'https:') {
      problems.push(`${name}: must be an https URL when NODE_ENV=production`);
    }
  }
  for (const name of PRODUCTION_SECRETS) {
    const v = e[name];
    if (v !== undefined && Buffer.byteLength(v) < MIN_SECRET_BYTES) {
      problems.push(`${name}: must be at least ${MIN_SECRET_BYTES} bytes when NODE_ENV=production`);
    }
  }
  return problems;
}

/**
 * Whether the wallet-auth key material differs from the user tokens' (no shared secret, no shared
 * JWKS URL): only then can a token without `token_use` be told apart by the key that verifies it.
 * Production already refuses a shared secret.
 */
function walletKeysOwn(e: Env, userSecret: string | undefined, walletSecret: string | undefined): boolean {
  const sharedSecret = userSecret !== undefined && userSecret === walletSecret;
  const { AUTH_JWKS_URL: user, WALLET_AUTH_JWKS_URL: wallet } = e;
  const sharedJwks = user !== undefined && wallet !== undefined && new URL(user).href === new URL(wallet).href;
  return !sharedSecret && !sharedJwks;
}

/** Parses an environment (default `process.env`) into the application configuration. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const devDefaults: string[] = [];
  const production = e.NODE_ENV === 'production';

  const algorithms = (e.AUTH_JWT_ALGORITHMS ?? 'HS256,ES256,RS256').split(',').map((a) => a.trim());
  for (const a of algorithms) {
    if (!ALLOWED_ALGS.includes(a)) problems.push(`AUTH_JWT_ALGORITHMS: ${a} is not one of ${ALLOWED_ALGS.join(', ')}`);
  }
  const orDev = (name: string, value: string | undefined, dev: string): string => {
    if (value !== undefined) return value;
    if (production) problems.push(`${name}: required when NODE_ENV=production`);
    devDefaults.push(name);
    return dev;
  };
  const userHasKeys = e.AUTH_JWKS_URL !== undefined || e.AUTH_JWT_PUBLIC_KEY !== undefined;
  const userSecret = userHasKeys ? e.AUTH_JWT_SECRET : orDev('AUTH_JWT_SECRET', e.AUTH_JWT_SECRET, DEV_SECRET);
  const walletSecret =
    e.WALLET_AUTH_JWKS_URL !== undefined
      ? e.WALLET_AUTH_JWT_SECRET
      : orDev('WALLET_AUTH_JWT_SECRET', e.WALLET_AUTH_JWT_SECRET, `${DEV_SECRET}-wallet`);
  for (const [name, v] of [
    ['AUTH_JWT_SECRET', userSecret],
    ['WALLET_AUTH_JWT_SECRET', walletSecret],
  ] as const) {
    if (v !== undefined && Buffer.byteLength(v) < MIN_SECRET_BYTES) {
      problems.push(`${name}: must be at least ${MIN_SECRET_BYTES} bytes for HS256`);
    }
  }
  if (production) problems.push(...productionAuthProblems(e, userSecret, walletSecret));
  if (e.REWARDS_CASHBACK_BPS + e.REWARDS_REFERRAL_TIER1_BPS + e.REWARDS_REFERRAL_TIER2_BPS > 10_000) {
    problems.push(
      'REWARDS_CASHBACK_BPS: with REWARDS_REFERRAL_TIER1_BPS and REWARDS_REFERRAL_TIER2_BPS must not exceed ' +
        '10000 (the whole fee)',
    );
  }
  const venues = venuesConfigOf(e, problems);
  const anySimulated = venues.source.venue_a === 'sim' || venues.source.venue_b === 'sim';
  // The simulated books are a pure function of the world's secret and time: never a public one where money is real.
  if (production && anySimulated && e.ALLOW_SIMULATED_VENUES !== 'true') {
    problems.push(
      'ALLOW_SIMULATED_VENUES: the venues are simulated; set it to true to run them with NODE_ENV=production ' +
        `(they then use SIM_SECRET, or a random ${SIM_SECRET_BYTES * 8}-bit secret)`,
    );
  }
  const simSecret =
    e.SIM_SECRET !== undefined
      ? Buffer.from(e.SIM_SECRET, 'hex')
      : production
        ? randomBytes(SIM_SECRET_BYTES)
        : undefined;
  if (e.EMBEDDINGS_PROVIDER === 'remote' && e.EMBEDDINGS_API_URL === undefined) {
    problems.push('EMBEDDINGS_API_URL: required when EMBEDDINGS_PROVIDER=remote');
  }
  const tokens = {
    admin: orDev('ADMIN_TOKEN', e.ADMIN_TOKEN, DEV_TOKEN),
    rewardsAdmin: orDev('REWARDS_ADMIN_TOKEN', e.REWARDS_ADMIN_TOKEN, `${DEV_TOKEN}-rewards`),
    feedIngest: orDev('FEED_INGEST_TOKEN', e.FEED_INGEST_TOKEN, `${DEV_TOKEN}-feed`),
    indexer: e.INDEXER_SHARED_SECRET,
  };
  const cursorSecret = orDev('CURSOR_SECRET', e.CURSOR_SECRET, `${DEV_SECRET}-cursor`);
  const trustProxy = trustProxyOf(e.TRUST_PROXY, problems);
  const corsOrigins = corsOriginsOf(e.CORS_ORIGINS, problems);
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  // A lease must outlast a late beat, or a live process would look gone and lose what it claimed.
  if (e.PROCESS_LEASE_MS < 2 * e.PROCESS_HEARTBEAT_MS) {
    problems.push('PROCESS_LEASE_MS: must be at least twice PROCESS_HEARTBEAT_MS');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    embeddedTemplateDir:
      e.EMBEDDED_TEMPLATE_DIR === 'off'
        ? undefined
        : (e.EMBEDDED_TEMPLATE_DIR ?? join(tmpdir(), 'prediction-aggregator')),
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    auth: {
      user: {
        tokenUse: 'user',
        secret: userSecret,
        jwksUrl: e.AUTH_JWKS_URL,
        publicKey: e.AUTH_JWT_PUBLIC_KEY,
        issuer: e.AUTH_JWT_ISSUER,
        audience: e.AUTH_JWT_AUDIENCE,
        algorithms,
      },
      wallet: {
        tokenUse: 'wallet',
        acceptUntyped: walletKeysOwn(e, userSecret, walletSecret),
        secret: walletSecret,
        jwksUrl: e.WALLET_AUTH_JWKS_URL,
        issuer: e.AUTH_JWT_ISSUER,
        audience: e.AUTH_JWT_AUDIENCE,
        algorithms,
      },
    },
    tokens,
    webhooks: { paymentSecret: e.PAYMENT_WEBHOOK_SECRET },
    upstreams: {
      walletProvider: { url: e.WALLET_PROVIDER_URL, apiKey: e.WALLET_PROVIDER_API_KEY },
      chainBalances: { url: e.CHAIN_BALANCES_URL, apiKey: e.CHAIN_BALANCES_API_KEY },
      payments: { url: e.PAYMENT_PROCESSOR_URL, apiKey: e.PAYMENT_PROCESSOR_API_KEY },
      identity: { url: e.IDENTITY_PROVIDER_URL, apiKey: e.IDENTITY_PROVIDER_API_KEY },
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
    },
    withdrawals: {
      dispatchMs: e.WITHDRAWAL_DISPATCH_MS,
      perMinute: e.WITHDRAW_RATE_LIMIT,
      importCooldownHours: e.WITHDRAW_IMPORT_COOLDOWN_HOURS,
      claimMs: e.WITHDRAWAL_CLAIM_MS,
    },
    executionServiceUrl: e.EXECUTION_SERVICE_URL,
    trading: {
      fees: {
        venueA: { rate: e.VENUE_A_FEE_RATE, exponent: e.VENUE_A_FEE_EXPONENT },
        venueB: { takerCoefficient: e.VENUE_B_TAKER_FEE },
      },
      routeTtlSeconds: e.ROUTE_QUOTE_TTL_SECONDS,
      routeIntentPurgeMs: e.ROUTE_INTENT_PURGE_MS,
      execution: {
        pollMs: e.EXECUTION_POLL_MS,
        waitMs: e.EXECUTION_WAIT_MS,
        reconcileMs: e.EXECUTION_RECONCILE_MS,
        staleOrderMs: e.EXECUTION_STALE_ORDER_MS,
      },
    },
    embeddings: {
      provider: e.EMBEDDINGS_PROVIDER,
      apiUrl: e.EMBEDDINGS_API_URL,
      apiKey: e.EMBEDDINGS_API_KEY,
      model: e.EMBEDDINGS_MODEL,
      timeoutMs: e.EMBEDDINGS_TIMEOUT_MS,
      queryCacheSize: e.SEARCH_EMBEDDING_CACHE_SIZE,
    },
    catalog: { syncMs: e.CATALOG_SYNC_MS, matchThreshold: e.CATALOG_MATCH_THRESHOLD },
    cursorSecret,
    push: { url: e.PUSH_PROVIDER_URL, apiKey: e.PUSH_PROVIDER_KEY, tokensPerUser: e.PUSH_TOKENS_PER_USER },
    sim: {
      tradeRate: e.SIM_TRADE_RATE,
      seed: e.SIM_SEED,
      secret: simSecret,
      backfillTrades: e.SIM_BACKFILL_TRADES,
      shareSecret: production && e.SIM_SECRET === undefined,
    },
    paper: { startingBalanceUsd: e.PAPER_STARTING_BALANCE_USD },
    limits: {
      discoverPerMinute: e.DISCOVER_RATE_LIMIT,
      authSetupPerMinute: e.AUTH_SETUP_RATE_LIMIT,
      authMePerMinute: e.AUTH_ME_RATE_LIMIT,
      onrampPerMinute: e.ONRAMP_RATE_LIMIT,
      rewardsClaimPerMinute: e.REWARDS_CLAIM_RATE_LIMIT,
      commentsPerMinute: e.COMMENT_RATE_LIMIT,
      likesPerMinute: e.LIKE_RATE_LIMIT,
      followsPerMinute: e.FOLLOW_RATE_LIMIT,
      paymentIntentsPerMinute: e.PAYMENT_INTENT_RATE_LIMIT,
      routeIntentsPerMinute: e.ROUTE_RATE_LIMIT,
      simulationsPerMinute: e.SIMULATION_RATE_LIMIT,
      pushTokensPerMinute: e.PUSH_TOKEN_RATE_LIMIT,
      searchPerMinute: e.SEARCH_RATE_LIMIT,
      venueReadsPerMinute: e.VENUE_READ_RATE_LIMIT,
    },
    wallets: {
      importPerMinute: e.WALLET_IMPORT_RATE_LIMIT,
      verifyPerMinute: e.WALLET_VERIFY_RATE_LIMIT,
      challengeTtlSeconds: e.WALLET_CHALLENGE_TTL_SECONDS,
    },
    copytrade: {
      perMinute: e.COPYTRADE_RATE_LIMIT,
      maxTradeUsd: e.COPYTRADE_MAX_TRADE_USD,
      maxDailyUsd: e.COPYTRADE_MAX_DAILY_USD,
      maxOpenPositions: e.COPYTRADE_MAX_OPEN_POSITIONS,
      maxPriceDeviation: e.COPYTRADE_MAX_PRICE_DEVIATION,
      allowedCategories: categoryList(e.COPYTRADE_ALLOWED_CATEGORIES),
      blockedCategories: categoryList(e.COPYTRADE_BLOCKED_CATEGORIES),
    },
    rewards: {
      cashbackBps: e.REWARDS_CASHBACK_BPS,
      tier1Bps: e.REWARDS_REFERRAL_TIER1_BPS,
      tier2Bps: e.REWARDS_REFERRAL_TIER2_BPS,
      pointsPerUsd: e.REWARDS_POINTS_PER_USD,
      holdSeconds: e.REWARDS_HOLD_SECONDS,
      settleMs: e.REWARDS_SETTLE_MS,
    },
    etagMaxAgeSeconds: e.ETAG_MAX_AGE_SECONDS,
    readCaches: {
      ttlMs: e.READ_CACHE_TTL_MS,
      answerMaxBytes: e.ANSWER_CACHE_MAX_BYTES ?? e.REST_MEMO_MAX_BYTES + e.PUBLIC_READ_CACHE_MAX_BYTES,
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    roles: {
      workers: e.WORKERS === 'on',
      migrateOnStart: e.MIGRATE_ON_START === 'on',
      seedOnStart: e.SEED_ON_START === 'on',
      leaseTtlMs: e.LEASE_TTL_MS,
    },
    processes: { heartbeatMs: e.PROCESS_HEARTBEAT_MS, leaseMs: e.PROCESS_LEASE_MS },
    marketData: {
      rateLimit: e.API_KEY_RATE_LIMIT === 'on',
      usageFlushMs: e.USAGE_FLUSH_MS,
      keysPerOwner: e.API_KEYS_PER_OWNER,
    },
    http: {
      trustProxy,
      hsts: e.HSTS,
      hstsMaxAgeSeconds: e.HSTS_MAX_AGE_SECONDS,
      metricsToken: e.METRICS_TOKEN,
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      body: { limitBytes: e.HTTP_BODY_LIMIT_BYTES, maxDepth: e.JSON_MAX_DEPTH },
    },
    streams: {
      perAddress: e.STREAMS_PER_ADDRESS,
      total: e.STREAMS_TOTAL,
      maxBufferBytes: e.STREAM_MAX_BUFFER_BYTES,
      reservationsPerAddress: e.SSE_RESERVATIONS_PER_ADDRESS,
      reservationsTotal: e.SSE_RESERVATIONS_TOTAL,
      reservationTtlMs: e.SSE_RESERVATION_TTL_SECONDS * 1000,
      maxOperationsPerStream: e.SSE_MAX_OPERATIONS_PER_STREAM,
    },
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxCost: e.GRAPHQL_MAX_COST,
      costUnit: e.API_KEY_GRAPHQL_COST_UNIT,
      // Both on outside production unless set; off in production unless set.
      introspection: e.GRAPHQL_INTROSPECTION === undefined ? !production : e.GRAPHQL_INTROSPECTION === 'true',
      graphiql: e.GRAPHIQL === undefined ? !production : e.GRAPHIQL === 'true',
    },
    venues,
    devDefaults,
    browser: {
      corsOrigins,
      // On in production too: it only renders /openapi.json, which is public.
      apiDocs: e.API_DOCS === 'true',
    },
  };
}
