import type { Redis } from 'ioredis';
import type { Cache } from './cache.types';
import { DependencyHealth } from './dependency-health';
import type { Infra, InfraErrorHandler, InfraOptions } from './infra.types';
import { MemoryCache } from './memory-cache';
import { MemoryPubSub } from './memory-pubsub';
import type { PubSubOptions } from './pubsub-support';
import { MemoryRateLimiter } from './memory-rate-limiter';
import type { PubSub } from './pubsub.types';
import type { RateLimiter } from './rate-limiter.types';
import { RedisCache } from './redis-cache';
import { closeRedisClient, createRedisClient } from './redis-connection';
import { RedisGuard } from './redis-guard';
import { RedisPubSub } from './redis-pubsub';
import { RedisRateLimiter } from './redis-rate-limiter';

const DEFAULT_ITERATOR_BUFFER = 1_000;
const DEFAULT_MEMORY_CACHE_ENTRIES = 10_000;
const PING_TIMEOUT_MS = 2_000;

/**
 * Builds the infra bundle: Redis-backed when `redisUrl` is set, in-process
 * otherwise. With Redis, both connections are established before this
 * resolves, so a wrong URL or an unreachable server fails start-up with the
 * connection error instead of surfacing later on the first request. After
 * that, Redis becoming unreachable costs the callers no wait: the cache,
 * rate limiter and pub/sub share one {@link RedisGuard} and fall back
 * (redis-guard.ts), and the outage is reported to `redisHealth` once.
 */
export async function createInfra(opts: InfraOptions): Promise<Infra> {
  const onError: InfraErrorHandler = opts.onError ?? (() => undefined);
  const pubsubOptions: PubSubOptions = {
    onError,
    onDeliveryLag: opts.onDeliveryLag,
    onIteratorDrop: opts.onIteratorDrop,
    iteratorBufferSize: positiveInt(opts.iteratorBufferSize ?? DEFAULT_ITERATOR_BUFFER, 'iteratorBufferSize'),
  };
  if (opts.redisUrl) return createRedisInfra(opts.redisUrl, opts, pubsubOptions);
  return new MemoryInfra(opts, pubsubOptions);
}

async function createRedisInfra(url: string, opts: InfraOptions, pubsubOptions: PubSubOptions): Promise<Infra> {
  // Connection errors before start-up completes go to onError; after it, they are the guard's (an outage).
  const started: { guard?: RedisGuard } = {};
  const onConnectionError: InfraErrorHandler = (error, source) =>
    started.guard ? started.guard.connectionFailed(error) : pubsubOptions.onError(error, source);
  const command = createRedisClient(url, 'command', onConnectionError, { commandTimeoutMs: opts.commandTimeoutMs });
  const subscriber = createRedisClient(url, 'subscriber', onConnectionError);
  try {
    await Promise.all([command.connect(), subscriber.connect()]);
  } catch (error) {
    await Promise.all([closeRedisClient(command), closeRedisClient(subscriber)]);
    throw error;
  }
  const health = opts.redisHealth ?? new DependencyHealth('redis', { onChange: () => undefined });
  started.guard = new RedisGuard(command, subscriber, { health });
  return new RedisInfra(command, subscriber, started.guard, opts.keyPrefix ?? '', pubsubOptions);
}

class RedisInfra implements Infra {
  readonly kind = 'redis';
  readonly cache: Cache;
  readonly pubsub: PubSub;
  readonly rateLimiter: RateLimiter;
  /** Answers rate limits while Redis is unavailable. */
  private readonly localLimits = new MemoryRateLimiter({ now: Date.now });
  private closing: Promise<void> | undefined;

  constructor(
    private readonly command: Redis,
    private readonly subscriber: Redis,
    private readonly guard: RedisGuard,
    keyPrefix: string,
    pubsubOptions: PubSubOptions,
  ) {
    this.cache = new RedisCache(command, keyPrefix, pubsubOptions.onError, guard);
    this.pubsub = new RedisPubSub(command, subscriber, keyPrefix, pubsubOptions, guard);
    this.rateLimiter = new RedisRateLimiter(command, keyPrefix, guard, this.localLimits);
  }

  async ping(): Promise<boolean> {
    if (this.closing || this.subscriber.status !== 'ready') return false;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    try {
      const answered = this.command.ping().then(
        (reply) => reply === 'PONG',
        () => false,
      );
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // Closing connections is not an outage.
      this.guard.close();
      // Subscriber first: ending iterators may still unsubscribe, and the
      // command connection must outlive any in-flight publish.
      await this.pubsub.close();
      await closeRedisClient(this.command);
      this.localLimits.close();
    })();
    return this.closing;
  }
}

class MemoryInfra implements Infra {
  readonly kind = 'memory';
  readonly cache: MemoryCache;
  readonly pubsub: MemoryPubSub;
  readonly rateLimiter: MemoryRateLimiter;
  private closed = false;

  constructor(opts: InfraOptions, pubsubOptions: PubSubOptions) {
    const now = opts.now ?? Date.now;
    this.cache = new MemoryCache({
      maxEntries: positiveInt(opts.memoryCacheMaxEntries ?? DEFAULT_MEMORY_CACHE_ENTRIES, 'memoryCacheMaxEntries'),
      now,
      onError: pubsubOptions.onError,
    });
    this.pubsub = new MemoryPubSub({ ...pubsubOptions, now });
    this.rateLimiter = new MemoryRateLimiter({ now });
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pubsub.close();
    this.cache.close();
    this.rateLimiter.close();
  }
}

function positiveInt(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  return value;
}
