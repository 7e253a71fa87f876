import type { Redis } from 'ioredis';
import {
  closeRedisClient,
  createInfra,
  createRedisClient,
  RedisPubSub,
  type Infra,
  type InfraErrorSource,
} from '../../../src/infra';
import { waitFor } from '../../support/wait';
import { describeRedis, makeInfra, randomPrefix, REDIS_URL } from './infra-test-helpers';

describeRedis('Redis-specific behaviour', () => {
  let prefix: string;
  let infra: Infra;
  let raw: Redis;
  const errors: Array<{ error: Error; source: InfraErrorSource }> = [];

  beforeEach(async () => {
    errors.length = 0;
    prefix = randomPrefix();
    infra = await makeInfra('redis', { keyPrefix: prefix, onError: (error, source) => errors.push({ error, source }) });
    raw = createRedisClient(REDIS_URL, 'command', () => undefined);
    await raw.connect();
  });

  afterEach(async () => {
    await infra.close();
    await closeRedisClient(raw);
  });

  async function subscriberCount(topic: string): Promise<number> {
    const reply = (await raw.pubsub('NUMSUB', `${prefix}ps:${topic}`)) as [string, number];
    return Number(reply[1]);
  }

  it('subscribes a channel once per process and unsubscribes with the last listener', async () => {
    const first = await infra.pubsub.subscribe('rc', () => undefined);
    const second = await infra.pubsub.subscribe('rc', () => undefined);
    const iterator = infra.pubsub.iterate('rc');
    await iterator.ready;
    expect(await subscriberCount('rc')).toBe(1);
    await first();
    await iterator.return();
    expect(await subscriberCount('rc')).toBe(1);
    await second();
    expect(await subscriberCount('rc')).toBe(0);
  });

  it(
    'resolves subscribe() only once Redis confirmed it, even on a connection still starting (ioredis ' + '#2037)',
    async () => {
      for (let round = 0; round < 10; round += 1) {
        const subscriber = createRedisClient(REDIS_URL, 'subscriber', (error) =>
          errors.push({ error, source: 'redis:subscriber' }),
        );
        expect(subscriber.status).toBe('wait');
        const pubsub = new RedisPubSub(raw, subscriber, prefix, { onError: () => undefined, iteratorBufferSize: 10 });
        const received: unknown[] = [];
        // Subscribe straight away: this SUBSCRIBE is written during the connect handshake.
        await pubsub.subscribe('early', (p) => received.push(p));
        expect(await subscriberCount('early')).toBe(1);
        await raw.publish(`${prefix}ps:early`, JSON.stringify({ publishedAt: Date.now(), payload: round }));
        await waitFor(() => received.length === 1, `message in round ${round}`);
        expect(received).toEqual([round]);
        await pubsub.close();
        expect(subscriber.status).toBe('end');
      }
      expect(errors).toEqual([]);
    },
  );

  it('reports a foreign message on a channel and keeps delivering', async () => {
    const received: unknown[] = [];
    await infra.pubsub.subscribe('t', (p) => received.push(p));
    await raw.publish(`${prefix}ps:t`, 'not json');
    await raw.publish(`${prefix}ps:t`, JSON.stringify({ no: 'envelope' }));
    await infra.pubsub.publish('t', 'fine');
    await waitFor(() => received.length === 1, 'valid message');
    expect(received).toEqual(['fine']);
    expect(errors.map((e) => e.source)).toEqual(['pubsub:message', 'pubsub:message']);
  });

  it('sends a batch as ONE message holding its payloads in order; a single payload keeps its format', async () => {
    const listener = createRedisClient(REDIS_URL, 'subscriber', () => undefined);
    const messages: string[] = [];
    listener.on('message', (_channel: string, message: string) => messages.push(message));
    await listener.subscribe(`${prefix}ps:batch`);
    const received: unknown[] = [];
    await infra.pubsub.subscribe('batch', (p) => received.push(p));
    await infra.pubsub.publishMany('batch', [{ n: 1 }, { n: 2 }, { n: 3 }]);
    await infra.pubsub.publish('batch', { n: 4 });
    await waitFor(() => messages.length === 2 && received.length === 4, 'the batch and the single message');
    await closeRedisClient(listener);
    const [batch, single] = messages.map((m) => JSON.parse(m) as Record<string, unknown>);
    expect(batch).toEqual({ publishedAt: expect.any(Number), payloads: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    expect(single).toEqual({ publishedAt: expect.any(Number), payload: { n: 4 } });
    expect(received).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    // A batch whose payloads are not a list is a foreign message: reported, nothing delivered.
    await raw.publish(`${prefix}ps:batch`, JSON.stringify({ publishedAt: Date.now(), payloads: 'nope' }));
    await infra.pubsub.publish('batch', 'after');
    await waitFor(() => received.length === 5, 'the message after the foreign one');
    expect(received[4]).toBe('after');
    expect(errors.map((e) => [e.source, e.error.message])).toEqual([
      ['pubsub:message', 'pub/sub batch has no list of payloads'],
    ]);
  });

  it('stores the sliding log as one sorted set with a TTL, counting only allowed hits', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => infra.rateLimiter.hit('log', 25, 5_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(25);
    const key = `${prefix}rl:log`;
    // Same-millisecond hits must not collapse into one member.
    expect(await raw.zcard(key)).toBe(25);
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  it('peek does not write a key', async () => {
    await infra.rateLimiter.peek('ghost', 5, 5_000);
    expect(await raw.exists(`${prefix}rl:ghost`)).toBe(0);
  });

  it('reloads the Lua script after the server lost its script cache', async () => {
    await expect(infra.rateLimiter.hit('flush', 3, 5_000)).resolves.toMatchObject({ remaining: 2 });
    await raw.script('FLUSH');
    await expect(infra.rateLimiter.hit('flush', 3, 5_000)).resolves.toMatchObject({ remaining: 1 });
  });

  it('stores cache entries as JSON with a millisecond TTL', async () => {
    await infra.cache.set('entry', { a: 1 }, 5_000);
    const key = `${prefix}cache:entry`;
    expect(await raw.get(key)).toBe('{"a":1}');
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  it('treats a foreign (non-JSON) cache value as a miss and reports it', async () => {
    await raw.set(`${prefix}cache:bad`, '{not json', 'PX', 5_000);
    await expect(infra.cache.get('bad')).resolves.toBeUndefined();
    await expect(infra.cache.wrap('bad', 5_000, async () => 'fixed')).resolves.toEqual({ value: 'fixed', hit: false });
    await expect(infra.cache.get('bad')).resolves.toBe('fixed');
    expect(errors.every((e) => e.source === 'cache')).toBe(true);
  });

  it('pings while connected and not after close', async () => {
    await expect(infra.ping()).resolves.toBe(true);
    await infra.close();
    await expect(infra.ping()).resolves.toBe(false);
    await infra.close(); // idempotent
  });

  it('fails start-up on an unreachable server, reporting the error instead of crashing', async () => {
    const seen: Array<{ error: Error; source: InfraErrorSource }> = [];
    await expect(
      createInfra({ redisUrl: 'redis://127.0.0.1:1', onError: (error, source) => seen.push({ error, source }) }),
    ).rejects.toThrow();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => e.source === 'redis:command' || e.source === 'redis:subscriber')).toBe(true);
  });
});
