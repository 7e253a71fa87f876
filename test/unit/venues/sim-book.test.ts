import { noBidsToYesAsks, VENUES } from '../../../src/venues';
import { buildCatalog } from '../../../src/venues/sim/sim-catalog';
import { SeedKeys } from '../../../src/venues/sim/sim-keys';
import { monthStart } from '../../../src/venues/sim/sim-dates';
import { nativeBinaryBookAt, yesBookAt } from '../../../src/venues/sim/sim-book';
import { activeMarket, allMarkets, NOW, world } from './world-fixture';

const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;

describe('order books', () => {
  it('are deterministic for the same seed and clock', async () => {
    const a = world(3);
    const b = world(3);
    for (const v of VENUES) {
      const m = await activeMarket(a, v, 5);
      expect(await b.clients[v].getOrderBook(m.venueMarketId)).toEqual(
        await a.clients[v].getOrderBook(m.venueMarketId),
      );
    }
  });

  it.each(VENUES)('hold the book invariants on every active %s market', async (venue) => {
    const w = world();
    const tick = venue === 'venue_a' ? 0.001 : 0.01;
    // Collect violations instead of asserting per level: thousands of expect() calls are slow.
    const problems: string[] = [];
    const check = (ok: boolean, what: string, id: string) => {
      if (!ok) problems.push(`${id}: ${what}`);
    };
    const active = (await allMarkets(w, venue)).filter((x) => x.status === 'active');
    expect(active.length).toBeGreaterThan(50);
    for (const m of active) {
      const id = m.venueMarketId;
      const book = await w.clients[venue].getOrderBook(id);
      check(book.venue === venue && book.venueMarketId === id, 'identity', id);
      check(book.bids.length >= 1 && book.asks.length >= 1, 'both sides present', id);
      check(book.bids.length <= 20 && book.asks.length <= 20, 'at most 20 levels', id);
      book.bids.forEach((l, i) => check(i === 0 || l.price < book.bids[i - 1].price, 'bids descending', id));
      book.asks.forEach((l, i) => check(i === 0 || l.price > book.asks[i - 1].price, 'asks ascending', id));
      check(book.bids[0].price < book.asks[0].price, 'best bid < best ask', id);
      check(m.bestBid === book.bids[0].price && m.bestAsk === book.asks[0].price, 'listing quotes match the book', id);
      for (const l of [...book.bids, ...book.asks]) {
        check(l.price > 0 && l.price < 1, 'price in (0, 1)', id);
        check(decimals(l.price) <= (venue === 'venue_a' ? 3 : 2), `price ${l.price} has too many decimals`, id);
        check(Math.abs(l.price / tick - Math.round(l.price / tick)) < 1e-6, 'price on tick', id);
        check(l.size > 0, 'positive size', id);
        check(venue === 'venue_a' || Number.isInteger(l.size), 'whole contracts', id);
      }
    }
    expect(problems).toEqual([]);
  });

  it('honours depth and is empty for markets that stopped trading', async () => {
    const w = world();
    const m = await activeMarket(w, 'venue_a');
    const book = await w.clients.venue_a.getOrderBook(m.venueMarketId, 3);
    expect(book.bids).toHaveLength(3);
    expect(book.asks).toHaveLength(3);
    const done = (await allMarkets(w, 'venue_b')).find((x) => x.status !== 'active');
    expect(done).toBeDefined();
    const empty = await w.clients.venue_b.getOrderBook(done!.venueMarketId);
    expect(empty.bids).toEqual([]);
    expect(empty.asks).toEqual([]);
  });

  it('builds venue_b natively from YES and NO bids', () => {
    const catalog = buildCatalog(new SeedKeys(7), monthStart(NOW), NOW);
    const m = [...catalog.markets.venue_b.values()].find((x) => x.status === 'active')!;
    const native = nativeBinaryBookAt(m, NOW / 1000);
    for (let i = 1; i < native.noBids.length; i++)
      expect(native.noBids[i].price).toBeLessThan(native.noBids[i - 1].price);
    // Crossing would mean a YES bid plus a NO bid pay more than the $1 payout.
    expect(native.yesBids[0].price + native.noBids[0].price).toBeLessThan(1);
    const yes = yesBookAt(m, NOW / 1000);
    expect(yes.asks).toEqual(noBidsToYesAsks(native.noBids));
  });
});

describe('noBidsToYesAsks', () => {
  it('maps a NO bid at q to a YES ask at 1 − q, best first', () => {
    expect(
      noBidsToYesAsks([
        { price: 0.45, size: 10 },
        { price: 0.44, size: 5 },
        { price: 0.3, size: 1 },
      ]),
    ).toEqual([
      { price: 0.55, size: 10 },
      { price: 0.56, size: 5 },
      { price: 0.7, size: 1 },
    ]);
  });

  it('rounds to the tick and sorts unsorted input', () => {
    expect(
      noBidsToYesAsks([
        { price: 0.07, size: 1 },
        { price: 0.93, size: 2 },
      ]),
    ).toEqual([
      { price: 0.07, size: 2 },
      { price: 0.93, size: 1 },
    ]);
    expect(noBidsToYesAsks([{ price: 0.123, size: 4 }], 0.001)).toEqual([{ price: 0.877, size: 4 }]);
    expect(noBidsToYesAsks([])).toEqual([]);
  });
});
