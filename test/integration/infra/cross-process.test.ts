import { fork } from 'node:child_process';
import path from 'node:path';
import type { Infra } from '../../../src/infra';
import type { ChildReport } from './fixtures/infra-child.fixture';
import { waitFor } from '../../support/wait';
import { describeRedis, makeInfra, randomPrefix, REDIS_URL } from './infra-test-helpers';

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(__dirname, 'fixtures', 'infra-child.fixture.ts');

/** Runs the fixture in a real child process; resolves with its IPC report once it exited cleanly. */
function runChild(args: string[]): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = fork(FIXTURE, [REDIS_URL, ...args], {
      cwd: ROOT,
      execArgv: ['-r', path.join(ROOT, 'scripts', 'register.js')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let report: ChildReport | undefined;
    child.on('message', (message: ChildReport) => (report = message));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && report) resolve(report);
      else reject(new Error(`child exited with code ${code} and report ${JSON.stringify(report)}`));
    });
  });
}

describeRedis('Redis infra across instances and processes', () => {
  const opened: Infra[] = [];
  let prefix: string;
  let a: Infra;
  let b: Infra;

  beforeEach(async () => {
    prefix = randomPrefix();
    a = await makeInfra('redis', { keyPrefix: prefix });
    b = await makeInfra('redis', { keyPrefix: prefix });
    opened.push(a, b);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((infra) => infra.close()));
  });

  it('delivers a message published on one instance to a subscriber on another', async () => {
    const received: unknown[] = [];
    await b.pubsub.subscribe('shared', (p) => received.push(p));
    await a.pubsub.publish('shared', { from: 'a' });
    await waitFor(() => received.length === 1, 'cross-instance message');
    expect(received).toEqual([{ from: 'a' }]);
  });

  it('does not leak between prefixes', async () => {
    const other = await makeInfra('redis');
    opened.push(other);
    const received: unknown[] = [];
    const sentinel: unknown[] = [];
    await other.pubsub.subscribe('shared', (p) => received.push(p));
    await b.pubsub.subscribe('shared', (p) => sentinel.push(p));
    await a.pubsub.publish('shared', 1);
    await a.cache.set('k', 'v', 10_000);
    await waitFor(() => sentinel.length === 1, 'same-prefix subscriber');
    await expect(b.cache.get('k')).resolves.toBe('v');
    await expect(other.cache.get('k')).resolves.toBeUndefined();
    // Redis pushes to one subscriber connection in publish order, so a message
    // leaking across prefixes would have arrived before `other`'s own.
    await other.pubsub.publish('shared', 'own');
    await waitFor(() => received.length === 1, 'own message on other prefix');
    expect(received).toEqual(['own']);
  });

  it('shares one limit across instances: 30 interleaved hits on 2 instances allow exactly 10', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).rateLimiter.hit('shared', 10, 10_000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    await expect(a.rateLimiter.peek('shared', 10, 10_000)).resolves.toMatchObject({ allowed: false, remaining: 0 });
    await expect(b.rateLimiter.peek('shared', 10, 10_000)).resolves.toMatchObject({ allowed: false, remaining: 0 });
  });

  it('shares cache entries across instances', async () => {
    await a.cache.set('user:1', { name: 'Ada' }, 10_000);
    await expect(b.cache.get('user:1')).resolves.toEqual({ name: 'Ada' });
    const load = jest.fn(async () => 'never');
    await expect(b.cache.wrap('user:1', 10_000, load)).resolves.toEqual({ value: { name: 'Ada' }, hit: true });
    expect(load).not.toHaveBeenCalled();
  });

  it('receives, in order, messages a separate Node process publishes', async () => {
    const received: Array<{ seq: number; pid: number }> = [];
    await a.pubsub.subscribe<{ seq: number; pid: number }>('from-child', (p) => received.push(p));
    const report = await runChild([prefix, 'publish', 'from-child', '50']);
    expect(report.published).toBe(50);
    expect(report.pid).not.toBe(process.pid);
    await waitFor(() => received.length === 50, '50 messages from the child');
    expect(received.map((m) => m.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(new Set(received.map((m) => m.pid))).toEqual(new Set([report.pid]));
  });

  it('enforces one limit between this process and a separate Node process', async () => {
    const [child, local] = await Promise.all([
      runChild([prefix, 'hit', 'proc', '15', '10', '30000']),
      Promise.all(Array.from({ length: 15 }, () => a.rateLimiter.hit('proc', 10, 30_000))),
    ]);
    const localAllowed = local.filter((r) => r.allowed).length;
    expect((child.allowed ?? -1) + localAllowed).toBe(10);
  });
});
