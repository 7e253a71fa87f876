import { MemoryPubSub } from '../../../src/infra';
import {
  STATUS_BELIEVED_MS,
  VENUE_STREAMS_TOPIC,
  VenueStreamStatus,
  type VenueStreamView,
} from '../../../src/modules/market-streams';
import { capturingLogger } from '../../integration/venues/live-clients.support';
import { waitFor } from '../../support/wait';

const UP: VenueStreamView = {
  venue: 'venue_b',
  source: 'live',
  state: 'up',
  since: '2026-01-01T00:00:00.000Z',
  reason: null,
  trades: 'stream',
  books: 'stream',
  markets: 3,
};

function statusAt(clock: { ms: number }, pubsub: MemoryPubSub) {
  const log = capturingLogger();
  const status = new VenueStreamStatus({
    pubsub,
    logger: log.logger,
    now: () => clock.ms,
    venues: { venue_a: { source: 'live', streamed: false }, venue_b: { source: 'live', streamed: true } },
    pollMs: 5000,
  });
  return { status, lines: log.lines };
}

describe('where each venue stream stands, across processes', () => {
  let pubsub: MemoryPubSub;
  beforeEach(() => {
    pubsub = new MemoryPubSub({ onError: () => undefined, iteratorBufferSize: 10, now: Date.now });
  });
  afterEach(() => pubsub.close());

  it('a process believes what it heard for a while, then polls again (no holder says anything)', () => {
    const clock = { ms: 1_000_000 };
    const { status } = statusAt(clock, pubsub);
    expect(status.of('venue_b')).toMatchObject({ state: 'unknown', trades: 'polling' });
    expect(status.of('venue_a')).toMatchObject({ state: 'off', trades: 'polling' });
    status.receive(UP);
    expect(status.tradesStreamed('venue_b')).toBe(true);
    clock.ms += STATUS_BELIEVED_MS - 1;
    expect(status.tradesStreamed('venue_b')).toBe(true);
    clock.ms += 1;
    expect(status.tradesStreamed('venue_b')).toBe(false);
    expect(status.of('venue_b')).toMatchObject({ state: 'unknown', trades: 'polling', books: 'on request' });
  });

  it('the holder logs a change between up and down once (not per reconnect), and publishes each change', async () => {
    const clock = { ms: 1_000_000 };
    const { status, lines } = statusAt(clock, pubsub);
    const heard: VenueStreamView[] = [];
    await pubsub.subscribe<VenueStreamView>(VENUE_STREAMS_TOPIC, (v) => heard.push(v));
    const down = { ...UP, state: 'down' as const, reason: 'closed (1006)', trades: 'polling' as const };
    status.report({ ...UP, state: 'connecting', trades: 'polling', books: 'on request' });
    status.report(down);
    status.report({ ...down, state: 'connecting' });
    status.report(down);
    status.report(UP);
    status.report(UP);
    expect(
      lines.filter((l) => /venue_b stream down \(closed \(1006\)\): trades polled every 5000 ms/.test(l)),
    ).toHaveLength(1);
    expect(lines.filter((l) => /venue_b stream up/.test(l))).toHaveLength(1);
    await waitFor(() => heard.length === 5, 'each change published');
    expect(heard.map((v) => v.state)).toEqual(['connecting', 'down', 'connecting', 'down', 'up']);
    // The holder stops: every process hears at once that nobody streams.
    status.stopRefresh();
    await waitFor(() => heard.length === 6, 'the goodbye');
    expect(heard[5]).toMatchObject({ venue: 'venue_b', state: 'unknown', trades: 'polling' });
  });
});
