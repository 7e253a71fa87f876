import net from 'node:net';
import { createClient } from 'graphql-sse';
import { TRADES_TOPIC, type TradeEvent } from '../../../src/modules/trades';
import { http, startTestApp, type TestApp } from '../../support/app';
import { shiftedWallClock, type ShiftedWallClock } from '../../support/clock';
import { pubsubDelivered } from '../../support/pubsub';
import { closerOf } from '../../support/sse';
import { repeatUntil, waitFor } from '../../support/wait';

// Behind a trusted local proxy: X-Forwarded-For names the client, so one test process can be many
// clients. Small caps and a small buffer bound. Reservations live a minute of a wall clock the test
// moves forward (read by the reservations as `Date.now`): they lapse when the test says, not when a
// busy machine happens to be slow.
const RESERVATION_TTL_S = 60;
let app: TestApp;
let clock: ShiftedWallClock;
beforeAll(async () => {
  clock = shiftedWallClock();
  app = await startTestApp({
    TRUST_PROXY: 'loopback',
    STREAMS_TOTAL: '120',
    STREAM_MAX_BUFFER_BYTES: '4096',
    SSE_RESERVATIONS_PER_ADDRESS: '3',
    SSE_RESERVATION_TTL_SECONDS: String(RESERVATION_TTL_S),
  });
});
afterAll(async () => {
  await app.close();
  clock.restore();
});

interface OpenStream {
  status: number;
  headers: Headers;
  /** The JSON body of a refused request. */
  body?: unknown;
  close(): void;
}

/** Opens a stream with fetch and leaves it open (a refused one is read and closed). */
async function open(path: string, init: RequestInit = {}): Promise<OpenStream> {
  const ctrl = new AbortController();
  const res = await fetch(`${app.url}${path}`, {
    ...init,
    headers: { accept: 'text/event-stream', ...(init.headers as Record<string, string>) },
    signal: ctrl.signal,
  });
  if (res.status !== 200) {
    return { status: res.status, headers: res.headers, body: await res.json(), close: () => undefined };
  }
  return { status: 200, headers: res.headers, close: closerOf(ctrl, res) };
}

const closeAll = (streams: OpenStream[]) => streams.forEach((s) => s.close());

async function allReleased(): Promise<void> {
  await waitFor(() => app.running.slots.count() === 0, 'every stream slot released', 20_000);
}

function expectRefused(s: OpenStream): void {
  expect(s.status).toBe(429);
  expect(s.headers.get('retry-after')).toBe('5');
  expect(s.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/too many open streams/) });
}

async function counter(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await app.services.metrics.registry.getSingleMetric(name)?.get();
  const value = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return value?.value ?? 0;
}

describe('concurrent streams per client address and in total', () => {
  it('150 concurrent /stream/trades from one address: 100 open, then 429; closing some admits more', async () => {
    const all = await Promise.all(Array.from({ length: 150 }, () => open('/stream/trades')));
    try {
      const ok = all.filter((s) => s.status === 200);
      const refused = all.filter((s) => s.status !== 200);
      expect(ok).toHaveLength(100);
      expect(refused).toHaveLength(50);
      refused.forEach(expectRefused);
      expect(app.running.slots.count('127.0.0.1')).toBe(100);
      expect(await counter('sse_streams_refused_total', { reason: 'address' })).toBeGreaterThanOrEqual(50);

      // The same address is refused on every stream endpoint, graphql-sse's included.
      expectRefused(await open('/api/feed/stream'));
      expectRefused(
        await open('/graphql/stream', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'subscription { trades { id } }' }),
        }),
      );
      expectRefused(
        await open('/execute', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({}),
        }),
      );
      // Another address is not.
      const other = await open('/stream/trades', { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(other.status).toBe(200);
      other.close();

      ok.slice(0, 10).forEach((s) => s.close());
      await waitFor(() => app.running.slots.count('127.0.0.1') === 90, 'closed streams released', 20_000);
      const again = await Promise.all(Array.from({ length: 11 }, () => open('/stream/trades')));
      expect(again.filter((s) => s.status === 200)).toHaveLength(10);
      again.filter((s) => s.status !== 200).forEach(expectRefused);
      all.push(...again);
    } finally {
      closeAll(all);
    }
    await allReleased();
  });

  it('caps the total across addresses (STREAMS_TOTAL)', async () => {
    const opened: OpenStream[] = [];
    try {
      for (let i = 0; i < 120; i += 1) {
        const s = await open('/stream/trades', { headers: { 'x-forwarded-for': `203.0.113.${i % 3}` } });
        opened.push(s);
        expect(s.status).toBe(200);
      }
      const beyond = await open('/stream/trades', { headers: { 'x-forwarded-for': '203.0.113.99' } });
      expectRefused(beyond);
      expect(beyond.body).toMatchObject({ message: expect.stringMatching(/on this server/) });
      expect(await counter('sse_streams_refused_total', { reason: 'total' })).toBeGreaterThanOrEqual(1);
    } finally {
      closeAll(opened);
    }
    await allReleased();
  });

  it('a refused or failed stream request holds no slot (400 before any stream opens)', async () => {
    const r = await http(`${app.url}/stream/trades?venue=nasdaq`, { headers: { accept: 'text/event-stream' } });
    expect(r.status).toBe(400);
    await allReleased();
  });
});

/** A client that sends a request and then never reads: its socket is paused. */
function nonReadingClient(request: string): Promise<net.Socket> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(request);
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function closedPromise(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once('close', () => resolve());
    socket.on('error', () => undefined);
  });
}

describe('backpressure: a client that stops reading', () => {
  it('is dropped once its unsent bytes pass STREAM_MAX_BUFFER_BYTES, and counted (REST, graphql-sse)', async () => {
    const restBefore = await counter('sse_clients_dropped_total', { kind: 'rest' });
    const gqlBefore = await counter('sse_clients_dropped_total', { kind: 'graphql-sse' });
    const rest = await nonReadingClient(
      'GET /stream/trades HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n',
    );
    const body = JSON.stringify({ query: 'subscription { trades { id marketId } }' });
    const gql = await nonReadingClient(
      'POST /graphql/stream HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const restClosed = closedPromise(rest);
    const gqlClosed = closedPromise(gql);
    await waitFor(() => app.running.slots.count('127.0.0.1') === 2, 'both streams admitted', 20_000);

    // Large trades until the operating system's buffers are full and both writers give up. Each
    // round is published only after the previous one was delivered to the streams' subscriptions.
    const padding = 'm'.repeat(16_384);
    let round = 0;
    const dropped = async () =>
      (await counter('sse_clients_dropped_total', { kind: 'rest' })) > restBefore &&
      (await counter('sse_clients_dropped_total', { kind: 'graphql-sse' })) > gqlBefore;
    while (!(await dropped())) {
      round += 1;
      if (round > 400) throw new Error('a client that does not read was never dropped');
      const batch: TradeEvent[] = Array.from({ length: 50 }, (_, i) => ({
        id: `flood:${round}:${i}`,
        venue: 'venue_a',
        marketId: `${padding}-${round}-${i}`,
        eventId: null,
        traderId: null,
        side: 'buy',
        outcome: 'yes',
        price: 0.5,
        size: 1,
        filledAt: new Date().toISOString(),
      }));
      await app.services.infra.pubsub.publishMany(TRADES_TOPIC, batch);
      await pubsubDelivered(app.services.infra.pubsub);
    }
    // Their connections are gone and their slots given back.
    rest.resume();
    gql.resume();
    await restClosed;
    await gqlClosed;
    await allReleased();
  });
});

describe('graphql-sse reservations', () => {
  const client = { 'x-forwarded-for': '192.0.2.44' };
  const reserve = () => http(`${app.url}/graphql/stream`, { method: 'PUT', headers: client });

  it('issues random UUID tokens, caps them per address, and expires unused ones', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await reserve();
      expect(r.status).toBe(201);
      expect(r.text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      tokens.push(r.text);
    }
    expect(new Set(tokens).size).toBe(3);
    const fourth = await reserve();
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('5');
    expect(fourth.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/reservations/) });
    expect(await counter('sse_streams_refused_total', { reason: 'reservation' })).toBeGreaterThanOrEqual(1);
    // Another address has its own allowance.
    expect((await http(`${app.url}/graphql/stream`, { method: 'PUT' })).status).toBe(201);

    // Unused, they expire once their lifetime has passed: the sweep drops them (it runs on a timer,
    // and before each reservation), the address may reserve again, and an expired token no longer
    // opens a stream.
    clock.advance((RESERVATION_TTL_S * 1000) / 2);
    app.running.reservations.sweep();
    expect(app.running.reservations.count('192.0.2.44')).toBe(3);
    clock.advance((RESERVATION_TTL_S * 1000) / 2 + 1);
    app.running.reservations.sweep();
    expect(app.running.reservations.count('192.0.2.44')).toBe(0);
    expect((await reserve()).status).toBe(201);
    const stale = await http(`${app.url}/graphql/stream`, {
      headers: { ...client, accept: 'text/event-stream', 'x-graphql-event-stream-token': tokens[0] },
    });
    expect(stale.status).not.toBe(200);
  });

  it('a token opens its stream once; the open stream no longer counts as a reservation', async () => {
    const headers = { 'x-forwarded-for': '192.0.2.45' };
    const put = await http(`${app.url}/graphql/stream`, { method: 'PUT', headers });
    expect(put.status).toBe(201);
    expect(app.running.reservations.count('192.0.2.45')).toBe(1);
    const stream = await open('/graphql/stream', { headers: { ...headers, 'x-graphql-event-stream-token': put.text } });
    expect(stream.status).toBe(200);
    expect(app.running.reservations.count('192.0.2.45')).toBe(0);
    expect(app.running.slots.count('192.0.2.45')).toBe(1);
    stream.close();
    await allReleased();
  });

  it('the graphql-sse client in single-connection mode reserves, opens and receives', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, singleConnection: true, retryAttempts: 0 });
    try {
      const received = new Promise<unknown>((resolve, reject) => {
        client.subscribe<{ trades: { id: string } }>(
          { query: 'subscription { trades { id } }' },
          { next: (v) => resolve(v.data?.trades.id), error: reject, complete: () => undefined },
        );
      });
      await waitFor(() => app.running.slots.count() === 1, 'the single connection open', 20_000);
      // Published until the subscription is in place and delivers.
      let delivered: unknown;
      void received.then((v) => (delivered = v));
      let i = 0;
      await repeatUntil(
        () =>
          app.services.infra.pubsub.publishMany(TRADES_TOPIC, [
            {
              id: `single:${(i += 1)}`,
              venue: 'venue_b',
              marketId: 'm',
              eventId: null,
              traderId: null,
              side: 'buy',
              outcome: 'yes',
              price: 0.5,
              size: 1,
              filledAt: new Date().toISOString(),
            } satisfies TradeEvent,
          ]),
        () => delivered !== undefined,
        'a trade through the single connection',
        { everyMs: 50 },
      );
      expect(String(await received)).toMatch(/^single:/);
    } finally {
      client.dispose();
    }
    await allReleased();
  });
});
