import { parse } from 'graphql';
import type { Infra } from '../../../src/infra';
import { quotaUnits } from '../../../src/modules/api-keys/api-key.gate';
import { GraphqlLimits } from '../../../src/graphql/limits';
import { getSchema } from '../../../src/graphql/schema';
import { startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { KINDS, makeInfra } from '../infra/infra-test-helpers';
import { issueKey, md, rateHeaders } from '../market-data/md-helpers';

/** A market-data query whose cost follows its page size. */
const markets = (limit: number) => `{ marketDataMarkets(limit: ${limit}) { data { venue title } has_more: hasMore } }`;

let app: TestApp;
let limits: GraphqlLimits;
beforeAll(async () => {
  app = await startTestApp();
  limits = new GraphqlLimits(await getSchema(), app.config.graphql);
});
afterAll(async () => {
  await app.close();
});

/** What the gate charges for `query`: ceil(cost / API_KEY_GRAPHQL_COST_UNIT), at least 1. */
const unitsOf = (query: string, limit: number) =>
  quotaUnits(limits.cost(parse(query)), app.config.graphql.costUnit, limit);

describe('market-data keys charged by GraphQL cost', () => {
  it('spends quota in proportion to the computed cost of the operation', async () => {
    const { key } = await issueKey(app, { plan: 'pro' });
    const small = await gql(app, markets(1), {}, { 'x-api-key': key });
    expect(small.body.errors).toBeUndefined();
    expect(unitsOf(markets(1), 600)).toBe(1);
    expect(rateHeaders(small.headers).remaining).toBe(599);

    const big = await gql(app, markets(200), {}, { 'x-api-key': key });
    expect(big.body.errors).toBeUndefined();
    const bigUnits = unitsOf(markets(200), 600);
    expect(bigUnits).toBeGreaterThan(1);
    expect(rateHeaders(big.headers).remaining).toBe(599 - bigUnits);

    // The REST surface keeps its documented charge: one request, whatever the page.
    const rest = await md(app, '/api/markets?limit=200', key);
    expect(rest.status).toBe(200);
    expect(rateHeaders(rest.headers).remaining).toBe(599 - bigUnits - 1);
  });

  it('refuses with 429 when the window cannot hold the operation, and charges nothing for it', async () => {
    const { key } = await issueKey(app, { plan: 'free' });
    const units = unitsOf(markets(200), 60);
    expect(units).toBeGreaterThan(1);
    let remaining = 60;
    while (remaining >= units) {
      const r = await gql(app, markets(200), {}, { 'x-api-key': key });
      expect(r.body.errors).toBeUndefined();
      remaining = rateHeaders(r.headers).remaining;
    }
    const refused = await gql(app, markets(200), {}, { 'x-api-key': key });
    expect(refused.body.errors![0].extensions.code).toBe('rate_limited');
    expect(rateHeaders(refused.headers).remaining).toBe(remaining);
    if (remaining > 0) {
      // A cheaper operation still fits in what is left.
      const cheap = await gql(app, markets(1), {}, { 'x-api-key': key });
      expect(cheap.body.errors).toBeUndefined();
      expect(rateHeaders(cheap.headers).remaining).toBe(remaining - 1);
    }
  });

  it('is never charged for an operation refused by a limit', async () => {
    const { key } = await issueKey(app, { plan: 'pro' });
    const bomb = `{ marketDataMarkets(limit: 200) { data { ${'venue '.repeat(1)} } } ${Array.from(
      { length: 40 },
      (_, i) => `a${i}: apiRateLimit { remaining }`,
    ).join(' ')} }`;
    const r = await gql(app, bomb, {}, { 'x-api-key': key });
    expect(r.status).toBe(400);
    expect(r.body.errors![0].message).toMatch(/^maxAliases: /);
    const after = await gql(app, '{ apiRateLimit { remaining } }', {}, { 'x-api-key': key });
    expect((after.body.data as { apiRateLimit: { remaining: number } }).apiRateLimit.remaining).toBe(599);
  });

  it('keeps the quota unit within the window: the dearest operation is charged at most the whole limit', () => {
    expect(quotaUnits(undefined, 100, 60)).toBe(1);
    expect(quotaUnits(0, 100, 60)).toBe(1);
    expect(quotaUnits(101, 100, 60)).toBe(2);
    expect(quotaUnits(1_000_000, 100, 60)).toBe(60);
  });
});

describe.each(KINDS)('weighted rate-limit hits (%s)', (kind) => {
  let infra: Infra;
  beforeEach(async () => {
    infra = await makeInfra(kind);
  });
  afterEach(async () => {
    await infra.close();
  });

  it('counts a weighted hit as that many, all or none', async () => {
    const a = await infra.rateLimiter.hit('w', 10, 60_000, 4);
    expect(a).toMatchObject({ allowed: true, remaining: 6 });
    const b = await infra.rateLimiter.hit('w', 10, 60_000, 7);
    expect(b).toMatchObject({ allowed: false, remaining: 6 });
    expect(b.retryAfterMs).toBeGreaterThan(0);
    const c = await infra.rateLimiter.hit('w', 10, 60_000, 6);
    expect(c).toMatchObject({ allowed: true, remaining: 0 });
    expect(await infra.rateLimiter.hit('w', 10, 60_000)).toMatchObject({ allowed: false, remaining: 0 });
    await expect(infra.rateLimiter.hit('w', 10, 60_000, 11)).rejects.toThrow(RangeError);
  });
});
