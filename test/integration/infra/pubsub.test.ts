import type { Infra, InfraErrorSource } from '../../../src/infra';
import { waitFor } from '../../support/wait';
import { KINDS, makeInfra } from './infra-test-helpers';

interface Tick {
  seq: number;
}

describe.each(KINDS)('pubsub (%s)', (kind) => {
  let infra: Infra;
  const lags: Array<{ topic: string; lagMs: number }> = [];
  const errors: Array<{ error: Error; source: InfraErrorSource }> = [];

  beforeEach(async () => {
    lags.length = 0;
    errors.length = 0;
    infra = await makeInfra(kind, {
      onDeliveryLag: (topic, lagMs) => lags.push({ topic, lagMs }),
      onError: (error, source) => errors.push({ error, source }),
    });
  });

  afterEach(async () => {
    await infra.close();
  });

  it('delivers in publish order', async () => {
    const received: number[] = [];
    await infra.pubsub.subscribe<Tick>('ticks', (tick) => received.push(tick.seq));
    // Not awaited one by one: ordering must hold for pipelined publishes too.
    await Promise.all(Array.from({ length: 200 }, (_, seq) => infra.pubsub.publish<Tick>('ticks', { seq })));
    await waitFor(() => received.length === 200, '200 messages');
    expect(received).toEqual(Array.from({ length: 200 }, (_, seq) => seq));
  });

  it('publishMany delivers a batch in order, after what was published before it', async () => {
    const received: number[] = [];
    await infra.pubsub.subscribe<Tick>('ticks', (tick) => received.push(tick.seq));
    await infra.pubsub.publish<Tick>('ticks', { seq: -1 });
    await infra.pubsub.publishMany<Tick>(
      'ticks',
      Array.from({ length: 500 }, (_, seq) => ({ seq })),
    );
    await infra.pubsub.publishMany<Tick>('ticks', []);
    await infra.pubsub.publish<Tick>('ticks', { seq: 500 });
    await waitFor(() => received.length === 502, '502 messages');
    expect(received).toEqual(Array.from({ length: 502 }, (_, i) => i - 1));
  });

  it('publishMany is all or none: a payload that cannot be serialised publishes nothing of the batch', async () => {
    const received: unknown[] = [];
    await infra.pubsub.subscribe('t', (p) => received.push(p));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(infra.pubsub.publishMany('t', [1, 2, cyclic, 4])).rejects.toThrow(TypeError);
    await infra.pubsub.publish('t', 'sentinel');
    await waitFor(() => received.length >= 1, 'the sentinel');
    expect(received).toEqual(['sentinel']);
  });

  it('publishMany: a listener leaving mid-batch gets none of its rest; the lag counts each payload', async () => {
    const leaver: number[] = [];
    const stayer: number[] = [];
    const leave: () => Promise<void> = await infra.pubsub.subscribe<Tick>('ticks', (tick) => {
      leaver.push(tick.seq);
      void leave();
    });
    await infra.pubsub.subscribe<Tick>('ticks', (tick) => stayer.push(tick.seq));
    await infra.pubsub.publishMany<Tick>('ticks', [{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
    await waitFor(() => stayer.length === 3, 'the whole batch');
    expect(leaver).toEqual([1]);
    expect(stayer).toEqual([1, 2, 3]);
    expect(lags).toHaveLength(3);
  });

  it('delivers to every subscriber and keeps topics apart', async () => {
    const a: unknown[] = [];
    const b: unknown[] = [];
    const other: unknown[] = [];
    await infra.pubsub.subscribe('t', (p) => a.push(p));
    await infra.pubsub.subscribe('t', (p) => b.push(p));
    await infra.pubsub.subscribe('other', (p) => other.push(p));
    expect(infra.pubsub.listenerCount('t')).toBe(2);
    await infra.pubsub.publish('t', { hello: 'world' });
    await infra.pubsub.publish('other', 'sentinel');
    await waitFor(() => a.length === 1 && b.length === 1 && other.length === 1, 'both subscribers');
    expect(a).toEqual([{ hello: 'world' }]);
    expect(b).toEqual([{ hello: 'world' }]);
    expect(other).toEqual(['sentinel']);
  });

  it('stops delivering after unsubscribe, and unsubscribe is idempotent', async () => {
    const gone: number[] = [];
    const stays: number[] = [];
    const unsubscribe = await infra.pubsub.subscribe<number>('t', (n) => gone.push(n));
    await infra.pubsub.subscribe<number>('t', (n) => stays.push(n));
    await infra.pubsub.publish('t', 1);
    await waitFor(() => gone.length === 1 && stays.length === 1, 'first message');

    await unsubscribe();
    await unsubscribe();
    expect(infra.pubsub.listenerCount('t')).toBe(1);
    await infra.pubsub.publish('t', 2);
    // Same publisher, same channel: once `stays` has 2, `gone` would have had it too.
    await waitFor(() => stays.length === 2, 'second message');
    expect(gone).toEqual([1]);
  });

  it('resubscribes cleanly after the last listener left', async () => {
    const first = await infra.pubsub.subscribe('t', () => undefined);
    await first();
    expect(infra.pubsub.listenerCount('t')).toBe(0);
    const received: unknown[] = [];
    await infra.pubsub.subscribe('t', (p) => received.push(p));
    await infra.pubsub.publish('t', 'again');
    await waitFor(() => received.length === 1, 'message after resubscribe');
    expect(received).toEqual(['again']);
  });

  it('iterate() yields messages and return() unsubscribes', async () => {
    const iterator = infra.pubsub.iterate<Tick>('stream');
    await iterator.ready;
    expect(infra.pubsub.listenerCount('stream')).toBe(1);
    for (const seq of [1, 2, 3]) await infra.pubsub.publish<Tick>('stream', { seq });

    const seen: number[] = [];
    for await (const tick of iterator) {
      seen.push(tick.seq);
      if (seen.length === 3) break; // `break` calls return()
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(infra.pubsub.listenerCount('stream')).toBe(0);
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('iterate() resolves a waiting next() on publish, and return() ends a waiting next()', async () => {
    const iterator = infra.pubsub.iterate<string>('wait');
    await iterator.ready;
    const first = iterator.next();
    await infra.pubsub.publish('wait', 'x');
    await expect(first).resolves.toEqual({ done: false, value: 'x' });
    const pending = iterator.next();
    await iterator.return();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
  });

  it('iterate() buffers a slow consumer up to the bound, dropping and counting the oldest', async () => {
    await infra.close();
    const drops: string[] = [];
    infra = await makeInfra(kind, { iteratorBufferSize: 5, onIteratorDrop: (topic) => drops.push(topic) });
    const iterator = infra.pubsub.iterate<number>('burst');
    await iterator.ready;
    let delivered = 0;
    await infra.pubsub.subscribe('burst', () => (delivered += 1));
    for (let n = 0; n < 20; n += 1) await infra.pubsub.publish('burst', n);
    await waitFor(() => delivered === 20, 'all 20 delivered');

    expect(iterator.dropped).toBe(15);
    expect(drops).toEqual(Array.from({ length: 15 }, () => 'burst'));
    const kept: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const result = await iterator.next();
      if (!result.done) kept.push(result.value);
    }
    expect(kept).toEqual([15, 16, 17, 18, 19]);
    await iterator.return();
  });

  it('reports delivery lag once per delivered message', async () => {
    let count = 0;
    await infra.pubsub.subscribe('lagged', () => (count += 1));
    await infra.pubsub.subscribe('lagged', () => undefined);
    await infra.pubsub.publish('lagged', 1);
    await infra.pubsub.publish('lagged', 2);
    await waitFor(() => count === 2, 'two messages');
    expect(lags).toHaveLength(2);
    for (const { topic, lagMs } of lags) {
      expect(topic).toBe('lagged');
      expect(Number.isFinite(lagMs)).toBe(true);
      expect(lagMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('isolates a throwing listener and reports it', async () => {
    const received: unknown[] = [];
    await infra.pubsub.subscribe('t', () => {
      throw new Error('listener bug');
    });
    await infra.pubsub.subscribe('t', (p) => received.push(p));
    await infra.pubsub.publish('t', 'ok');
    await waitFor(() => received.length === 1, 'second listener');
    expect(errors.map((e) => [e.source, e.error.message])).toEqual([['pubsub:listener', 'listener bug']]);
  });

  it('close() ends open iterators and refuses further use', async () => {
    const iterator = infra.pubsub.iterate('t');
    await iterator.ready;
    const pending = iterator.next();
    await infra.close();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    await expect(infra.pubsub.publish('t', 1)).rejects.toThrow('closed');
    await expect(infra.pubsub.subscribe('t', () => undefined)).rejects.toThrow('closed');
    await expect(infra.ping()).resolves.toBe(false);
  });
});
