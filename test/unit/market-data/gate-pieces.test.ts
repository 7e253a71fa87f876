import { routeTemplateMatcher } from '../../../rest-adapter/route-matcher';
import { ROUTES } from '../../../rest-adapter/routes';
import { credentialFrom, rateLimitHeaders } from '../../../src/modules/api-keys';
import { summarize } from '../../../src/modules/usage';

const headersOf = (h: Record<string, string>) => (name: string) => h[name];

describe('credentialFrom', () => {
  it('prefers the bearer over X-API-Key', () => {
    expect(credentialFrom(headersOf({ authorization: 'Bearer mk_live_a', 'x-api-key': 'mk_live_b' }))).toBe(
      'mk_live_a',
    );
    expect(credentialFrom(headersOf({ 'x-api-key': ' mk_live_b ' }))).toBe('mk_live_b');
    expect(credentialFrom(headersOf({ authorization: 'Basic abc', 'x-api-key': 'mk_live_b' }))).toBe('mk_live_b');
    expect(credentialFrom(headersOf({}))).toBeUndefined();
  });

  it('on GraphQL, lets a non-key bearer (a user token) fall through to X-API-Key', () => {
    const opts = { bearerOnlyIfKey: true, keyPrefix: 'mk_live_' };
    expect(credentialFrom(headersOf({ authorization: 'Bearer eyJhbGciOi', 'x-api-key': 'mk_live_b' }), opts)).toBe(
      'mk_live_b',
    );
    expect(credentialFrom(headersOf({ authorization: 'Bearer mk_live_a', 'x-api-key': 'mk_live_b' }), opts)).toBe(
      'mk_live_a',
    );
    expect(credentialFrom(headersOf({ authorization: 'Bearer eyJhbGciOi' }), opts)).toBeUndefined();
  });
});

describe('rateLimitHeaders', () => {
  it('writes X-RateLimit-* and the IETF RateLimit-Policy / RateLimit fields', () => {
    const now = 1_800_000_000_000;
    const h = rateLimitHeaders(
      'free',
      { allowed: true, limit: 60, remaining: 42, resetAt: now + 30_500, retryAfterMs: 0 },
      now,
    );
    expect(h).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '42',
      'x-ratelimit-reset': String(Math.ceil((now + 30_500) / 1000)),
      'ratelimit-policy': '"free";q=60;w=60',
      ratelimit: '"free";r=42;t=31',
    });
  });
});

describe('routeTemplateMatcher', () => {
  it('maps market-data requests to their route templates, literals first', () => {
    const match = routeTemplateMatcher(ROUTES, 'market-data');
    expect(match('GET', '/api/markets/venue_a/0xabc')).toBe('/api/markets/{venue}/{market_id}');
    expect(match('GET', '/api/events/categories')).toBe('/api/events/categories');
    expect(match('GET', '/api/events')).toBe('/api/events');
    expect(match('DELETE', '/api/keys/key_1')).toBe('/api/keys/{key_id}');
    expect(match('POST', '/api/keys')).toBe('/api/keys');
    expect(match('GET', '/api/comparisons/12/')).toBe('/api/comparisons/{comparison_id}');
    expect(match('PUT', '/api/keys')).toBeUndefined();
    expect(match('GET', '/api/markets/venue_a/x/y')).toBeUndefined();
  });
});

describe('summarize', () => {
  it('totals per endpoint and per day, with every day of the period', () => {
    const r = summarize(
      [
        { owner: 'o', endpoint: '/b', day: '2027-01-02', requests: 2 },
        { owner: 'o', endpoint: '/a', day: '2027-01-04', requests: 3 },
        { owner: 'o', endpoint: '/a', day: '2027-01-04', requests: 1 },
        { owner: 'o', endpoint: '/a', day: '2026-12-31', requests: 9 },
      ],
      '2027-01-01',
      '2027-01-04',
      4,
    );
    expect(r).toEqual({
      periodDays: 4,
      totalRequests: 6,
      byEndpoint: { '/a': 4, '/b': 2 },
      dailyUsage: [
        { date: '2027-01-01', requests: 0 },
        { date: '2027-01-02', requests: 2 },
        { date: '2027-01-03', requests: 0 },
        { date: '2027-01-04', requests: 4 },
      ],
    });
  });
});
