import { z } from 'zod';

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
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  REDIS_KEY_PREFIX: optionalString.transform((v) => v ?? 'pma:'),
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
  EXECUTION_SERVICE_URL: optionalUrl(['http:', 'https:']),
  EXECUTION_POLL_MS: intInRange(10, 60_000, 500),
  EXECUTION_WAIT_MS: intInRange(100, 55_000, 30_000),
  EXECUTION_RECONCILE_MS: intInRange(0, 3_600_000, 15_000),
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
  CURSOR_SECRET: optionalString,
  PUSH_PROVIDER_URL: optionalUrl(['http:', 'https:']),
  PUSH_PROVIDER_KEY: optionalString,

  SIM_TRADE_RATE: numberInRange(0, 10000, 2),
  SIM_BACKFILL_TRADES: intInRange(0, 1000, 40),
  SIM_SEED: intInRange(0, 2 ** 31 - 1, 42),
  DISCOVER_RATE_LIMIT: intInRange(1, 1_000_000, 120),
  AUTH_SETUP_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  AUTH_ME_RATE_LIMIT: intInRange(1, 1_000_000, 120),
  ONRAMP_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  REWARDS_CLAIM_RATE_LIMIT: intInRange(1, 1_000_000, 5),
  COPYTRADE_RATE_LIMIT: intInRange(1, 1_000_000, 10),
  COMMENT_RATE_LIMIT: intInRange(1, 1_000_000, 30),
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
  SHUTDOWN_GRACE_MS: intInRange(0, 120_000, 10_000),
  API_KEY_RATE_LIMIT: z.enum(['on', 'off']).default('on'),
  USAGE_FLUSH_MS: intInRange(100, 3_600_000, 10_000),
});

type Env = z.infer<typeof envSchema>;

export interface JwtVerifierConfig {
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
  redisUrl?: string;
  redisKeyPrefix: string;
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
  /** How often queued withdrawals are sent to the processor (ms; 0 = never, tests dispatch by hand). */
  withdrawals: { dispatchMs: number };
  executionServiceUrl?: string;
  /**
   * Cost preview, routing and execution: venue fee schedules, how long a routed quote holds, and
   * how a live venue_a order is followed at the execution service (poll interval, longest wait).
   */
  trading: {
    fees: { venueA: { rate: number; exponent: number }; venueB: { takerCoefficient: number } };
    routeTtlSeconds: number;
    /** How often expired route intents are deleted (ms; 0 = never in the background). */
    routeIntentPurgeMs: number;
    execution: { pollMs: number; waitMs: number; reconcileMs: number };
  };
  /** `model` and `timeoutMs` apply to the remote provider (the local one has its own fixed model). */
  embeddings: { provider: 'local' | 'remote'; apiUrl?: string; apiKey?: string; model: string; timeoutMs: number };
  cursorSecret: string;
  /** Push provider for notifications; unset: simulated (nothing leaves the process). */
  push: { url?: string; apiKey?: string };
  /** `backfillTrades`: recent public trades per market loaded when an empty database is seeded. */
  sim: { tradeRate: number; seed: number; backfillTrades: number };
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
  };
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
  shutdownGraceMs: number;
  /** Market-data surface: per-key plan limits on or off; how often API usage counts are written (ms). */
  marketData: { rateLimit: boolean; usageFlushMs: number };
  /** Names of secrets that fell back to development defaults (warned about at start). */
  devDefaults: string[];
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
    if (v !== undefined && Buffer.byteLength(v) < 32) problems.push(`${name}: must be at least 32 bytes for HS256`);
  }
  if (e.REWARDS_CASHBACK_BPS + e.REWARDS_REFERRAL_TIER1_BPS + e.REWARDS_REFERRAL_TIER2_BPS > 10_000) {
    problems.push(
      'REWARDS_CASHBACK_BPS: with REWARDS_REFERRAL_TIER1_BPS and REWARDS_REFERRAL_TIER2_BPS must not exceed ' +
        '10000 (the whole fee)',
    );
  }
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
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    logLevel: e.LOG_LEVEL,
    auth: {
      user: {
        secret: userSecret,
        jwksUrl: e.AUTH_JWKS_URL,
        publicKey: e.AUTH_JWT_PUBLIC_KEY,
        issuer: e.AUTH_JWT_ISSUER,
        audience: e.AUTH_JWT_AUDIENCE,
        algorithms,
      },
      wallet: {
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
    withdrawals: { dispatchMs: e.WITHDRAWAL_DISPATCH_MS },
    executionServiceUrl: e.EXECUTION_SERVICE_URL,
    trading: {
      fees: {
        venueA: { rate: e.VENUE_A_FEE_RATE, exponent: e.VENUE_A_FEE_EXPONENT },
        venueB: { takerCoefficient: e.VENUE_B_TAKER_FEE },
      },
      routeTtlSeconds: e.ROUTE_QUOTE_TTL_SECONDS,
      routeIntentPurgeMs: e.ROUTE_INTENT_PURGE_MS,
      execution: { pollMs: e.EXECUTION_POLL_MS, waitMs: e.EXECUTION_WAIT_MS, reconcileMs: e.EXECUTION_RECONCILE_MS },
    },
    embeddings: {
      provider: e.EMBEDDINGS_PROVIDER,
      apiUrl: e.EMBEDDINGS_API_URL,
      apiKey: e.EMBEDDINGS_API_KEY,
      model: e.EMBEDDINGS_MODEL,
      timeoutMs: e.EMBEDDINGS_TIMEOUT_MS,
    },
    cursorSecret,
    push: { url: e.PUSH_PROVIDER_URL, apiKey: e.PUSH_PROVIDER_KEY },
    sim: { tradeRate: e.SIM_TRADE_RATE, seed: e.SIM_SEED, backfillTrades: e.SIM_BACKFILL_TRADES },
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
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    marketData: { rateLimit: e.API_KEY_RATE_LIMIT === 'on', usageFlushMs: e.USAGE_FLUSH_MS },
    devDefaults,
  };
}
