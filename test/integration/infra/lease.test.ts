import { randomUUID } from 'node:crypto';
import {
  createLeaseBackend,
  Leases,
  PostgresLeaseBackend,
  ProcessLeaseBackend,
  RedisLeaseBackend,
  type LeaseBackend,
} from '../../../src/infra';
import { waitFor } from '../../support/wait';
import { randomPrefix, REDIS_URL } from './infra-test-helpers';

const DATABASE_URL = process.env.DATABASE_URL ?? '';

/** A job that counts its starts and stops, and whether it runs now. */
function countingJob() {
  const job = {
    starts: 0,
    stops: 0,
    running: false,
    start() {
      job.starts += 1;
      job.running = true;
    },
    stop() {
      job.stops += 1;
      job.running = false;
    },
  };
  return job;
}

/** Counts `backend`'s finished `acquire` calls (each take or renewal of a lease is one). */
function attemptsOf(backend: LeaseBackend): { count: number } {
  const tries = { count: 0 };
  const acquire = backend.acquire.bind(backend);
  backend.acquire = async (name) => {
    try {
      return await acquire(name);
    } finally {
      tries.count += 1;
    }
  };
  return tries;
}

const errors: unknown[] = [];
const leasesOver = (backend: LeaseBackend, renewMs = 100) =>
  new Leases(backend, { renewMs, onError: (err) => errors.push(err) });

/** Two "processes" (lease sets) over one backend kind, as a deployment of two would have. */
const CASES: [string, () => Promise<[LeaseBackend, LeaseBackend]>][] = [];
if (REDIS_URL) {
  CASES.push([
    'Redis',
    async () => {
      const prefix = randomPrefix();
      const make = () =>
        createLeaseBackend({
          redisUrl: REDIS_URL,
          redisKeyPrefix: prefix,
          ttlMs: 1_000,
          onRedisError: () => undefined,
        });
      return [await make(), await make()];
    },
  ]);
}
if (DATABASE_URL) {
  CASES.push([
    'PostgreSQL advisory locks',
    async () => {
      const url = new URL(DATABASE_URL);
      url.searchParams.set('schema', `lease_${randomUUID().replace(/-/g, '').slice(0, 10)}`);
      const make = () =>
        createLeaseBackend({
          databaseUrl: url.toString(),
          redisKeyPrefix: '',
          ttlMs: 1_000,
          onRedisError: () => undefined,
        });
      return [await make(), await make()];
    },
  ]);
}

afterEach(() => {
  expect(errors.filter((e) => !String(e).includes('Connection is closed'))).toEqual([]);
  errors.length = 0;
});

describe('in-process leases (embedded: one process owns the database)', () => {
  it('holds every lease at once', async () => {
    const leases = leasesOver(new ProcessLeaseBackend());
    const [a, b] = [countingJob(), countingJob()];
    await leases.hold('one', a);
    await leases.hold('two', b);
    expect([a.running, b.running]).toEqual([true, true]);
    expect(leases.held().sort()).toEqual(['one', 'two']);
    await leases.close();
    expect([a.stops, b.stops]).toEqual([1, 1]);
  });

  it('refuses to hold one name twice', async () => {
    const leases = leasesOver(new ProcessLeaseBackend());
    await leases.hold('one', countingJob());
    await expect(leases.hold('one', countingJob())).rejects.toThrow('lease one is held twice');
    await leases.close();
  });
});

const describeShared = CASES.length > 0 ? describe.each(CASES) : describe.skip.each([['none', async () => []]]);

describeShared('%s leases across two processes', (_kind, makeBackends) => {
  it('runs a job in one process only, and the other takes it over when the holder gives it up', async () => {
    const [backendA, backendB] = (await makeBackends()) as [LeaseBackend, LeaseBackend];
    const [first, second] = [leasesOver(backendA), leasesOver(backendB)];
    const [jobA, jobB] = [countingJob(), countingJob()];
    const [triesA, triesB] = [attemptsOf(backendA), attemptsOf(backendB)];
    await first.hold('dispatch', jobA);
    await second.hold('dispatch', jobB);
    expect([jobA.running, jobB.running]).toEqual([true, false]);
    // Three renewals later, in each process, still one holder.
    const [a0, b0] = [triesA.count, triesB.count];
    await waitFor(() => triesA.count >= a0 + 3 && triesB.count >= b0 + 3, 'three renewals in each process', 10_000);
    expect([jobA.starts, jobB.starts]).toEqual([1, 0]);
    await first.close();
    expect(jobA).toMatchObject({ running: false, stops: 1 });
    await waitFor(() => jobB.running, 'the second process takes the lease', 10_000);
    expect(second.held()).toEqual(['dispatch']);
    await second.close();
  });

  it('a survivor takes the job over when the holder dies without giving it up', async () => {
    const [backendA, backendB] = (await makeBackends()) as [LeaseBackend, LeaseBackend];
    const survivor = leasesOver(backendB);
    const jobB = countingJob();
    // The holder takes the lease, then its connection drops without a release (a killed process).
    expect(await backendA.acquire('settle')).toBe(true);
    await survivor.hold('settle', jobB);
    expect(jobB.running).toBe(false);
    await backendA.close();
    await waitFor(() => jobB.running, 'the survivor takes the lease', 15_000);
    await survivor.close();
  });
});

it('the Redis and PostgreSQL backends are what the factory builds for their settings', async () => {
  expect(await createLeaseBackend({ redisKeyPrefix: '', ttlMs: 1_000, onRedisError: () => undefined })).toBeInstanceOf(
    ProcessLeaseBackend,
  );
  if (DATABASE_URL) {
    const pg = await createLeaseBackend({
      databaseUrl: DATABASE_URL,
      redisKeyPrefix: '',
      ttlMs: 1_000,
      onRedisError: () => undefined,
    });
    expect(pg).toBeInstanceOf(PostgresLeaseBackend);
    await pg.close();
  }
  if (REDIS_URL) {
    const redis = await createLeaseBackend({
      redisUrl: REDIS_URL,
      redisKeyPrefix: '',
      ttlMs: 1_000,
      onRedisError: () => undefined,
    });
    expect(redis).toBeInstanceOf(RedisLeaseBackend);
    await redis.close();
  }
});
