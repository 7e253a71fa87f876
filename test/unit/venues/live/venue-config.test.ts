import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, loadConfig } from '../../../../src/config';

const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

describe('venue settings', () => {
  it('defaults to the simulated venues and the venues’ public URLs', () => {
    const { venues } = loadConfig({});
    expect(venues.source).toEqual({ venue_a: 'sim', venue_b: 'sim' });
    expect(venues.venueA.gammaUrl).toBe('https://gamma-api.polymarket.com');
    expect(venues.venueA.clobUrl).toBe('https://clob.polymarket.com');
    expect(venues.venueA.dataUrl).toBe('https://data-api.polymarket.com');
    expect(venues.venueB.apiUrl).toBe('https://api.elections.kalshi.com/trade-api/v2');
    expect(venues.venueB.apiKeyId).toBeUndefined();
    expect(venues.tradesPollMs).toBe(5000);
  });

  it('takes VENUE_SOURCE for both venues, overridden per venue', () => {
    expect(loadConfig({ VENUE_SOURCE: 'live' }).venues.source).toEqual({ venue_a: 'live', venue_b: 'live' });
    expect(loadConfig({ VENUE_SOURCE: 'live', VENUE_B_SOURCE: 'sim' }).venues.source).toEqual({
      venue_a: 'live',
      venue_b: 'sim',
    });
    expect(() => loadConfig({ VENUE_SOURCE: 'real' })).toThrow(/VENUE_SOURCE/);
  });

  it('accepts a PEM key with escaped newlines, and refuses half a key pair or a key that does not parse', () => {
    const { venueB } = loadConfig({
      VENUE_B_API_KEY_ID: 'abc',
      VENUE_B_PRIVATE_KEY: rsaPem.replace(/\n/g, '\\n'),
      VENUE_B_API_URL: 'http://127.0.0.1:9/trade-api/v2/',
    }).venues;
    expect(venueB.privateKeyPem).toBe(rsaPem);
    expect(venueB.apiUrl).toBe('http://127.0.0.1:9/trade-api/v2');
    expect(() => loadConfig({ VENUE_B_API_KEY_ID: 'abc' })).toThrow(/set together with VENUE_B_PRIVATE_KEY/);
    expect(() => loadConfig({ VENUE_B_API_KEY_ID: 'abc', VENUE_B_PRIVATE_KEY: 'not a key' })).toThrow(ConfigError);
    expect(() => loadConfig({ VENUE_A_GAMMA_URL: 'ftp://x' })).toThrow(/VENUE_A_GAMMA_URL/);
  });

  it('keeps a read budget and an order budget per venue, and the shared read window', () => {
    const { venueA, venueB, readCacheMs } = loadConfig({}).venues;
    expect(venueA).toMatchObject({ ratePer10s: 100, orderRatePer10s: 100 });
    expect(venueB).toMatchObject({ ratePerSecond: 10, orderRatePerSecond: 10 });
    expect(readCacheMs).toBe(1000);
    const set = loadConfig({ VENUE_A_ORDER_RATE_LIMIT: '40', VENUE_B_ORDER_RATE_LIMIT: '3', VENUE_READ_CACHE_MS: '0' });
    expect(set.venues).toMatchObject({
      venueA: { orderRatePer10s: 40 },
      venueB: { orderRatePerSecond: 3 },
      readCacheMs: 0,
    });
    expect(() => loadConfig({ VENUE_B_ORDER_RATE_LIMIT: '0' })).toThrow(/VENUE_B_ORDER_RATE_LIMIT/);
    expect(() => loadConfig({ VENUE_READ_CACHE_MS: '-1' })).toThrow(/VENUE_READ_CACHE_MS/);
  });

  it('needs ALLOW_SIMULATED_VENUES in production only while a venue is simulated', () => {
    const prod = {
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'u'.repeat(40),
      WALLET_AUTH_JWT_SECRET: 'w'.repeat(40),
      AUTH_JWT_ISSUER: 'iss',
      AUTH_JWT_AUDIENCE: 'aud',
      ADMIN_TOKEN: 'a'.repeat(40),
      REWARDS_ADMIN_TOKEN: 'r'.repeat(40),
      FEED_INGEST_TOKEN: 'f'.repeat(40),
      CURSOR_SECRET: 'c'.repeat(40),
    };
    expect(() => loadConfig({ ...prod, VENUE_SOURCE: 'live', VENUE_B_SOURCE: 'sim' })).toThrow(
      /ALLOW_SIMULATED_VENUES/,
    );
    expect(loadConfig({ ...prod, VENUE_SOURCE: 'live' }).venues.source.venue_b).toBe('live');
  });
});
