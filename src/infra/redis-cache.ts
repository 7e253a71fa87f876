import type { Redis } from 'ioredis';
import type { Cache, CacheWrapResult } from './cache.types';
import { asError, encodeCacheValue, normalizeTtlMs, SingleFlight } from './cache-support';
import type { InfraErrorHandler } from './infra.types';
import type { RedisGuard } from './redis-guard';

/**
 * Redis-backed cache: one string key per entry holding JSON, expiring via PX.
 * Single-flight in `wrap` is per process; across processes concurrent misses
 * may each load once, which is the usual trade-off versus a distributed lock.
 *
 * Every command goes through the process's {@link RedisGuard}: while Redis is
 * unavailable `get`, `set` and `del` fail at once with `RedisUnavailableError`
 * (a caller keeping shared state, such as the API keys' revocation set, must
 * know it was not read or written), and `wrap` loads as on a miss and skips
 * the write, reporting nothing (the outage is reported once, by the guard).
 */
export class RedisCache implements Cache {
  private readonly flights: SingleFlight;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly onError: InfraErrorHandler,
    private readonly guard: RedisGuard,
  ) {
    this.flights = new SingleFlight(this, onError);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const raw = await this.guard.run(() => this.client.get(this.redisKey(key)));
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch (error) {
      // A value written by something else under our prefix: treat as a miss
      // so the next `set`/`wrap` repairs it rather than failing every read.
      this.onError(asError(error), 'cache');
      return undefined;
    }
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const ttl = normalizeTtlMs(ttlMs);
    const json = encodeCacheValue(value);
    await this.guard.run(() => this.client.set(this.redisKey(key), json, 'PX', ttl));
  }

  async del(key: string): Promise<void> {
    await this.guard.run(() => this.client.del(this.redisKey(key)));
  }

  wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheWrapResult<T>> {
    return this.flights.wrap(key, ttlMs, load);
  }

  private redisKey(key: string): string {
    return `${this.keyPrefix}cache:${key}`;
  }
}
