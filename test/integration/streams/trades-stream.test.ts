import { createClient } from 'graphql-sse';
import { TRADES_TOPIC } from '../../../src/modules/trades';
import type { PublicTrade } from '../../../src/venues/venue.models';
import { http, startTestApp, type TestApp } from '../../support/app';
import { subscribed } from '../../support/pubsub';
import { openSse, type SseReader } from '../../support/sse';
import { publicTrade } from '../../support/trades';
import { repeatUntil, waitFor } from '../../support/wait';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { heartbeatMs: 300 });
});
afterAll(async () => {
  await app.close();
});

const trade = (venue: 'venue_a' | 'venue_b', marketId: string): PublicTrade =>
  publicTrade({
    venue,
    venueMarketId: marketId,
    venueTraderId: venue === 'venue_a' ? '0x1111111111111111111111111111111111111111' : null,
    price: 0.42,
    size: 10,
  });

/**
 * Opens a REST trade stream and resolves once it is subscribed: the stream's listener is added
 * before its response head is written, and {@link subscribed} waits for Redis to confirm the channel.
 */
async function openTradeStream(url: string): Promise<SseReader> {
  const sse = await openSse(url);
  expect(sse.status).toBe(200);
  await subscribed(app.services.infra.pubsub, TRADES_TOPIC);
  return sse;
}

async function someMarket(venue: 'venue_a' | 'venue_b') {
  const m = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue } });
  return m;
}

describe('GET /stream/trades (REST SSE)', () => {
  it('streams ingested trades as `event: trade` with ids, and heartbeats', async () => {
    const market = await someMarket('venue_a');
    const sse = await openTradeStream(`${app.url}/stream/trades`);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const t = trade('venue_a', market.venueMarketId);
    await app.services.get(TradeIngestService).ingest([t]);
    const [msg] = await sse.take(1);
    expect(msg.event).toBe('trade');
    expect(msg.id).toBe(`venue_a:${t.venueTradeId}`);
    expect(JSON.parse(msg.data)).toMatchObject({
      id: `venue_a:${t.venueTradeId}`,
      venue: 'venue_a',
      marketId: market.venueMarketId,
      eventId: market.coreEventId,
      traderId: t.venueTraderId,
      price: 0.42,
      size: 10,
      filledAt: t.filledAt.toISOString(),
    });
    await waitFor(() => sse.comments.includes('heartbeat'), 'a heartbeat (every 300 ms here)');
    sse.close();
  });

  it('filters by venue and market; a duplicate delivery is not streamed twice', async () => {
    const a = await someMarket('venue_a');
    const b = await someMarket('venue_b');
    const sse = await openTradeStream(`${app.url}/stream/trades?venue=venue_b`);
    const tb = trade('venue_b', b.venueMarketId);
    await app.services.get(TradeIngestService).ingest([trade('venue_a', a.venueMarketId), tb]);
    await app.services.get(TradeIngestService).ingest([tb]);
    const tb2 = trade('venue_b', b.venueMarketId);
    await app.services.get(TradeIngestService).ingest([tb2]);
    const msgs = await sse.take(2);
    expect(msgs.map((m) => m.id)).toEqual([`venue_b:${tb.venueTradeId}`, `venue_b:${tb2.venueTradeId}`]);
    expect(JSON.parse(msgs[0].data).traderId).toBeNull();
    sse.close();
  });

  it('400 for a bad filter, before any stream opens', async () => {
    const r = await http(`${app.url}/stream/trades?venue=nasdaq`);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/^venue: /);
  });

  it('releases the subscription when the client disconnects', async () => {
    const sse = await openTradeStream(`${app.url}/stream/trades`);
    expect(app.services.metrics.openStreams()).toBeGreaterThan(0);
    sse.close();
    await waitFor(() => app.services.metrics.openStreams() === 0, 'the stream released');
  });
});

describe('trades subscription over graphql-sse', () => {
  it('delivers a published trade to a graphql-sse client', async () => {
    const market = await someMarket('venue_a');
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const received: unknown[] = [];
    let failed: unknown;
    const done = new Promise<void>((resolve, reject) => {
      const unsubscribe = client.subscribe<{ trades: { id: string; venue: string; marketId: string } }>(
        { query: `subscription { trades(marketId: "${market.venueMarketId}") { id venue marketId price filledAt } }` },
        {
          next: (v) => {
            received.push(v.data?.trades);
            unsubscribe();
            resolve();
          },
          error: reject,
          complete: () => resolve(),
        },
      );
    });
    done.catch((err: unknown) => (failed = err ?? new Error('the subscription failed')));
    // When the subscription is in place is not visible from here: trades are sent until one arrives.
    const sent: PublicTrade[] = [];
    await repeatUntil(
      async () => {
        const next = trade('venue_a', market.venueMarketId);
        sent.push(next);
        await app.services.get(TradeIngestService).ingest([next]);
      },
      () => received.length > 0 || failed !== undefined,
      'a trade over graphql-sse',
    );
    await done;
    client.dispose();
    const t = sent.find((x) => `venue_a:${x.venueTradeId}` === (received[0] as { id: string }).id)!;
    expect(t).toBeDefined();
    expect(received).toEqual([
      {
        id: `venue_a:${t.venueTradeId}`,
        venue: 'venue_a',
        marketId: market.venueMarketId,
        price: 0.42,
        filledAt: t.filledAt.toISOString(),
      },
    ]);
  });

  it('refuses text PostgreSQL cannot store in its arguments when the stream is created', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const results: unknown[] = [];
    await new Promise<void>((resolve) => {
      client.subscribe(
        { query: 'subscription($m: String) { trades(marketId: $m) { id } }', variables: { m: 'nul\u0000market' } },
        { next: (m) => void results.push(m), error: (e) => (results.push(e), resolve()), complete: resolve },
      );
    });
    client.dispose();
    const text = JSON.stringify(results);
    expect(text).toMatch(/marketId/);
    expect(text).toMatch(/BAD_REQUEST|bad_request/);
  });
});
