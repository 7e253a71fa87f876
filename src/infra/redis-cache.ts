import type { Redis } from 'ioredis';
import type { Cache, CacheWrapResult } from './cache.types';
import { asError, encodeCacheValue, normalizeTtlMs, SingleFlight } from './cache-support';
import type { InfraErrorHandler } from './infra.types';

/**
 * Redis-backed cache: one string key per entry holding JSON, expiring via PX.
 * Single-flight in `wrap` is per process; across processes concurrent misses
 * may each load once, which is the usual trade-off versus a distributed lock.
 */
export class RedisCache implements Cache {
  private readonly flights: SingleFlight;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly onError: InfraErrorHandler,
  ) {
    this.flights = new SingleFlight(this, onError);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const raw = await this.client.get(this.redisKey(key));
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
    await this.client.set(this.redisKey(key), encodeCacheValue(value), 'PX', ttl);
  }

  async del(key: string): Promise<void> {
    await this.client.del(this.redisKey(key));
  }

  wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheWrapResult<T>> {
    return this.flights.wrap(key, ttlMs, load);
  }

  private redisKey(key: string): string {
    return `${this.keyPrefix}cache:${key}`;
  }
}
