import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { InfraErrorHandler } from './infra.types';
import { closeRedisClient, createRedisClient } from './redis-connection';

/**
 * Leases: a named job runs in one process at a time across the processes of a
 * deployment. Each process tries to take (or keep) each lease every renewal
 * period; the holder runs the job, the others wait, and when the holder dies
 * (its lease expires, or its database session ends) a survivor takes the job
 * over at its next attempt.
 *
 * Backends:
 * - Redis (when configured): `SET key token PX ttl` if free, renewed by the holder
 *   every third of the TTL; a dead holder's lease expires after the TTL.
 * - PostgreSQL without Redis: a session-level advisory lock on one dedicated
 *   connection; PostgreSQL frees it the moment that session ends.
 * - In-process (embedded PGlite admits one process): every lease is held.
 *
 * Written here rather than taken from a package: redlock and its kin implement the
 * multi-node Redlock algorithm, which one Redis does not need, and none of them covers
 * the advisory-lock and in-process cases; what is left is one Lua script and a timer.
 */
export interface LeaseBackend {
  readonly kind: 'redis' | 'postgres' | 'process';
  /** Takes `name`, or keeps it when this process holds it; true while held. Throws when the backend is unreachable. */
  acquire(name: string): Promise<boolean>;
  /** Gives `name` up (when held), so another process may take it at once. */
  release(name: string): Promise<void>;
  /** Closes the backend's connection (what it still holds is freed or expires). */
  close(): Promise<void>;
}

/** What runs while the lease is held. */
export interface LeasedJob {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

export interface LeasesOptions {
  /** How often each lease is taken or renewed (ms): a third of the Redis TTL. */
  renewMs: number;
  /** A backend failure (the job is stopped: another process may take the lease) or a job's start or stop failure. */
  onError: (err: unknown, lease: string) => void;
  /** Told when this process takes or loses a lease. */
  onChange?: (lease: string, held: boolean) => void;
}

interface LeaseState {
  job: LeasedJob;
  running: boolean;
  /** The lease's steps run one at a time. */
  chain: Promise<void>;
  released: boolean;
}

/** This process's leases: each job runs here while its lease is held here. */
export class Leases {
  private readonly leases = new Map<string, LeaseState>();
  private timer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    readonly backend: LeaseBackend,
    private readonly opts: LeasesOptions,
  ) {}

  /** Runs `job` while this process holds `name`; resolves after the first attempt (and the job's start, if taken). */
  async hold(name: string, job: LeasedJob): Promise<void> {
    if (this.closing) throw new Error('leases are closed');
    if (this.leases.has(name)) throw new Error(`lease ${name} is held twice`);
    const state: LeaseState = { job, running: false, chain: Promise.resolve(), released: false };
    this.leases.set(name, state);
    this.timer ??= setInterval(() => this.renewAll(), this.opts.renewMs).unref();
    await this.step(name, state);
  }

  /** The leases this process holds (their jobs run here). */
  held(): string[] {
    return [...this.leases].filter(([, s]) => s.running).map(([name]) => name);
  }

  /** Stops `name`'s job (when it runs here) and gives the lease up. */
  release(name: string): Promise<void> {
    const state = this.leases.get(name);
    if (!state) return Promise.resolve();
    this.leases.delete(name);
    state.released = true;
    return this.enqueue(state, async () => {
      if (state.running) {
        state.running = false;
        await state.job.stop();
        this.opts.onChange?.(name, false);
      }
      await this.backend.release(name).catch((err: unknown) => this.opts.onError(err, name));
    });
  }

  /** Releases every lease (stopping their jobs), then closes the backend. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.timer);
      await Promise.all([...this.leases.keys()].map((name) => this.release(name)));
      await this.backend.close();
    })();
    return this.closing;
  }

  private renewAll(): void {
    for (const [name, state] of this.leases)
      this.step(name, state).catch((err: unknown) => this.opts.onError(err, name));
  }

  private step(name: string, state: LeaseState): Promise<void> {
    return this.enqueue(state, async () => {
      if (state.released) return;
      let held: boolean;
      try {
        held = await this.backend.acquire(name);
      } catch (err) {
        this.opts.onError(err, name);
        held = false;
      }
      if (state.released) return;
      if (held && !state.running) {
        state.running = true;
        this.opts.onChange?.(name, true);
        await state.job.start();
      } else if (!held && state.running) {
        state.running = false;
        this.opts.onChange?.(name, false);
        await state.job.stop();
      }
    });
  }

  private enqueue(state: LeaseState, work: () => Promise<void>): Promise<void> {
    const run = state.chain.then(work);
    state.chain = run.catch(() => undefined);
    return run;
  }
}

/** Every lease is this process's: one process owns the embedded database. */
export class ProcessLeaseBackend implements LeaseBackend {
  readonly kind = 'process';
  async acquire(): Promise<boolean> {
    return true;
  }
  async release(): Promise<void> {}
  async close(): Promise<void> {}
}

/** Takes a free lease or renews this holder's, atomically: 1 when held by `token` afterwards. */
const ACQUIRE_LUA = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if v then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
/** Deletes the lease only when `token` holds it. */
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Leases as Redis keys `<prefix>lease:<name>` holding the holder's random token, with a TTL. */
export class RedisLeaseBackend implements LeaseBackend {
  readonly kind = 'redis';
  /** This process's identity as a holder. */
  readonly token = randomUUID();

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly ttlMs: number,
    private readonly closeClient: () => Promise<void>,
  ) {}

  async acquire(name: string): Promise<boolean> {
    return (await this.redis.eval(ACQUIRE_LUA, 1, this.key(name), this.token, String(this.ttlMs))) === 1;
  }

  async release(name: string): Promise<void> {
    await this.redis.eval(RELEASE_LUA, 1, this.key(name), this.token);
  }

  close(): Promise<void> {
    return this.closeClient();
  }

  private key(name: string): string {
    return `${this.keyPrefix}lease:${name}`;
  }
}

/**
 * Leases as session-level advisory locks on one connection of its own (the pool's
 * connections come and go). The lock key is a 64-bit hash of the namespace (the
 * schema: deployments or tests sharing a database keep apart) and the name.
 * A lost connection loses every lease; the next attempt reconnects.
 */
export class PostgresLeaseBackend implements LeaseBackend {
  readonly kind = 'postgres';
  private client: pg.Client | undefined;
  private readonly heldKeys = new Set<string>();

  constructor(
    private readonly connectionString: string,
    private readonly namespace: string,
  ) {}

  async acquire(name: string): Promise<boolean> {
    const key = this.lockKey(name);
    try {
      const client = await this.connected();
      if (this.heldKeys.has(key)) {
        // Held as long as the session lives: check that it does.
        await client.query('SELECT 1');
        return true;
      }
      const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
      if (r.rows[0]?.ok) this.heldKeys.add(key);
      return this.heldKeys.has(key);
    } catch (err) {
      await this.drop();
      throw err;
    }
  }

  async release(name: string): Promise<void> {
    const key = this.lockKey(name);
    if (!this.heldKeys.delete(key) || !this.client) return;
    await this.client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
  }

  close(): Promise<void> {
    return this.drop();
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.connectionString });
    // A broken session surfaces on the next query; the listener keeps it from crashing the process.
    client.on('error', () => undefined);
    await client.connect();
    this.client = client;
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.heldKeys.clear();
    await client?.end().catch(() => undefined);
  }

  private lockKey(name: string): string {
    const digest = createHash('sha256').update(`${this.namespace}\0${name}`).digest();
    return digest.readBigInt64BE(0).toString();
  }
}

export interface LeaseBackendOptions {
  redisUrl?: string;
  redisKeyPrefix: string;
  /** PostgreSQL URL (`?schema=` names the namespace); unset with no Redis: in-process leases. */
  databaseUrl?: string;
  ttlMs: number;
  onRedisError: InfraErrorHandler;
  /** How long one Redis command may take (ms); the client's default when unset. */
  redisCommandTimeoutMs?: number;
}

/** Redis leases when Redis is configured, else advisory locks on PostgreSQL, else in-process. */
export async function createLeaseBackend(o: LeaseBackendOptions): Promise<LeaseBackend> {
  if (o.redisUrl) {
    // A connection of its own: a lease renewal never queues behind the cache's or the rate limiter's commands.
    const client = createRedisClient(o.redisUrl, 'command', o.onRedisError, {
      commandTimeoutMs: o.redisCommandTimeoutMs,
    });
    await client.connect();
    return new RedisLeaseBackend(client, o.redisKeyPrefix, o.ttlMs, () => closeRedisClient(client));
  }
  if (o.databaseUrl) {
    const url = new URL(o.databaseUrl);
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    return new PostgresLeaseBackend(url.toString(), `${url.pathname}:${schema}`);
  }
  return new ProcessLeaseBackend();
}
