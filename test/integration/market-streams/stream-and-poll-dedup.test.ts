import { TradeIngestService } from '../../../src/modules/ingestion';
import { TRADES_TOPIC, type TradeEvent } from '../../../src/modules/trades';
import type { PublicTrade } from '../../../src/venues';
import { startTestApp, type TestApp } from '../../support/app';
import { eventually, waitFor } from '../../support/wait';

/** A venue_a trade as the websocket prints it (no trader) and as the polled tape lists it (with one). */
function copies(id: string, market: string, wallet: string): { printed: PublicTrade; polled: PublicTrade } {
  const printed: PublicTrade = {
    venue: 'venue_a',
    venueTradeId: id,
    venueMarketId: market,
    venueTraderId: null,
    side: 'buy',
    outcome: 'yes',
    price: 0.42,
    size: 10,
    filledAt: new Date(),
  };
  // The tape's figures may differ a little (its own rounding): the first copy stored is the trade.
  return { printed, polled: { ...printed, venueTraderId: wallet, price: 0.4201 } };
}

describe('a trade two feeds deliver is one trade', () => {
  let app: TestApp;
  let market: string;
  const published: TradeEvent[] = [];
  beforeAll(async () => {
    app = await startTestApp();
    market = (await app.services.db.prisma.market.findFirst({ where: { venue: 'venue_a', status: 'active' } }))!
      .venueMarketId;
    await app.services.infra.pubsub.subscribe<TradeEvent>(TRADES_TOPIC, (t) => published.push(t));
  });
  afterAll(() => app.close());

  it('in one batch: stored and published once, with the trader whichever copy named', async () => {
    const ingest = app.services.get(TradeIngestService);
    const { printed, polled } = copies('0xdedup-1:token:BUY', market, '0x00000000000000000000000000000000000000d1');
    ingest.enqueue(printed);
    ingest.enqueue(polled);
    await ingest.flush();
    await waitFor(() => published.some((t) => t.id === 'venue_a:0xdedup-1:token:BUY'), 'the trade');
    const row = await app.services.db.prisma.trade.findMany({ where: { venueTradeId: printed.venueTradeId } });
    expect(row).toHaveLength(1);
    expect(row[0].venueTraderId).toBe(polled.venueTraderId);
    expect(Number(row[0].price)).toBe(0.42);
    const marker = { ...printed, venueTradeId: '0xdedup-marker' };
    ingest.enqueue(marker);
    await ingest.flush();
    await waitFor(() => published.some((t) => t.id === 'venue_a:0xdedup-marker'), 'the marker');
    expect(published.filter((t) => t.id === 'venue_a:0xdedup-1:token:BUY')).toHaveLength(1);
  });

  it("in two batches: the later copy names the stored one's trader (stats once), is not published again", async () => {
    const ingest = app.services.get(TradeIngestService);
    const wallet = '0x00000000000000000000000000000000000000d2';
    const { printed, polled } = copies('0xdedup-2:token:BUY', market, wallet);
    ingest.enqueue(printed);
    await ingest.flush();
    ingest.enqueue(polled);
    ingest.enqueue({ ...polled });
    await ingest.flush();
    ingest.enqueue(polled);
    await ingest.flush();
    const row = await app.services.db.prisma.trade.findFirst({ where: { venueTradeId: printed.venueTradeId } });
    expect(row?.venueTraderId).toBe(wallet);
    const position = await eventually(
      async () => (await app.services.db.prisma.traderPosition.findFirst({ where: { traderId: wallet } })) ?? undefined,
      "the trader's position",
    );
    // Counted once, at the stored figures.
    expect(Number(position.size)).toBe(10);
    expect(Number(position.costBasis)).toBeCloseTo(4.2, 6);
    ingest.enqueue({ ...printed, venueTradeId: '0xdedup-marker-2' });
    await ingest.flush();
    await waitFor(() => published.some((t) => t.id === 'venue_a:0xdedup-marker-2'), 'the marker');
    expect(published.filter((t) => t.id === 'venue_a:0xdedup-2:token:BUY')).toEqual([
      expect.objectContaining({ traderId: null, price: 0.42 }),
    ]);
  });
});
