import { createLogger } from '../../../../src/http/logger';
import { TradePoller } from '../../../../src/venues/live/trade-poller';
import type { PublicTrade } from '../../../../src/venues/venue.models';

/**
 * The poller's schedule on a fake clock: when it polls, and that it stops, are read from the
 * timers themselves instead of from a wait on the real clock (the venue client's polling against
 * the fake venue is test/integration/venues/trade-polling.test.ts).
 */
const INTERVAL_MS = 100;

function pollerCounting(fetchRecent: () => Promise<PublicTrade[]> = async () => []) {
  const calls = { polls: 0 };
  const poller = new TradePoller({
    venue: 'venue_a',
    intervalMs: INTERVAL_MS,
    logger: createLogger('silent'),
    fetchRecent: () => {
      calls.polls += 1;
      return fetchRecent();
    },
  });
  return { poller, calls };
}

describe('TradePoller schedule', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('polls at once and then every interval while someone listens, and never after the last one leaves', async () => {
    const { poller, calls } = pollerCounting();
    const offFirst = poller.subscribe(() => undefined);
    const offSecond = poller.subscribe(() => undefined);
    await jest.advanceTimersByTimeAsync(0);
    expect(calls.polls).toBe(1);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS * 3);
    expect(calls.polls).toBe(4);
    // One listener left: still polling.
    offFirst();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(calls.polls).toBe(5);
    offSecond();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS * 100);
    expect(calls.polls).toBe(5);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('does not schedule another poll when the last listener leaves while a poll is in flight', async () => {
    let answer!: (trades: PublicTrade[]) => void;
    const { poller, calls } = pollerCounting(() => new Promise((resolve) => (answer = resolve)));
    const off = poller.subscribe(() => undefined);
    await jest.advanceTimersByTimeAsync(0);
    expect(calls.polls).toBe(1);
    off();
    answer([]);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS * 100);
    expect(calls.polls).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('starts again for a new listener, learning the tape first', async () => {
    const trade = (id: string): PublicTrade => ({
      venue: 'venue_a',
      venueTradeId: id,
      venueMarketId: 'm',
      venueTraderId: null,
      side: 'buy',
      outcome: 'yes',
      price: 0.5,
      size: 1,
      filledAt: new Date(0),
    });
    let tape = [trade('old')];
    const { poller, calls } = pollerCounting(async () => tape);
    poller.subscribe(() => undefined)();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS * 10);
    const got: string[] = [];
    const off = poller.subscribe((t) => got.push(t.venueTradeId));
    await jest.advanceTimersByTimeAsync(0);
    tape = [trade('new'), ...tape];
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(got).toEqual(['new']);
    off();
    expect(calls.polls).toBe(2);
  });
});
