import { createClient, NetworkError } from 'graphql-sse';
import { TRADES_TOPIC, type TradeEvent } from '../../../src/modules/trades';
import { http, startTestApp, type TestApp } from '../../support/app';
import { openSse, type SseReader } from '../../support/sse';
import { waitFor } from '../../support/wait';

// graphql-sse's single-connection mode: one reservation (PUT) carries many operations (POST with
// its token), all delivered on one stream (GET with the token). Behind a trusted local proxy so
// that each test is a client address of its own.
const SUBSCRIPTION = 'subscription { trades { id } }';
const STREAM = '/graphql/stream';
const TOKEN = 'x-graphql-event-stream-token';

function trade(id: string): TradeEvent {
  return {
    id,
    venue: 'venue_a',
    marketId: 'm',
    eventId: null,
    traderId: null,
    side: 'buy',
    outcome: 'yes',
    price: 0.5,
    size: 1,
    filledAt: new Date().toISOString(),
  };
}

/**
 * Publishes trades until `count` operations of a stream have each delivered one (a subscription
 * listens from its first read, just after its 202), and returns their ids.
 */
async function deliveredOperations(app: TestApp, stream: SseReader, count: number): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let round = 0; ids.size < count; round += 1) {
    if (round > 200) throw new Error(`only ${ids.size} of ${count} operations delivered`);
    await app.services.infra.pubsub.publishMany(TRADES_TOPIC, [trade(`ops:${round}`)]);
    // Whatever arrived within a short while (take throws once nothing more comes).
    for (;;) {
      const [m] = await stream.take(1, 100).catch(() => [undefined]);
      if (m === undefined) break;
      if (m.event === 'next') ids.add((JSON.parse(m.data) as { id: string }).id);
    }
  }
  return ids;
}

/** A client at `address` speaking graphql-sse's single-connection protocol with fetch. */
function clientAt(app: TestApp, address: string) {
  const from = { 'x-forwarded-for': address };
  return {
    reserve: async () => {
      const r = await http(`${app.url}${STREAM}`, { method: 'PUT', headers: from });
      expect(r.status).toBe(201);
      return r.text;
    },
    post: (token: string, operationId: string, query = SUBSCRIPTION) =>
      http(`${app.url}${STREAM}`, {
        method: 'POST',
        headers: { ...from, 'content-type': 'application/json', [TOKEN]: token },
        body: JSON.stringify({ query, extensions: { operationId } }),
      }),
    stop: (token: string, operationId: string) =>
      http(`${app.url}${STREAM}?operationId=${operationId}`, {
        method: 'DELETE',
        headers: { ...from, [TOKEN]: token },
      }),
    open: (token: string): Promise<SseReader> =>
      openSse(`${app.url}${STREAM}`, { headers: { ...from, [TOKEN]: token } }),
    trades: (): Promise<SseReader> => openSse(`${app.url}/stream/trades`, { headers: from }),
  };
}

describe('operations per graphql-sse stream (SSE_MAX_OPERATIONS_PER_STREAM, default 20)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ TRUST_PROXY: 'loopback', STREAMS_PER_ADDRESS: '30' });
  });
  afterAll(async () => {
    await app.close();
  });
  const released = () =>
    waitFor(
      () => app.running.slots.count() === 0 && app.running.sseOperations.count() === 0,
      'every stream slot and operation released',
      20_000,
    );

  it('one reservation takes 20 subscriptions; the 21st POST is a 429 naming the limit; DELETE frees one', async () => {
    const c = clientAt(app, '192.0.2.61');
    const token = await c.reserve();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await c.post(token, `op${i}`)).status);
    expect(statuses).toEqual(Array(20).fill(202));
    const refused = await c.post(token, 'op20');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toEqual({
      error: 'rate_limited',
      message: expect.stringMatching(
        /too many operations on this stream \(at most 20, SSE_MAX_OPERATIONS_PER_STREAM\)/,
      ),
    });
    expect(app.running.sseOperations.count(token)).toBe(20);
    // Operations beyond the first count as streams of the address.
    expect(app.running.slots.count('192.0.2.61')).toBe(19);

    expect((await c.stop(token, 'op3')).status).toBe(200);
    await waitFor(() => app.running.sseOperations.count(token) === 19, 'the stopped operation released', 20_000);
    expect(app.running.slots.count('192.0.2.61')).toBe(18);
    expect((await c.post(token, 'op20')).status).toBe(202);
    expect((await c.post(token, 'op21')).status).toBe(429);

    // The stream opens with its 20 operations and delivers to each; closing it ends them all.
    const stream = await c.open(token);
    expect(stream.status).toBe(200);
    expect(app.running.slots.count('192.0.2.61')).toBe(20);
    const ids = await deliveredOperations(app, stream, 20);
    expect(ids).not.toContain('op3');
    stream.close();
    await released();
  });

  it('an address’s streams and stream operations share STREAMS_PER_ADDRESS', async () => {
    const c = clientAt(app, '192.0.2.62');
    const token = await c.reserve();
    const stream = await c.open(token);
    for (let i = 0; i < 20; i += 1) expect((await c.post(token, `op${i}`)).status).toBe(202);
    expect(app.running.slots.count('192.0.2.62')).toBe(20); // the stream and 19 operations
    const others: SseReader[] = [];
    try {
      for (let i = 0; i < 10; i += 1) {
        const s = await c.trades();
        others.push(s);
        expect(s.status).toBe(200);
      }
      expect((await c.trades()).status).toBe(429);
      // A second reservation: its first operation takes no slot, its second one would.
      const second = await c.reserve();
      expect((await c.post(second, 'a')).status).toBe(202);
      const beyond = await c.post(second, 'b');
      expect(beyond.status).toBe(429);
      expect(beyond.body).toEqual({
        error: 'rate_limited',
        message: expect.stringMatching(/too many open streams and stream operations from this address \(at most 30\)/),
      });
      // Closing the first stream gives its 20 places back: the second stream may grow.
      stream.close();
      await waitFor(() => app.running.slots.count('192.0.2.62') === 10, 'the closed stream released', 20_000);
      expect((await c.post(second, 'b')).status).toBe(202);
      const secondStream = await c.open(second);
      secondStream.close();
    } finally {
      stream.close();
      others.forEach((s) => s.close());
    }
    await released();
  });

  it('an operation that completes gives its place back (queries over the stream)', async () => {
    const c = clientAt(app, '192.0.2.63');
    const token = await c.reserve();
    const stream = await c.open(token);
    try {
      for (let i = 0; i < 30; i += 1) {
        expect((await c.post(token, `q${i}`, '{ __typename }')).status).toBe(202);
        await waitFor(() => app.running.sseOperations.count(token) === 0, 'the query completed', 20_000);
      }
      const messages = await stream.take(60);
      expect(messages.filter((m) => m.event === 'complete')).toHaveLength(30);
    } finally {
      stream.close();
    }
    await released();
  });

  it('refused operation requests hold nothing (bad query, unknown token)', async () => {
    const c = clientAt(app, '192.0.2.64');
    const token = await c.reserve();
    for (let i = 0; i < 25; i += 1) {
      const r = await c.post(token, `bad${i}`, '{ nope }');
      expect(r.status).toBe(400);
    }
    expect((await c.post('not-a-reservation', 'x')).status).toBe(404);
    expect(app.running.sseOperations.count()).toBe(0);
    expect(app.running.slots.count('192.0.2.64')).toBe(0);
    const stream = await c.open(token);
    stream.close();
    await released();
  });

  it('graphql-sse client, single-connection mode: 20 subscriptions deliver, the 21st is refused (429)', async () => {
    const client = createClient({
      url: `${app.url}${STREAM}`,
      singleConnection: true,
      retryAttempts: 0,
      headers: { 'x-forwarded-for': '192.0.2.65' },
    });
    const delivered = new Set<number>();
    const errors: unknown[] = [];
    try {
      for (let i = 0; i < 21; i += 1) {
        client.subscribe<{ trades: { id: string } }>(
          { query: SUBSCRIPTION },
          { next: () => delivered.add(i), error: (err) => errors.push(err), complete: () => undefined },
        );
      }
      await waitFor(() => errors.length === 1, 'one subscription refused', 20_000);
      const [err] = errors;
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as NetworkError<Response>).response?.status).toBe(429);
      await waitFor(() => app.running.sseOperations.count() === 20, 'twenty operations live', 20_000);
      // Published until every accepted subscription has delivered.
      for (let round = 0; delivered.size < 20; round += 1) {
        if (round > 200) throw new Error(`only ${delivered.size} subscriptions delivered`);
        await app.services.infra.pubsub.publishMany(TRADES_TOPIC, [trade(`client:${round}`)]);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(delivered.size).toBe(20);
    } finally {
      client.dispose();
    }
    await released();
  });
});

describe('operations of a reservation that is never opened, and at server stop', () => {
  let app: TestApp;
  let closed = false;
  beforeAll(async () => {
    app = await startTestApp({ TRUST_PROXY: 'loopback', SSE_RESERVATION_TTL_SECONDS: '1' });
  });
  afterAll(async () => {
    if (!closed) await app.close();
  });

  it('a reservation that expires unopened gives back its operations’ places', async () => {
    const c = clientAt(app, '192.0.2.71');
    const token = await c.reserve();
    const accepted = [];
    for (let i = 0; i < 5; i += 1) accepted.push((await c.post(token, `op${i}`)).status);
    // (The TTL is 1 s: a POST after the expiry finds no stream, 404; the places are the point here.)
    expect(accepted.filter((s) => s !== 202 && s !== 404)).toEqual([]);
    await waitFor(
      () =>
        app.running.reservations.count() === 0 &&
        app.running.sseOperations.count() === 0 &&
        app.running.slots.count() === 0,
      'the expired reservation released',
      20_000,
    );
  });

  it('server stop gives back every place (open streams and unopened reservations)', async () => {
    const c = clientAt(app, '192.0.2.72');
    const open = await c.reserve();
    const stream = await c.open(open);
    for (let i = 0; i < 5; i += 1) expect((await c.post(open, `op${i}`)).status).toBe(202);
    const pending = await c.reserve();
    for (let i = 0; i < 3; i += 1) await c.post(pending, `op${i}`);
    expect(app.running.slots.count('192.0.2.72')).toBeGreaterThanOrEqual(5);
    closed = true;
    await app.close();
    stream.close();
    expect(app.running.sseOperations.count()).toBe(0);
    await waitFor(() => app.running.slots.count() === 0, 'every slot released at stop', 20_000);
  });
});
