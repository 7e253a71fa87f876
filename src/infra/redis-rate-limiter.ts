import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimiter, RateLimitResult } from './rate-limiter.types';
import { normalizeRateLimitArgs, toRateLimitResult, type RateLimitArgs } from './rate-limit-support';
import { RedisUnavailableError, type RedisGuard } from './redis-guard';

/**
 * Sliding log in one sorted set per key (score = hit time in Redis server ms),
 * checked and updated in a single Lua script so concurrent callers in any
 * number of processes cannot over-admit.
 *
 * The clock is Redis `TIME`, read inside the script: every process then
 * judges the window against one clock, so skewed app servers still agree.
 * Reading TIME before writing is allowed because scripts replicate their
 * effects (default since Redis 5, the only mode since 7); the guarded
 * `replicate_commands()` opts in on 3.2–4.x and is a no-op afterwards.
 *
 * KEYS[1] sorted set; ARGV[1] limit; ARGV[2] window ms; ARGV[3] '1' to count
 * the hit; ARGV[4] member suffix unique per caller, because two hits in the
 * same millisecond would otherwise collapse into one member; ARGV[5] the
 * request's weight: it passes when that many hits are free, and counts as many.
 * Returns { allowed, count, oldest, freeing, now } with -1 for "none".
 */
export const SLIDING_WINDOW_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local weight = tonumber(ARGV[5])
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count + weight <= limit then
  allowed = 1
  if ARGV[3] == '1' then
    for i = 1, weight do
      redis.call('ZADD', KEYS[1], now, string.format('%d-%s-%d', now, ARGV[4], i))
    end
    redis.call('PEXPIRE', KEYS[1], window)
    count = count + weight
  end
end
local oldest = -1
local freeing = -1
if count > 0 then
  oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
  if count + weight > limit then
    local index = count + weight - limit - 1
    freeing = tonumber(redis.call('ZRANGE', KEYS[1], index, index, 'WITHSCORES')[2])
  end
end
return { allowed, count, oldest, freeing, now }
`;

const SCRIPT_SHA = createHash('sha1').update(SLIDING_WINDOW_LUA).digest('hex');

/**
 * Redis-backed sliding-log limiter; see {@link SLIDING_WINDOW_LUA}. While Redis is unavailable
 * (the process's {@link RedisGuard} refuses the call, or it fails on the connection) the same
 * call is answered by `local`, an in-process limiter: each process then enforces each limit on
 * its own, counting from the outage's start, until Redis is back (the outage is logged once).
 */
export class RedisRateLimiter implements RateLimiter {
  /** Distinguishes this instance's members from other processes' within one millisecond. */
  private readonly instanceId = randomBytes(6).toString('hex');
  private sequence = 0;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly guard: RedisGuard,
    private readonly local: RateLimiter,
  ) {}

  async hit(key: string, limit: number, windowMs: number, weight = 1): Promise<RateLimitResult> {
    const args = normalizeRateLimitArgs(key, limit, windowMs, weight);
    try {
      return await this.run(key, args, true);
    } catch (error) {
      if (error instanceof RedisUnavailableError) return this.local.hit(key, limit, windowMs, weight);
      throw error;
    }
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const args = normalizeRateLimitArgs(key, limit, windowMs);
    try {
      return await this.run(key, args, false);
    } catch (error) {
      if (error instanceof RedisUnavailableError) return this.local.peek(key, limit, windowMs);
      throw error;
    }
  }

  private async run(key: string, args: RateLimitArgs, consume: boolean): Promise<RateLimitResult> {
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    const scriptArgs = [
      `${this.keyPrefix}rl:${key}`,
      String(args.limit),
      String(args.windowMs),
      consume ? '1' : '0',
      `${this.instanceId}:${this.sequence}`,
      String(args.weight),
    ];
    const reply = await this.guard.run(() => this.evalScript(scriptArgs));
    const [allowed, count, oldest, freeing, now] = parseReply(reply);
    return toRateLimitResult(
      {
        allowed: allowed === 1,
        count,
        oldest: oldest < 0 ? undefined : oldest,
        freeingHit: freeing < 0 ? undefined : freeing,
        now,
      },
      args,
    );
  }

  /**
   * EVALSHA first so the script body is not resent per hit; a NOSCRIPT reply
   * (first use, or the server restarted and lost its script cache) falls back
   * to EVAL, which also caches the script for the next call.
   */
  private async evalScript(args: string[]): Promise<unknown> {
    try {
      return await this.client.evalsha(SCRIPT_SHA, 1, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return this.client.eval(SLIDING_WINDOW_LUA, 1, ...args);
      }
      throw error;
    }
  }
}

function parseReply(reply: unknown): [number, number, number, number, number] {
  const items: readonly unknown[] = Array.isArray(reply) ? reply : [];
  const numbers = items.filter((item): item is number => typeof item === 'number' && Number.isFinite(item));
  if (items.length !== 5 || numbers.length !== 5) {
    throw new Error(`unexpected rate limiter script reply: ${JSON.stringify(reply)}`);
  }
  const [allowed, count, oldest, freeing, now] = numbers as [number, number, number, number, number];
  return [allowed, count, oldest, freeing, now];
}
