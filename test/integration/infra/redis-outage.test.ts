import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { createInfra, type Infra, type InfraErrorSource } from '../../../src/infra';
import { freePort } from '../../support/server-process';
import { sleep, waitFor } from '../../support/wait';

// Needs a local redis-server binary to kill and restart a private server; the
// shared Redis of the other suites must not be disturbed.
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

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

(hasRedisServer ? describe : describe.skip)('Redis outage and recovery', () => {
  let port: number;
  let server: ChildProcess;
  let infra: Infra | undefined;
  const errors: Array<{ error: Error; source: InfraErrorSource }> = [];

  beforeEach(async () => {
    errors.length = 0;
    port = await freePort();
    server = await startServer(port);
  });

  afterEach(async () => {
    await infra?.close();
    await stopServer(server);
  });

  it('reports errors instead of crashing, then reconnects and resubscribes', async () => {
    infra = await createInfra({
      redisUrl: `redis://127.0.0.1:${port}`,
      keyPrefix: 'outage:',
      onError: (error, source) => errors.push({ error, source }),
    });
    const received: unknown[] = [];
    await infra.pubsub.subscribe('events', (p) => received.push(p));
    await infra.pubsub.publish('events', 'before');
    await waitFor(() => received.length === 1, 'message before the outage');

    await stopServer(server);
    await waitFor(
      () => errors.some((e) => e.source === 'redis:command') && errors.some((e) => e.source === 'redis:subscriber'),
      'connection errors from both connections',
      10_000,
    );
    await expect(infra.ping()).resolves.toBe(false);
    // Bounded retries: a request-path call fails instead of hanging.
    await expect(infra.cache.get('k')).rejects.toThrow();

    server = await startServer(port);
    const current = infra;
    let healthy = false;
    await waitFor(
      () => {
        void current.ping().then((ok) => (healthy = ok));
        return healthy;
      },
      'ping after restart',
      15_000,
    );
    // The subscriber re-subscribes on its own; poll because that completes
    // asynchronously after the connection is ready.
    await waitFor(
      () => {
        void current.pubsub.publish('events', 'after').catch(() => undefined);
        return received.includes('after');
      },
      'message after the restart',
      15_000,
    );
    await expect(infra.rateLimiter.hit('k', 1, 1_000)).resolves.toMatchObject({ allowed: true });
  });
});
