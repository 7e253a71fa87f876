import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import {
  closeRedisClient,
  createInfra,
  DependencyHealth,
  RedisUnavailableError,
  type AvailabilityChange,
  type Infra,
  type InfraErrorSource,
} from '../../../src/infra';
import { freePort } from '../../support/server-process';
import { eventually, sleep, waitFor } from '../../support/wait';

// Needs a local redis-server binary to kill, freeze and restart a private server; the shared
// Redis of the other suites must not be disturbed.
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

/**
 * A bound no call may exceed while Redis is down: generous (the suite runs on a noisy 2-core
 * machine), and still far above what failing fast costs (no network wait at all), yet far below
 * what waiting for Redis did (seconds of reconnect retries per call).
 */
const FAIL_FAST_BOUND_MS = 1_000;

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function startServer(port: number): Promise<ChildProcess> {
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (Date.now() > deadline) throw new Error('private redis-server did not start');
    await sleep(20);
  }
  return server;
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGKILL');
  });
}

/** Runs `call` and returns what it resolved to (or the error it threw) with how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await call();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

(hasRedisServer ? describe : describe.skip)('Redis outage and recovery', () => {
  let port: number;
  let server: ChildProcess;
  let infra: Infra | undefined;
  let raw: Redis | undefined;
  const errors: Array<{ error: Error; source: InfraErrorSource }> = [];
  const changes: AvailabilityChange[] = [];

  beforeEach(async () => {
    errors.length = 0;
    changes.length = 0;
    port = await freePort();
    server = await startServer(port);
  });

  afterEach(async () => {
    if (server.pid && server.signalCode === null) process.kill(server.pid, 'SIGCONT');
    if (raw) await closeRedisClient(raw);
    raw = undefined;
    await infra?.close();
    infra = undefined;
    await stopServer(server);
  });

  async function open(commandTimeoutMs?: number): Promise<Infra> {
    infra = await createInfra({
      redisUrl: `redis://127.0.0.1:${port}`,
      keyPrefix: 'outage:',
      onError: (error, source) => errors.push({ error, source }),
      redisHealth: new DependencyHealth('redis', { onChange: (c) => changes.push(c) }),
      commandTimeoutMs,
    });
    return infra;
  }

  it('fails fast while Redis is down (cache, local rate limits and pub/sub), reports it once, recovers', async () => {
    const current = await open();
    const received: unknown[] = [];
    await current.pubsub.subscribe('events', (p) => received.push(p));
    await current.pubsub.publish('events', 'before');
    await waitFor(() => received.length === 1, 'message before the outage');

    await stopServer(server);
    await waitFor(() => changes.length > 0, 'the outage reported');
    expect(changes[0]).toMatchObject({ dependency: 'redis', available: false });

    // Many calls of every kind during the outage: each answers at once, none waits for Redis.
    const calls = [];
    for (let i = 0; i < 20; i += 1) {
      calls.push(await timed(() => current.cache.get('k')));
      calls.push(await timed(() => current.cache.wrap(`w${i}`, 5_000, async () => i)));
      calls.push(await timed(() => current.rateLimiter.hit('during', 5, 60_000)));
      calls.push(await timed(() => current.pubsub.publish('events', `during ${i}`)));
    }
    expect(Math.max(...calls.map((c) => c.ms))).toBeLessThan(FAIL_FAST_BOUND_MS);
    // Direct reads and writes say Redis was not reached; read-through loads as on a miss.
    expect(calls[0].error).toBeInstanceOf(RedisUnavailableError);
    expect(calls[1]).toMatchObject({ value: { value: 0, hit: false } });
    await expect(current.cache.set('k', 1, 5_000)).rejects.toBeInstanceOf(RedisUnavailableError);
    // Rate limits hold in this process: 5 of the 20 hits pass.
    const hits = calls.filter((_, i) => i % 4 === 2).map((c) => (c.value as { allowed: boolean }).allowed);
    expect(hits.filter(Boolean)).toHaveLength(5);
    // This process's own subscribers still get what it publishes, in order.
    await waitFor(() => received.length === 21, 'local deliveries during the outage');
    expect(received.slice(1)).toEqual(Array.from({ length: 20 }, (_, i) => `during ${i}`));
    // A subscription made during the outage listens locally at once.
    const late: unknown[] = [];
    const lateSubscribe = await timed(() => current.pubsub.subscribe('late', (p) => late.push(p)));
    expect(lateSubscribe.ms).toBeLessThan(FAIL_FAST_BOUND_MS);
    await expect(current.ping()).resolves.toBe(false);
    // Reported once, whatever the number of failed calls and reconnect attempts.
    expect(changes).toHaveLength(1);
    expect(errors).toEqual([]);

    server = await startServer(port);
    await waitFor(() => changes.length === 2, 'the recovery reported', 15_000);
    expect(changes[1]).toMatchObject({ dependency: 'redis', available: true });
    await expect(current.ping()).resolves.toBe(true);
    // Back on Redis: another client sees what this one writes and publishes, and both
    // subscriptions (the one restored by the reconnect, the one made during the outage) hear it.
    raw = new Redis(`redis://127.0.0.1:${port}`);
    await current.cache.set('after', 'shared', 5_000);
    expect(await raw.get('outage:cache:after')).toBe('"shared"');
    await current.rateLimiter.hit('after', 5, 60_000);
    expect(await raw.zcard('outage:rl:after')).toBe(1);
    const publisher = raw;
    await eventually(
      async () => {
        await publisher.publish('outage:ps:events', JSON.stringify({ publishedAt: Date.now(), payload: 'from redis' }));
        await publisher.publish('outage:ps:late', JSON.stringify({ publishedAt: Date.now(), payload: 'late' }));
        await sleep(20);
        return received.includes('from redis') && late.includes('late') ? true : undefined;
      },
      'messages through Redis after the restart',
      15_000,
    );
    expect(changes).toHaveLength(2);
  });

  it('stops calling a Redis that accepts connections but does not answer, and probes it back', async () => {
    const current = await open(200);
    await current.cache.set('k', 'v', 60_000);
    // Frozen: its connections stay open, nothing is answered.
    process.kill(server.pid!, 'SIGSTOP');
    // The first commands wait for their timeout, then the breaker opens.
    await eventually(
      async () => {
        await current.cache.get('k').catch(() => undefined);
        return changes.length > 0 ? true : undefined;
      },
      'the breaker opened',
      10_000,
    );
    expect(changes[0]).toMatchObject({ available: false });
    const calls = [];
    for (let i = 0; i < 20; i += 1) {
      calls.push(await timed(() => current.cache.get('k')));
      calls.push(await timed(() => current.rateLimiter.hit('frozen', 100, 60_000)));
    }
    // Open breaker: nothing waits for the command timeout any more.
    expect(Math.max(...calls.map((c) => c.ms))).toBeLessThan(FAIL_FAST_BOUND_MS);
    expect(calls.every((c, i) => (i % 2 === 0 ? c.error instanceof RedisUnavailableError : c.value))).toBe(true);

    process.kill(server.pid!, 'SIGCONT');
    await waitFor(() => changes.length === 2, 'the probe closed the breaker', 15_000);
    expect(changes[1]).toMatchObject({ available: true });
    await expect(current.cache.get('k')).resolves.toBe('v');
  });
});
