/**
 * Cache contract shared by the Redis and in-process implementations. Values
 * travel as JSON in both, so a value read back is a copy with JSON semantics
 * (a `Date` comes back as an ISO string) wherever the cache lives.
 */

/** Result of {@link Cache.wrap}: the value, and whether it came from the cache. */
export interface CacheWrapResult<T> {
  value: T;
  /**
   * `true` when the value was read from the cache. Callers that joined an
   * in-flight `wrap` share the leader's answer: `false` if `load` ran.
   */
  hit: boolean;
}

/** Key/value cache with per-entry TTL. */
export interface Cache {
  /** Returns the cached value, or `undefined` on a miss or after expiry. */
  get<T>(key: string): Promise<T | undefined>;
  /**
   * Stores `value` (must be JSON-serialisable and not `undefined`) for `ttlMs`
   * milliseconds; throws `RangeError` for a non-positive TTL.
   */
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  /** Removes `key`; a missing key is not an error. */
  del(key: string): Promise<void>;
  /**
   * Read-through with single-flight per key inside this process: concurrent
   * misses call `load` once. A rejected load is not cached, and an `undefined`
   * result is returned but not stored. Cache read/write failures degrade to a
   * miss (reported through `onError`) so a cache outage does not fail callers.
   */
  wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheWrapResult<T>>;
}
