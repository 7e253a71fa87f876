import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventsAndMarketDetail } from '../../../examples/rest-client';
import { portfolioScreen } from '../../../examples/portfolio-screen';
import { describeUpdate, followAccount, type AccountUpdate } from '../../../examples/account-stream';
import { followStream, followTrades, type Follower, type TradeMessage } from '../../../examples/trades-stream';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import type { PublicTrade } from '../../../src/venues/venue.models';
import { http, startTestApp, type TestApp } from '../../support/app';
import { publicTrade } from '../../support/trades';
import { repeatUntil, waitFor } from '../../support/wait';

/** The examples of `examples/`, each against a real server (and run as a script where it prints). */
const ROOT = path.resolve(__dirname, '../../..');
const FEED_TOKEN = 'examples-feed-token';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ FEED_INGEST_TOKEN: FEED_TOKEN });
});
afterAll(async () => {
  await app.close();
});

/** Runs an example the way its header says, against the test server. */
async function runExample(file: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', './scripts/register.js', `examples/${file}`, ...args],
    { cwd: ROOT, timeout: 60_000 },
  );
  return stdout;
}

describe('typed REST client (openapi-fetch)', () => {
  it('reads a page of events and the detail of its first market', async () => {
    const { events, market } = await eventsAndMarketDetail(app.url, 3);
    expect(events).toMatchObject({ page: 1, pageSize: 3 });
    expect(events.data).toHaveLength(3);
    expect(events.total).toBeGreaterThan(3);
    const first = events.data[0].markets[0];
    expect(market).toMatchObject({ venue: first.venue, marketId: first.marketId, title: first.title });
    expect(market.eventId).toBe(events.data[0].id);
  });

  it('runs as a script', async () => {
    const out = await runExample('rest-client.ts', app.url);
    const { events, market } = await eventsAndMarketDetail(app.url);
    expect(out).toBe(
      `${events.total} events; page 1: ${events.data.map((e) => e.title).join(' | ')}\n` +
        `${market.venue}/${market.marketId}: ${market.title}, YES ${market.yesPrice ?? '-'}\n`,
    );
  });
});

describe('typed GraphQL client (client preset)', () => {
  it("reads the signed-in user's portfolio screen", async () => {
    const { portfolio } = await portfolioScreen(app.url, await app.token('examples-portfolio'));
    expect(portfolio.mode).toBe('simulation');
    // A fresh paper account: 10,000 paper dollars, nothing held, no positions.
    expect(portfolio.balances).toMatchObject({ currency: 'USD', available: 10_000, held: 0, equity: 10_000 });
    expect(portfolio.positions).toEqual({ total: 0, data: [] });
    expect(portfolio.summary.openPositions).toBe(0);
  });

  it('fails with the error code when the bearer is not valid', async () => {
    await expect(portfolioScreen(app.url, 'not-a-token')).rejects.toThrow(/unauthorized/);
  });

  it('runs as a script', async () => {
    const out = await runExample('portfolio-screen.ts', await app.token('examples-cli'), app.url);
    expect(out).toBe('simulation: equity 10000 USD, 0 open positions, total P&L 0\n');
  });
});

describe('EventSource consumer with resume (eventsource)', () => {
  let seq = 0;
  const followers: Follower[] = [];
  afterAll(() => followers.forEach((f) => f.close()));

  const trade = (marketId: string): PublicTrade =>
    publicTrade({ venue: 'venue_b', venueTradeId: `example-${(seq += 1)}`, venueMarketId: marketId, size: 2 });

  it('follows /stream/trades, and a resumed consumer goes on without a duplicate', async () => {
    const market = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_b' } });
    const ingest = (t: PublicTrade) => app.services.get(TradeIngestService).ingest([t]);
    const got: TradeMessage[] = [];
    const first = followTrades(app.url, { venue: 'venue_b', onMessage: (t) => got.push(t) });
    followers.push(first);
    // The stream is live-only: send trades until the subscription is up and one arrives.
    await repeatUntil(
      () => ingest(trade(market.venueMarketId)),
      () => got.length > 0,
      'a first trade through the consumer',
      { everyMs: 1_000 },
    );
    const t = trade(market.venueMarketId);
    await ingest(t);
    await waitFor(() => got.some((m) => m.id === `venue_b:${t.venueTradeId}`), 'the trade');
    expect(got.at(-1)).toMatchObject({ venue: 'venue_b', marketId: market.venueMarketId, price: 0.5, size: 2 });
    expect(first.lastEventId).toBe(`venue_b:${t.venueTradeId}`);
    first.close();

    const resumed: TradeMessage[] = [];
    const second = followTrades(app.url, {
      venue: 'venue_b',
      lastEventId: first.lastEventId,
      onMessage: (m) => resumed.push(m),
    });
    followers.push(second);
    const sent: string[] = [];
    await repeatUntil(
      async () => {
        const next = trade(market.venueMarketId);
        sent.push(`venue_b:${next.venueTradeId}`);
        await ingest(next);
      },
      () => resumed.length > 0,
      'a trade through the resumed consumer',
      { everyMs: 1_000 },
    );
    // Only trades sent after the resume, each once; nothing the first consumer handled.
    expect(resumed.every((m) => sent.includes(m.id))).toBe(true);
    expect(new Set(resumed.map((m) => m.id)).size).toBe(resumed.length);
    expect(resumed.map((m) => m.id)).not.toContain(first.lastEventId);
    second.close();
  });

  it('sends Last-Event-ID when resumed: a replaying stream (the feed) delivers what was missed', async () => {
    const source = `examples-${Date.now()}`;
    const ingestFeed = async (...titles: string[]) => {
      const r = await http(`${app.url}/api/feed/ingest`, {
        method: 'POST',
        headers: { 'x-feed-ingest-token': FEED_TOKEN },
        json: {
          items: titles.map((title) => ({ source, externalId: title, title, publishedAt: new Date().toISOString() })),
        },
      });
      expect(r.status).toBe(200);
    };
    const url = `${app.url}/api/feed/stream?source=${source}`;
    const got: string[] = [];
    const first = followStream<{ title: string }>(url, { event: 'feed_item', onMessage: (m) => got.push(m.title) });
    followers.push(first);
    await waitFor(() => app.services.metrics.openStreams() > 0, 'the stream open');
    let n = 0;
    await repeatUntil(
      () => ingestFeed(`seen ${(n += 1)}`),
      () => got.length > 0,
      'a first feed item',
      {
        everyMs: 1_000,
      },
    );
    first.close();
    const seen = got.length;

    await ingestFeed('missed one', 'missed two');
    const resumed: string[] = [];
    const second = followStream<{ title: string }>(url, {
      event: 'feed_item',
      lastEventId: first.lastEventId,
      onMessage: (m) => resumed.push(m.title),
    });
    followers.push(second);
    await waitFor(() => resumed.length >= 2, 'the missed items');
    expect(resumed).toEqual(['missed one', 'missed two']);
    expect(got).toHaveLength(seen);
    second.close();
  });
});

describe('account stream consumer (eventsource with a bearer)', () => {
  it("follows the signed-in user's own changes: a paper buy's order, fill, position and balance", async () => {
    const got: AccountUpdate[] = [];
    const follower = followAccount(app.url, await app.token('examples-account'), { onUpdate: (u) => got.push(u) });
    try {
      const market = await app.services.db.prisma.market.findFirstOrThrow({
        where: { venue: 'venue_a', status: 'active' },
      });
      // The stream is live-only: buy until the subscription is up and an order's updates arrive.
      const buy = async () => {
        const r = await fetch(`${app.url}/execute`, {
          method: 'POST',
          headers: { ...(await app.bearer('examples-account')), 'content-type': 'application/json' },
          body: JSON.stringify({ marketId: `venue_a:${market.venueMarketId}`, side: 'buy', outcome: 'yes', size: 1 }),
        });
        await r.text();
      };
      await repeatUntil(buy, () => got.some((u) => u.kind === 'balance'), 'an account update through the consumer', {
        everyMs: 1_000,
      });
      const kinds = got.map((u) => u.kind);
      expect(kinds).toEqual(expect.arrayContaining(['order', 'fill', 'position', 'balance']));
      expect(got.every((u) => u.mode === 'simulation')).toBe(true);
      expect(describeUpdate(got.find((u) => u.kind === 'order')!)).toMatch(/^simulation order .* buy 1 yes: filled$/);
    } finally {
      follower.close();
    }
  });
});
