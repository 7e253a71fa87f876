import type { PlaceOrderRequest, SimulatedWorld, Venue } from '../../../src/venues';
import { VenueMarketNotFoundError } from '../../../src/venues';
import { activeMarket, allMarkets, world } from './world-fixture';

let seq = 0;
const order = (venueMarketId: string, o: Partial<PlaceOrderRequest>): PlaceOrderRequest => ({
  venueMarketId,
  side: 'buy',
  outcome: 'yes',
  size: 10,
  orderType: 'market',
  clientOrderId: `c-${++seq}`,
  ...o,
});

async function setup(venue: Venue): Promise<{ w: SimulatedWorld; id: string }> {
  const w = world();
  return { w, id: (await activeMarket(w, venue, 1)).venueMarketId };
}

describe('placeOrder', () => {
  it('fills a market buy from the best asks up', async () => {
    const { w, id } = await setup('venue_a');
    const book = await w.clients.venue_a.getOrderBook(id);
    const size = Math.round((book.asks[0].size + book.asks[1].size / 2) * 100) / 100;
    const res = await w.clients.venue_a.placeOrder(order(id, { size }));
    expect(res.status).toBe('filled');
    expect(res.fills.map((f) => f.price)).toEqual([book.asks[0].price, book.asks[1].price]);
    expect(res.fills.reduce((s, f) => s + f.size, 0)).toBeCloseTo(size, 6);
    expect(res.venueOrderId).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('honours a limit: buys only at or below it, sells only at or above it', async () => {
    const { w, id } = await setup('venue_b');
    const client = w.clients.venue_b;
    const book = await client.getOrderBook(id);
    const limit = book.asks[1].price;
    const big = 1_000_000;
    const buy = await client.placeOrder(order(id, { orderType: 'limit', limitPrice: limit, size: big }));
    expect(buy.status).toBe('partially_filled');
    expect(buy.fills.every((f) => f.price <= limit)).toBe(true);
    expect(buy.fills.reduce((s, f) => s + f.size, 0)).toBe(book.asks[0].size + book.asks[1].size);

    const sellLimit = book.bids[0].price;
    const sell = await client.placeOrder(
      order(id, { side: 'sell', orderType: 'limit', limitPrice: sellLimit, size: big }),
    );
    expect(sell.fills).toEqual([expect.objectContaining({ price: sellLimit, size: book.bids[0].size })]);

    const resting = await client.placeOrder(order(id, { orderType: 'limit', limitPrice: book.bids[0].price, size: 5 }));
    expect(resting.status).toBe('rejected');
    expect(resting.fills).toEqual([]);
  });

  it('prices NO orders off the YES book', async () => {
    const { w, id } = await setup('venue_b');
    const book = await w.clients.venue_b.getOrderBook(id);
    const res = await w.clients.venue_b.placeOrder(order(id, { outcome: 'no', size: 1 }));
    expect(res.fills[0].price).toBeCloseTo(1 - book.bids[0].price, 10);
    const limited = await w.clients.venue_b.placeOrder(
      order(id, { outcome: 'no', size: 1, orderType: 'limit', limitPrice: 1 - book.bids[0].price - 0.01 }),
    );
    expect(limited.status).toBe('rejected');
  });

  it('is deterministic and idempotent per clientOrderId', async () => {
    const { w, id } = await setup('venue_a');
    const req = order(id, { size: 25, clientOrderId: 'same' });
    const first = await w.clients.venue_a.placeOrder(req);
    expect(await w.clients.venue_a.placeOrder({ ...req, size: 99 })).toEqual(first);
    const other = (await setup('venue_a')).w;
    expect(await other.clients.venue_a.placeOrder(req)).toEqual(first);
  });

  it('rejects invalid and untradeable orders', async () => {
    const { w, id } = await setup('venue_b');
    expect((await w.clients.venue_b.placeOrder(order(id, { size: 1.5 }))).status).toBe('rejected');
    expect((await w.clients.venue_b.placeOrder(order(id, { size: 0 }))).status).toBe('rejected');
    expect((await w.clients.venue_b.placeOrder(order(id, { orderType: 'limit' }))).reason).toMatch(/limitPrice/);
    const done = (await allMarkets(w, 'venue_b')).find((m) => m.status !== 'active')!;
    const closed = await w.clients.venue_b.placeOrder(order(done.venueMarketId, {}));
    expect(closed.status).toBe('rejected');
    expect(closed.reason).toMatch(/closed|resolved/);
    await expect(w.clients.venue_b.placeOrder(order('KXNOPE-1', {}))).rejects.toBeInstanceOf(VenueMarketNotFoundError);
  });
});
