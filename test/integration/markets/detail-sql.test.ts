import { print } from 'graphql';
import { MarketDetailDocument } from '../../../schema/generated/operations';
import { NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { EventsService } from '../../../src/modules/events/events.service';
import { MarketsService } from '../../../src/modules/markets/markets.service';

/**
 * The detail screen, plus each trade's market and that market's event: the
 * fields that would cost one SQL round trip per trade without loaders.
 */
const QUERY = print(MarketDetailDocument).replace(
  /trades\(limit: \$tradesLimit\) \{\s*data \{/,
  'trades(limit: $tradesLimit) { data { market { id title event { id slug } } ',
);

let app: TestApp;
let marketId: string;
beforeAll(async () => {
  const p = pinnedWorld();
  app = await startTestApp({ ...NO_BACKGROUND_TIMERS }, {}, p); // no timer's query inside a measurement
  marketId = activeMatchedEvent(p.world).markets[0].venueMarketIds.venue_a!;
});
afterAll(async () => {
  await app.close();
});

/** SQL statements one cold detail query runs (the per-process catalog memos dropped first). */
async function statementsFor(tradesLimit: number): Promise<number> {
  app.services.get(EventsService).invalidate();
  app.services.get(MarketsService).invalidate();
  const before = app.services.db.queryCount();
  // QUERY adds fields to the generated document: its result type is written here.
  const r = await gql<{ market: { trades: { data: { market: { id: string; event: { id: string } } }[] } } }>(
    app,
    QUERY,
    { venue: 'venue_a', marketId, tradesLimit, chartPoints: 24 },
  );
  const used = app.services.db.queryCount() - before;
  const body = r.body;
  expect(body.errors).toBeUndefined();
  const trades = body.data!.market.trades.data;
  expect(trades).toHaveLength(tradesLimit);
  expect(trades.every((t) => t.market.id === `venue_a:${marketId}`)).toBe(true);
  return used;
}

describe('the detail query', () => {
  it('runs the same few SQL statements for 5 and for 500 trades', async () => {
    await statementsFor(5); // warm the venue-side caches; SQL is counted cold each time
    const five = await statementsFor(5);
    // The 495 trades listed for the first time are recorded as shown (comment targets): one statement.
    expect(await statementsFor(500)).toBe(five + 1);
    const fiveHundred = await statementsFor(500);
    process.stdout.write(`\ndetail query SQL statements: ${five} at 5 trades, ${fiveHundred} at 500 trades\n`);
    expect(fiveHundred).toBe(five);
    // market (1), its event (1), the event's markets for the counterpart (1).
    expect(five).toBeLessThanOrEqual(3);
  });

  it('runs no SQL at all once the catalog reads are memoized', async () => {
    await statementsFor(5);
    const before = app.services.db.queryCount();
    const r = await gql(app, QUERY, { venue: 'venue_a', marketId, tradesLimit: 500 });
    expect(r.body.errors).toBeUndefined();
    expect(app.services.db.queryCount() - before).toBe(0);
  });
});
