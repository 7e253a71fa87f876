/**
 * Cache, pub/sub and rate limiting behind one interface each, backed by Redis
 * when a URL is configured and by in-process implementations otherwise.
 */
export type { Cache, CacheWrapResult } from './cache.types';
export type { PubSub, PubSubIterator, Unsubscribe } from './pubsub.types';
export type { RateLimiter, RateLimitResult } from './rate-limiter.types';
export type { Infra, InfraErrorHandler, InfraErrorSource, InfraOptions } from './infra.types';
export { createInfra } from './infra.factory';
export { MemoryCache, type MemoryCacheOptions } from './memory-cache';
export { MemoryPubSub, type MemoryPubSubOptions } from './memory-pubsub';
export type { PubSubOptions } from './pubsub-support';
export { MemoryRateLimiter, type MemoryRateLimiterOptions } from './memory-rate-limiter';
export { RedisCache } from './redis-cache';
export { RedisPubSub } from './redis-pubsub';
export { RedisRateLimiter, SLIDING_WINDOW_LUA } from './redis-rate-limiter';
export {
  closeRedisClient,
  createRedisClient,
  DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  type RedisClientOptions,
  type RedisConnectionRole,
} from './redis-connection';
export { isRedisOutageError, RedisGuard, RedisUnavailableError } from './redis-guard';
export { DependencyHealth, type AvailabilityChange, type DependencyHealthOptions } from './dependency-health';
export { memoBudget, ReadMemo, type MemoBudget, type ReadMemoOptions } from './read-memo';
export { ByteLru, utf8Bytes } from './byte-lru';
export { PeriodicTask } from './periodic-task';
export {
  createLeaseBackend,
  Leases,
  PostgresLeaseBackend,
  ProcessLeaseBackend,
  RedisLeaseBackend,
  type LeaseBackend,
  type LeaseBackendOptions,
  type LeasedJob,
} from './lease';
