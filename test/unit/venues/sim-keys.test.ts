import { createHmac, randomBytes } from 'node:crypto';
import {
  createSimulatedWorld,
  SecretKeys,
  SeedKeys,
  type PlaceOrderRequest,
  type SimulatedWorld,
} from '../../../src/venues';
import { activeMarket, NOW } from './world-fixture';

/**
 * The simulated world is keyed by a 256-bit secret through HMAC-SHA-256: the
 * same secret builds the same world, another secret another world, and what
 * the world publishes (ids, addresses, books, trades) does not give the secret
 * away: each identifier is an HMAC of a public label.
 */
const build = (secret: Buffer) => createSimulatedWorld({ keys: new SecretKeys(secret), now: () => NOW });

const order = (clientOrderId: string, venueMarketId: string): PlaceOrderRequest => ({
  venueMarketId,
  side: 'buy',
  outcome: 'yes',
  size: 3,
  orderType: 'market',
  clientOrderId,
});

/** What the world shows a client of one venue_b market and one venue_a market. */
async function publicView(w: SimulatedWorld) {
  const b = await activeMarket(w, 'venue_b');
  const a = await activeMarket(w, 'venue_a');
  return {
    coreEvents: w.coreEvents,
    events: await w.clients.venue_b.listEvents(),
    book: await w.clients.venue_b.getOrderBook(b.venueMarketId),
    tradesA: await w.clients.venue_a.getPublicTrades(a.venueMarketId, { limit: 50, offset: 0 }),
    tradesB: await w.clients.venue_b.getPublicTrades(b.venueMarketId, { limit: 50, offset: 0 }),
    holders: await w.clients.venue_a.getHolders(a.venueMarketId, 20),
    orderB: await w.clients.venue_b.placeOrder(order('client-order-1', b.venueMarketId)),
    orderA: await w.clients.venue_a.placeOrder(order('client-order-1', a.venueMarketId)),
  };
}

const hmacHex = (secret: Buffer, label: string) => createHmac('sha256', secret).update(label).digest('hex');

describe('the simulated world and its secret', () => {
  const secret = randomBytes(32);

  it('is the same world for the same secret, every time', async () => {
    const first = await publicView(build(secret));
    const again = await publicView(build(Buffer.from(secret)));
    expect(again).toEqual(first);
    expect(build(secret).fingerprint).toBe(build(Buffer.from(secret)).fingerprint);
  });

  it('is another world for another secret (one bit apart)', async () => {
    const other = Buffer.from(secret);
    other[31] ^= 1;
    const mine = await publicView(build(secret));
    const theirs = await publicView(build(other));
    expect(theirs.coreEvents.map((e) => e.id)).not.toEqual(mine.coreEvents.map((e) => e.id));
    expect(theirs.orderB.venueOrderId).not.toBe(mine.orderB.venueOrderId);
    expect(theirs.tradesA.map((t) => t.venueTradeId)).not.toEqual(mine.tradesA.map((t) => t.venueTradeId));
    expect(build(other).fingerprint).not.toBe(build(secret).fingerprint);
  });

  it('publishes HMACs of public labels, never the secret', async () => {
    const w = build(secret);
    const view = await publicView(w);
    // Identifiers are HMAC-SHA-256(secret, label): without the secret, one does not lead to another.
    expect(view.orderA.venueOrderId).toBe(`0x${hmacHex(secret, 'id:order|venue_a|client-order-1')}`);
    const b = hmacHex(secret, 'id:order|venue_b|client-order-1');
    expect(view.orderB.venueOrderId.replace(/-/g, '')).toBe(
      `${b.slice(0, 12)}4${b.slice(13, 16)}${'89ab'[parseInt(b[16], 16) & 3]}${b.slice(17, 32)}`,
    );
    expect(view.coreEvents.every((e) => /^evt_[0-9a-f]{12}$/.test(e.id))).toBe(true);
    // No 8 hex characters of the secret appear in what the world shows.
    const shown = JSON.stringify(view).toLowerCase();
    const hex = secret.toString('hex');
    for (let i = 0; i + 8 <= hex.length; i += 4) expect(shown).not.toContain(hex.slice(i, i + 8));
    expect(w.fingerprint).toBe(hmacHex(secret, 'fingerprint').slice(0, 16));
    // The venue_a traders' wallets are HMAC ids as well.
    const pool = new Set(Array.from({ length: 200 }, (_, i) => `0x${hmacHex(secret, `id:wallet|${i}`).slice(0, 40)}`));
    const traders = view.tradesA.map((t) => t.venueTraderId);
    expect(traders.length).toBeGreaterThan(0);
    expect(traders.every((address) => address !== null && pool.has(address))).toBe(true);
  });

  it('keeps a numbered demo world (outside production) the same every run, and apart from secret worlds', async () => {
    const a = await publicView(createSimulatedWorld({ seed: 42, now: () => NOW }));
    const b = await publicView(createSimulatedWorld({ keys: new SeedKeys(42), now: () => NOW }));
    expect(b).toEqual(a);
    expect(createSimulatedWorld({ seed: 43, now: () => NOW }).fingerprint).not.toBe('seed-42');
    expect((await publicView(build(secret))).coreEvents.map((e) => e.id)).not.toEqual(a.coreEvents.map((e) => e.id));
  });

  it('takes only 256-bit secrets', () => {
    expect(() => new SecretKeys(randomBytes(16))).toThrow(/32 bytes/);
    expect(SecretKeys.random().fingerprint).not.toBe(SecretKeys.random().fingerprint);
  });
});
