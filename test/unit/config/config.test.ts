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
