import { Client } from 'pg';
import type { GetEventQuery, ListEventsQuery, MarketDetailQuery } from '../../../schema/generated/operations';
import { CatalogJob } from '../../../src/modules/ingestion/catalog-job';
import { coreEventIdOf } from '../../../src/modules/ingestion/catalog-match';
import { MarketIndex } from '../../../src/modules/ingestion/market-index';
import type { LiveVenueClient } from '../../../src/venues';
import { bearer, http, NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { openSse } from '../../support/sse';
import { eventually } from '../../support/wait';
import { issueKey } from '../market-data/md-helpers';

/**
 * VENUE_SOURCE=live against the fake venue server: the catalog job builds core
 * events from the venues' own listings (no simulator answer), merges the pair
 * that is one question on both venues, keeps the similar-but-different pair
 * apart, and serves them on both REST surfaces; admin overrides survive the
 * next sync; the venues' live trades reach /stream/trades.
 */
type EventBody = GetEventQuery['event'];
type Page = ListEventsQuery['events'];
type Detail = MarketDetailQuery['market'];

const ADMIN = { 'x-admin-token': 'live-catalog-admin' };
const FED_A = '90101';
const FED_B = 'KXFEDDECISION-26DEC';
const BTC_A = '90102';
const BTC_B = 'KXBTCMAXY-27JUN30';

let fake: FakeVenues;
let app: TestApp;

const appEnv = () => ({
  ...fake.env,
  ...NO_BACKGROUND_TIMERS,
  ADMIN_TOKEN: ADMIN['x-admin-token'],
  // Syncs and polls run when the test says so: no timer races the assertions.
  CATALOG_SYNC_MS: '0',
  VENUE_TRADES_POLL_MS: '3600000',
  VENUE_HTTP_RETRIES: '0',
});

beforeAll(async () => {
  fake = await startFakeVenues();
  app = await startTestApp(appEnv());
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

async function allEvents(): Promise<EventBody[]> {
  const r = await http(`${app.url}/api/events?pageSize=100`);
  expect(r.status).toBe(200);
  return (r.body as Page).data;
}

/** The core event of a title. */
function holding(events: EventBody[], title: string): EventBody {
  const e = events.find((x) => x.title === title);
  if (!e) throw new Error(`no event titled ${title}: ${events.map((x) => x.title).join(' | ')}`);
  return e;
}

const sync = () => app.services.get(CatalogJob).run();
/** A sync that wrote: on a shared PostgreSQL server another test's catalog job may hold the lock (a run then skips). */
const syncWrote = () =>
  eventually(
    async () => {
      const report = await sync();
      return report.skipped ? undefined : report;
    },
    'a catalog sync that was not skipped',
    30_000,
  );

describe('the live catalog', () => {
  it("serves the fake venues' events as core events: titles, markets, prices, token ids", async () => {
    const events = await allEvents();
    const venueEventCount = fake.data.venueA.events.length + fake.data.venueB.events.length;
    // One merged pair: one core event fewer than venue events.
    expect(events).toHaveLength(venueEventCount - 1);
    const fed = holding(events, 'Fed decision in December 2026?');
    expect(fed.sourceType).toBe('matched');
    expect(fed.category.toLowerCase()).toBe('economics');
    const cut = fed.markets.find((m) => m.venue === 'venue_a' && m.title.includes('cut'));
    expect(cut).toMatchObject({ bestBid: 0.61, bestAsk: 0.62, yesPrice: 0.615 });
    expect(cut?.outcomeTokenIds).toEqual({
      yes: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
      no: '52114319501245915516055106046884209969926127482827954674443846427813813222426',
    });
    const kalshiCut = fed.markets.find((m) => m.venue === 'venue_b' && m.marketId === 'KXFEDDECISION-26DEC-C25');
    expect(kalshiCut).toMatchObject({ bestBid: 0.6, bestAsk: 0.62, lastPrice: 0.61, outcomeTokenIds: null });
    expect(fed.markets.map((m) => m.venue).sort()).toEqual(['venue_a', 'venue_a', 'venue_b', 'venue_b']);
    // The similar-but-different pair (different deadlines) stays two events.
    const btc = events.filter((e) => e.title.startsWith('Bitcoin above $150,000'));
    expect(btc.map((e) => e.sourceType).sort()).toEqual(['venue_a_only', 'venue_b_only']);
    // One-sided events are core events of their own.
    expect(holding(events, 'Highest temperature in NYC on Dec 1, 2026?').sourceType).toBe('venue_b_only');

    const one = await http(`${app.url}/api/events/${fed.slug}`);
    expect(one.status).toBe(200);
    expect((one.body as EventBody).id).toBe(fed.id);
  });

  it("serves a market's book from its venue", async () => {
    const cut = fake.data.venueA.events[0].markets[0];
    const r = await http(`${app.url}/api/markets/venue_a/${cut.conditionId}/detail`);
    expect(r.status).toBe(200);
    const book = (r.body as Detail).orderBook;
    expect(book.bids[0]).toEqual({ price: 0.61, size: 250 });
    expect(book.asks[0]).toEqual({ price: 0.62, size: 300.25 });
  });

  it('the market-data surface and the comparisons show the same markets', async () => {
    const events = await allEvents();
    const coreMarkets = events.flatMap((e) => e.markets.map((m) => `${m.venue}:${m.marketId}`)).sort();
    const { key } = await issueKey(app, { scopes: ['read'] });
    const headers = { 'x-api-key': key };
    const md = await http(`${app.url}/market-data/api/markets?limit=100`, { headers });
    expect(md.status).toBe(200);
    const rows = (md.body as { data: { venue: string; venue_market_id: string }[] }).data;
    expect(rows.map((m) => `${m.venue}:${m.venue_market_id}`).sort()).toEqual(coreMarkets);

    const cmp = await http(`${app.url}/market-data/api/comparisons?limit=100`, { headers });
    expect(cmp.status).toBe(200);
    const comparisons = (cmp.body as { data: { id: number; venue_a_id: string; venue_b_id: string }[] }).data;
    const fed = comparisons.find((c) => c.venue_a_id === FED_A);
    expect(fed).toMatchObject({ venue_b_id: FED_B, relationship_type: 'exact_match' });
    // The Bitcoin pair is a near miss, not one question: no comparison.
    expect(comparisons.find((c) => c.venue_a_id === BTC_A)).toBeUndefined();
    const detail = await http(`${app.url}/market-data/api/comparisons/${fed!.id}`, { headers });
    const body = detail.body as { venue_a_markets: { venue_market_id: string }[]; venue_b_markets: unknown[] };
    expect(body.venue_a_markets.map((m) => m.venue_market_id).sort()).toEqual(
      fake.data.venueA.events[0].markets.map((m) => m.conditionId).sort(),
    );
    expect(body.venue_b_markets).toHaveLength(2);
  });

  it('stores every decision with its similarity, verdict and reason; stable ids across syncs', async () => {
    const before = (await allEvents()).map((e) => e.id).sort();
    const report = await syncWrote();
    expect(report).toMatchObject({ failedVenues: [], skipped: false, merged: 1 });
    expect((await allEvents()).map((e) => e.id).sort()).toEqual(before);

    const r = await http(`${app.url}/api/admin/catalog/decisions`, { headers: ADMIN });
    expect(r.status).toBe(200);
    const decisions = (r.body as { data: Record<string, unknown>[] }).data;
    const fed = decisions.find((d) => d.venueAEventId === FED_A && d.venueBEventId === FED_B);
    expect(fed).toMatchObject({ decision: 'merge', origin: 'matcher', pinned: false, relationshipType: 'exact_match' });
    expect(fed?.similarity).toBeGreaterThanOrEqual(app.config.catalog.matchThreshold);
    expect(fed?.reason).toMatch(/^Merged: similarity/);
    const btc = decisions.find((d) => d.venueAEventId === BTC_A && d.venueBEventId === BTC_B);
    expect(btc).toMatchObject({ decision: 'separate', relationshipType: 'similar', coreEventId: null });
    expect(Number(btc?.similarity)).toBeLessThan(app.config.catalog.matchThreshold);
    expect(btc?.reason).toMatch(/below the threshold.*venue_a closes 2026-12-31/);
  });

  it('an admin split survives the next sync; a merge joins two events; 4xx on bad input', async () => {
    const split = await http(`${app.url}/api/admin/catalog/split`, {
      method: 'POST',
      headers: ADMIN,
      json: { venue: 'venue_b', venueEventId: FED_B, reason: 'checking' },
    });
    expect(split.status).toBe(200);
    expect(split.body).toMatchObject({ decision: 'separate', origin: 'admin', pinned: true });
    const afterSplit = await allEvents();
    expect(afterSplit.filter((e) => e.sourceType === 'matched')).toHaveLength(0);

    await syncWrote();
    const again = await allEvents();
    expect(again.filter((e) => e.sourceType === 'matched')).toHaveLength(0);
    expect(again).toHaveLength(afterSplit.length);

    // Merge the two Bitcoin events by hand: pinned too, so the next sync keeps it.
    const [x, y] = again.filter((e) => e.title.startsWith('Bitcoin above $150,000'));
    // A comment on the venue_b event, which the merge takes away, follows it to the merged event.
    const absorbed = [x, y].find((e) => e.id === coreEventIdOf('venue_b', BTC_B))!;
    const token = await app.token('commenter');
    const comment = await http(`${app.url}/api/events/${absorbed.slug}/comments`, {
      method: 'POST',
      headers: bearer(token),
      json: { body: 'Before the merge' },
    });
    expect(comment.status).toBe(201);
    const merge = await http(`${app.url}/api/admin/catalog/merge`, {
      method: 'POST',
      headers: ADMIN,
      json: { eventId: x.id, otherEventId: y.id },
    });
    expect(merge.status).toBe(200);
    expect(merge.body).toMatchObject({ venueAEventId: BTC_A, venueBEventId: BTC_B, decision: 'merge', pinned: true });
    await syncWrote();
    const merged = (await allEvents()).filter((e) => e.sourceType === 'matched');
    expect(merged).toHaveLength(1);
    expect(merged[0].markets.map((m) => m.venue).sort()).toEqual(['venue_a', 'venue_b']);
    expect(merged[0].id).toBe(coreEventIdOf('venue_a', BTC_A));
    const comments = await http(`${app.url}/api/events/${merged[0].slug}/comments`);
    expect(comments.status).toBe(200);
    expect((comments.body as { data: { id: string; body: string }[] }).data).toEqual([
      expect.objectContaining({ id: (comment.body as { id: string }).id, body: 'Before the merge' }),
    ]);
    expect((await http(`${app.url}/api/events/${absorbed.slug}/comments`)).status).toBe(404);

    const unknown = await http(`${app.url}/api/admin/catalog/merge`, {
      method: 'POST',
      headers: ADMIN,
      json: { eventId: 'evt_nope', otherEventId: x.id },
    });
    expect(unknown.status).toBe(404);
    const bad = await http(`${app.url}/api/admin/catalog/split`, {
      method: 'POST',
      headers: ADMIN,
      json: { venue: 'venue_c', venueEventId: FED_B },
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/venue/);
    const anonymous = await http(`${app.url}/api/admin/catalog/split`, {
      method: 'POST',
      json: { venue: 'venue_b', venueEventId: FED_B },
    });
    expect(anonymous.status).toBe(401);
  });

  it('a malformed venue answer lists the venue in failedVenues, keeps the catalog and never 500s', async () => {
    const before = await allEvents();
    fake.fault({ api: 'kalshi', path: '/events' }, { kind: 'malformed' }, Infinity);
    try {
      const r = await http(`${app.url}/graphql`, {
        method: 'POST',
        headers: ADMIN,
        json: { query: 'mutation { syncCatalog { events failedVenues skipped } }' },
      });
      expect(r.status).toBe(200);
      expect((r.body as { data: { syncCatalog: unknown } }).data.syncCatalog).toMatchObject({
        failedVenues: ['venue_b'],
        skipped: false,
      });
      expect((await allEvents()).map((e) => e.id).sort()).toEqual(before.map((e) => e.id).sort());
    } finally {
      fake.clearFaults();
    }
  });

  it("a trade the venue publishes is stored once on the venue's trade id and reaches /stream/trades", async () => {
    const client = app.services.venues.venue_b as LiveVenueClient;
    // The feed's first poll learns what is there; the trade below is news.
    await client.pollTradesOnce();
    const sse = await openSse(`${app.url}/stream/trades`);
    try {
      expect(sse.status).toBe(200);
      const tradeId = fake.addTrade('venue_b', {
        venueMarketId: 'KXFEDDECISION-26DEC-C25',
        outcome: 'yes',
        price: 0.63,
        size: 12,
      });
      // One poll is enough: a trade reaches the stream within one polling interval.
      await client.pollTradesOnce();
      await client.pollTradesOnce();
      const [msg] = await sse.take(1, 20_000);
      const trade = JSON.parse(msg.data) as Record<string, unknown>;
      expect(trade).toMatchObject({ venue: 'venue_b', marketId: 'KXFEDDECISION-26DEC-C25', price: 0.63 });
      const stored = await app.services.db.prisma.trade.findMany({
        where: { venue: 'venue_b', venueTradeId: tradeId },
      });
      expect(stored).toHaveLength(1);
      const owner = (await allEvents()).find((e) => e.markets.some((m) => m.marketId === 'KXFEDDECISION-26DEC-C25'));
      expect(trade.eventId).toBe(owner?.id);
    } finally {
      sse.close();
    }
  });

  // Another process holding the catalog lock (a PostgreSQL session of its own; PGlite has one connection).
  (process.env.DATABASE_URL ? it : it.skip)('a sync finds the catalog lock held elsewhere and skips', async () => {
    const other = new Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query('BEGIN');
      // The key of this app's schema: the lock excludes the processes of one deployment only.
      await other.query(`SELECT pg_advisory_xact_lock(4207, hashtext($1 || ':catalog-sync'))`, [
        app.services.db.schema,
      ]);
      expect(await sync()).toMatchObject({ skipped: true, events: 0 });
      await other.query('COMMIT');
      expect(await sync()).toMatchObject({ skipped: false, failedVenues: [] });
    } finally {
      await other.end();
    }
  });

  // Two processes of one deployment meet through Redis: the catalog-changed message reaches the other.
  (process.env.REDIS_URL ? it : it.skip)('another process reloads its market index when this one syncs', async () => {
    const other = await startTestApp(appEnv(), {}, { shareWith: app });
    try {
      const key = 'venue_b:KXBTCMAXY-27JUN30-T150000';
      const index = other.services.get(MarketIndex);
      const apart = coreEventIdOf('venue_b', BTC_B);
      expect(index.eventOf(key)).not.toBe(apart);
      const split = await http(`${app.url}/api/admin/catalog/split`, {
        method: 'POST',
        headers: ADMIN,
        json: { venue: 'venue_b', venueEventId: BTC_B },
      });
      expect(split.status).toBe(200);
      await eventually(async () => (index.eventOf(key) === apart ? true : undefined), 'the other index', 20_000);
    } finally {
      await other.close();
    }
  });
});
