import { ConfigError, loadConfig } from '../../../src/config';

describe('loadConfig', () => {
  it('starts with no configuration, falling back to loud development defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toBe('.data');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.devDefaults).toEqual(expect.arrayContaining(['AUTH_JWT_SECRET', 'ADMIN_TOKEN', 'CURSOR_SECRET']));
  });

  it('names every bad variable at once', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SIM_TRADE_RATE: '-1', EMBEDDINGS_PROVIDER: 'cloud' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'SIM_TRADE_RATE', 'EMBEDDINGS_PROVIDER']) expect(msg).toContain(name);
  });

  it('reads the process roles: workers, migrate and seed on by default; each switchable; bad values named', () => {
    expect(loadConfig({}).roles).toEqual({
      workers: true,
      migrateOnStart: true,
      seedOnStart: true,
      leaseTtlMs: 15_000,
    });
    expect(
      loadConfig({ WORKERS: 'off', MIGRATE_ON_START: 'off', SEED_ON_START: 'off', LEASE_TTL_MS: '3000' }).roles,
    ).toEqual({ workers: false, migrateOnStart: false, seedOnStart: false, leaseTtlMs: 3_000 });
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '5000' }).shutdownDrainMs).toBe(5_000);
    expect(() => loadConfig({ WORKERS: 'yes' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ LEASE_TTL_MS: '10' })).toThrow(/LEASE_TTL_MS/);
    expect(() => loadConfig({ MIGRATE_ON_START: 'false' })).toThrow(/MIGRATE_ON_START/);
  });

  it('reads how crashed work is taken over: the heartbeat, the stale order age, the withdrawal claim', () => {
    const c = loadConfig({});
    expect(c.processes).toEqual({ heartbeatMs: 1_000, leaseMs: 3_000 });
    expect(c.trading.execution.staleOrderMs).toBe(30_000);
    expect(c.withdrawals.claimMs).toBe(15_000);
    const set = loadConfig({
      PROCESS_HEARTBEAT_MS: '200',
      PROCESS_LEASE_MS: '600',
      EXECUTION_STALE_ORDER_MS: '5000',
      WITHDRAWAL_CLAIM_MS: '2000',
    });
    expect([set.processes, set.trading.execution.staleOrderMs, set.withdrawals.claimMs]).toEqual([
      { heartbeatMs: 200, leaseMs: 600 },
      5_000,
      2_000,
    ]);
    // A lease shorter than two beats would let a live process look gone.
    expect(() => loadConfig({ PROCESS_HEARTBEAT_MS: '1000', PROCESS_LEASE_MS: '1500' })).toThrow(
      /PROCESS_LEASE_MS: must be at least twice PROCESS_HEARTBEAT_MS/,
    );
    expect(() => loadConfig({ EXECUTION_STALE_ORDER_MS: '10' })).toThrow(/EXECUTION_STALE_ORDER_MS/);
  });

  it('refuses development defaults in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_JWT_SECRET: required when NODE_ENV=production/);
  });

  it('refuses short HS256 secrets and unknown algorithms', () => {
    expect(() => loadConfig({ AUTH_JWT_SECRET: 'short' })).toThrow(/AUTH_JWT_SECRET: must be at least 32 bytes/);
    expect(() => loadConfig({ AUTH_JWT_ALGORITHMS: 'HS256,none' })).toThrow(/AUTH_JWT_ALGORITHMS: none/);
  });

  it('needs an API URL for the remote embedder', () => {
    expect(() => loadConfig({ EMBEDDINGS_PROVIDER: 'remote' })).toThrow(/EMBEDDINGS_API_URL/);
  });
});

describe('loadConfig in production: tokens and secrets', () => {
  const PROD: Record<string, string> = {
    NODE_ENV: 'production',
    AUTH_JWT_SECRET: 'production-user-token-secret-0123456789',
    WALLET_AUTH_JWT_SECRET: 'production-wallet-token-secret-012345678',
    AUTH_JWT_ISSUER: 'https://id.example.com/',
    AUTH_JWT_AUDIENCE: 'prediction-aggregator',
    ADMIN_TOKEN: 'production-admin-token-0123456789abcdef',
    REWARDS_ADMIN_TOKEN: 'production-rewards-admin-token-01234567',
    FEED_INGEST_TOKEN: 'production-feed-ingest-token-012345678',
    CURSOR_SECRET: 'production-cursor-secret-0123456789abcd',
    ALLOW_SIMULATED_VENUES: 'true',
  };
  const problemsOf = (env: Record<string, string | undefined>): string => {
    try {
      loadConfig(env);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    return '';
  };

  it('starts with a complete production environment; both verifiers bind issuer and audience', () => {
    const c = loadConfig(PROD);
    expect(c.devDefaults).toEqual([]);
    for (const v of [c.auth.user, c.auth.wallet]) {
      expect(v).toMatchObject({ issuer: PROD.AUTH_JWT_ISSUER, audience: PROD.AUTH_JWT_AUDIENCE });
    }
    expect(c.auth.user.tokenUse).toBe('user');
    expect(c.auth.wallet.tokenUse).toBe('wallet');
  });

  it('requires the issuer and the audience', () => {
    const msg = problemsOf({ ...PROD, AUTH_JWT_ISSUER: undefined, AUTH_JWT_AUDIENCE: '' });
    expect(msg).toMatch(/AUTH_JWT_ISSUER: required when NODE_ENV=production/);
    expect(msg).toMatch(/AUTH_JWT_AUDIENCE: required when NODE_ENV=production/);
    expect(() => loadConfig({ ...PROD, NODE_ENV: 'development', AUTH_JWT_ISSUER: undefined })).not.toThrow();
  });

  it('requires the user and wallet-auth secrets to differ', () => {
    const msg = problemsOf({ ...PROD, WALLET_AUTH_JWT_SECRET: PROD.AUTH_JWT_SECRET });
    expect(msg).toMatch(/WALLET_AUTH_JWT_SECRET: must differ from AUTH_JWT_SECRET/);
    expect(() => loadConfig({ ...PROD, NODE_ENV: 'test', WALLET_AUTH_JWT_SECRET: PROD.AUTH_JWT_SECRET })).not.toThrow();
  });

  it('requires https JWKS URLs', () => {
    const msg = problemsOf({
      ...PROD,
      AUTH_JWKS_URL: 'http://id.example.com/jwks.json',
      WALLET_AUTH_JWKS_URL: 'http://wallet.example.com/jwks.json',
    });
    expect(msg).toMatch(/AUTH_JWKS_URL: must be an https URL when NODE_ENV=production/);
    expect(msg).toMatch(/WALLET_AUTH_JWKS_URL: must be an https URL when NODE_ENV=production/);
    expect(
      problemsOf({
        ...PROD,
        AUTH_JWKS_URL: 'https://id.example.com/jwks.json',
        WALLET_AUTH_JWKS_URL: 'https://wallet.example.com/jwks.json',
      }),
    ).toBe('');
    expect(() => loadConfig({ AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks.json' })).not.toThrow();
  });

  it('refuses every shared secret shorter than 32 bytes, naming it', () => {
    const names = [
      'ADMIN_TOKEN',
      'REWARDS_ADMIN_TOKEN',
      'FEED_INGEST_TOKEN',
      'PAYMENT_WEBHOOK_SECRET',
      'INDEXER_SHARED_SECRET',
      'CURSOR_SECRET',
      'METRICS_TOKEN',
    ];
    const short = Object.fromEntries(names.map((n) => [n, 'x'.repeat(31)]));
    const msg = problemsOf({ ...PROD, ...short });
    for (const n of names) expect(msg).toContain(`${n}: must be at least 32 bytes when NODE_ENV=production`);
    // 32 bytes, counted as bytes: 16 two-byte characters pass.
    const long = Object.fromEntries(names.map((n) => [n, 'é'.repeat(16)]));
    expect(problemsOf({ ...PROD, ...long })).toBe('');
    expect(() => loadConfig({ ...PROD, ...short, NODE_ENV: 'development' })).not.toThrow();
    expect(problemsOf({ ...PROD, WALLET_AUTH_JWT_SECRET: 'short' })).toMatch(
      /WALLET_AUTH_JWT_SECRET: must be at least 32 bytes/,
    );
  });

  it('reads the push-token, search and venue-read limits with their defaults', () => {
    const c = loadConfig({});
    expect(c.push.tokensPerUser).toBe(20);
    expect(c.limits).toMatchObject({ pushTokensPerMinute: 30, searchPerMinute: 60, venueReadsPerMinute: 600 });
    expect(c.embeddings.queryCacheSize).toBe(1000);
    const set = loadConfig({
      PUSH_TOKENS_PER_USER: '5',
      PUSH_TOKEN_RATE_LIMIT: '7',
      SEARCH_RATE_LIMIT: '9',
      SEARCH_EMBEDDING_CACHE_SIZE: '0',
      VENUE_READ_RATE_LIMIT: '11',
    });
    expect(set.push.tokensPerUser).toBe(5);
    expect(set.limits).toMatchObject({ pushTokensPerMinute: 7, searchPerMinute: 9, venueReadsPerMinute: 11 });
    expect(set.embeddings.queryCacheSize).toBe(0);
    expect(() => loadConfig({ PUSH_TOKENS_PER_USER: '0' })).toThrow(/PUSH_TOKENS_PER_USER/);
    expect(() => loadConfig({ SEARCH_RATE_LIMIT: 'lots' })).toThrow(/SEARCH_RATE_LIMIT/);
  });

  it('bounds the API keys per owner', () => {
    expect(loadConfig({}).marketData.keysPerOwner).toBe(10);
    expect(loadConfig({ API_KEYS_PER_OWNER: '3' }).marketData.keysPerOwner).toBe(3);
    expect(problemsOf({ API_KEYS_PER_OWNER: '0' })).toMatch(/API_KEYS_PER_OWNER/);
  });
});
