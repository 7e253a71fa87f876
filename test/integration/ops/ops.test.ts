import type { PipelineQuery } from '../../../schema/generated/operations';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import { http, NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';

let app: TestApp;
beforeAll(async () => {
  // No periodic background work: /health is checked to touch no database, and a timer's query would count.
  app = await startTestApp({ DISCOVER_RATE_LIMIT: '3', ...NO_BACKGROUND_TIMERS });
});
afterAll(async () => {
  await app.close();
});

describe('GET /health', () => {
  it('answers an in-process snapshot without touching the database', async () => {
    // Start-up's background work (the search index, the market index) settles first.
    let before = app.services.db.queryCount();
    for (let i = 0; i < 40; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = app.services.db.queryCount();
      if (now === before) break;
      before = now;
    }
    const r = await http(`${app.url}/health`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      database: app.services.db.kind,
      infra: app.services.infra.kind,
      openStreams: 0,
    });
    expect(app.services.db.queryCount()).toBe(before);
  });
});

describe('GET /health/pipeline', () => {
  it('reports idle venues before any trade, then the last trade seen per venue with its lag', async () => {
    const idle = (await http(`${app.url}/health/pipeline`)).body as PipelineQuery['pipeline'];
    expect(idle.status).toBe('idle');
    expect(idle.events).toBe(app.services.world.coreEvents.length);
    const market = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_b' } });
    const filledAt = new Date(Date.now() - 5000);
    await app.services.get(TradeIngestService).ingest([
      {
        venue: 'venue_b',
        venueTradeId: `pipe-${Date.now()}`,
        venueMarketId: market.venueMarketId,
        venueTraderId: null,
        side: 'sell',
        outcome: 'no',
        price: 0.3,
        size: 4,
        filledAt,
      },
    ]);
    const r = (await http(`${app.url}/health/pipeline`)).body as PipelineQuery['pipeline'];
    const b = r.venues.find((v) => v.venue === 'venue_b')!;
    expect(b).toMatchObject({ status: 'ok', lastTradeAt: filledAt.toISOString(), tradesSeen: 1 });
    expect(b.lagSeconds).toBeGreaterThanOrEqual(4);
    expect(r.venues.find((v) => v.venue === 'venue_a')).toMatchObject({ status: 'idle', lastTradeAt: null });
    expect(r.status).toBe('ok');
  });
});

describe('GET /metrics', () => {
  it('exposes requests by route and status, latency, SQL count, streams and pub/sub lag', async () => {
    await http(`${app.url}/api/events?pageSize=2`);
    await http(`${app.url}/api/events?page=0`);
    const text = (await http(`${app.url}/metrics`)).text;
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/events",status="200"\} \d+/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/events",status="400"\} \d+/);
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toMatch(/db_queries_total [1-9]\d*/);
    expect(text).toContain('sse_open_streams');
    expect(text).toContain('pubsub_delivery_lag_seconds');
  });
});

describe('per-client limit on GET /api/events/discover', () => {
  it('answers 429 with Retry-After past the limit', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i += 1) {
      const r = await http(`${app.url}/api/events/discover?pageSize=1`);
      statuses.push(r.status);
      if (r.status === 429) {
        retryAfter = r.headers.get('retry-after');
        expect(r.body).toEqual({ error: 'rate_limited', message: expect.any(String) });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // The list endpoint has no such limit.
    expect((await http(`${app.url}/api/events?pageSize=1`)).status).toBe(200);
  });
});

describe('unknown paths and bodies', () => {
  it('404 with the error body for an unknown path; 400 for malformed JSON', async () => {
    const r = await http(`${app.url}/api/nothing-here`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: expect.any(String) });
    const bad = await http(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(bad.status).toBe(400);
  });

  it('serves the OpenAPI document', async () => {
    const r = await http(`${app.url}/openapi.json`);
    expect(r.status).toBe(200);
    expect((r.body as { openapi: string }).openapi).toBe('3.1.0');
  });
});
