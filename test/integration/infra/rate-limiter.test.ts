import type { Infra, RateLimitResult } from '../../../src/infra';
import { sleep } from '../../support/wait';
import { KINDS, makeInfra } from './infra-test-helpers';

describe.each(KINDS)('rate limiter (%s)', (kind) => {
  let infra: Infra;

  beforeEach(async () => {
    infra = await makeInfra(kind);
  });

  afterEach(async () => {
    await infra.close();
  });

  it('allows exactly `limit` of 20 concurrent hits', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => infra.rateLimiter.hit('burst', 5, 1_000)));
    const allowed = results.filter((r) => r.allowed);
    const refused = results.filter((r) => !r.allowed);
    expect(allowed).toHaveLength(5);
    expect(allowed.map((r) => r.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const r of refused) {
      expect(r).toMatchObject({ limit: 5, remaining: 0 });
      expect(r.retryAfterMs).toBeGreaterThan(0);
      expect(r.retryAfterMs).toBeLessThanOrEqual(1_000);
    }
  });

  it('counts remaining down and reports when the oldest hit frees a slot', async () => {
    const results: RateLimitResult[] = [];
    for (let i = 0; i < 6; i += 1) results.push(await infra.rateLimiter.hit('seq', 5, 10_000));
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    const [first] = results as [RateLimitResult];
    const refused = results[5];
    expect(results.slice(0, 5).every((r) => r.retryAfterMs === 0)).toBe(true);
    // resetAt tracks the oldest counted hit, and the refusal says exactly when it leaves.
    expect(results.every((r) => r.resetAt === first.resetAt)).toBe(true);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(10_000);
  });

  it('peek does not consume quota', async () => {
    const fresh = await infra.rateLimiter.peek('p', 3, 10_000);
    expect(fresh).toMatchObject({ allowed: true, limit: 3, remaining: 3, retryAfterMs: 0 });
    await infra.rateLimiter.peek('p', 3, 10_000);
    await expect(infra.rateLimiter.hit('p', 3, 10_000)).resolves.toMatchObject({ allowed: true, remaining: 2 });
    await expect(infra.rateLimiter.peek('p', 3, 10_000)).resolves.toMatchObject({ allowed: true, remaining: 2 });
    await infra.rateLimiter.hit('p', 3, 10_000);
    await infra.rateLimiter.hit('p', 3, 10_000);
    const exhausted = await infra.rateLimiter.peek('p', 3, 10_000);
    expect(exhausted).toMatchObject({ allowed: false, remaining: 0 });
    expect(exhausted.retryAfterMs).toBeGreaterThan(0);
  });

  it('slides: hits are allowed again once the window has passed', async () => {
    await infra.rateLimiter.hit('slide', 2, 300);
    await infra.rateLimiter.hit('slide', 2, 300);
    const refused = await infra.rateLimiter.hit('slide', 2, 300);
    expect(refused.allowed).toBe(false);
    await sleep(refused.retryAfterMs + 250);
    await expect(infra.rateLimiter.hit('slide', 2, 300)).resolves.toMatchObject({ allowed: true, remaining: 1 });
  });

  it('does not count refused hits', async () => {
    // Allowed hits at ~0 ms; refused hits at ~500 ms. If the refused hits
    // counted, the key would stay blocked until ~2000 ms; checking just after
    // the allowed hits expire (~1500 ms) tells the two apart.
    await infra.rateLimiter.hit('refused', 2, 1_500);
    await infra.rateLimiter.hit('refused', 2, 1_500);
    await sleep(500);
    const refusals = await Promise.all(Array.from({ length: 10 }, () => infra.rateLimiter.hit('refused', 2, 1_500)));
    expect(refusals.every((r) => !r.allowed)).toBe(true);
    const wait = Math.max(...refusals.map((r) => r.retryAfterMs));
    await sleep(wait + 150);
    await expect(infra.rateLimiter.hit('refused', 2, 1_500)).resolves.toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps keys independent', async () => {
    await infra.rateLimiter.hit('a', 1, 10_000);
    await expect(infra.rateLimiter.hit('a', 1, 10_000)).resolves.toMatchObject({ allowed: false });
    await expect(infra.rateLimiter.hit('b', 1, 10_000)).resolves.toMatchObject({ allowed: true, remaining: 0 });
  });

  it('reports resetAt as now + window on an empty key', async () => {
    const before = Date.now();
    const result = await infra.rateLimiter.peek('empty', 5, 60_000);
    const after = Date.now();
    // Same host clock for Redis TIME and Date.now; the slack only absorbs rounding.
    expect(result.resetAt).toBeGreaterThanOrEqual(before + 60_000 - 5);
    expect(result.resetAt).toBeLessThanOrEqual(after + 60_000 + 5);
  });

  it('rejects limits and windows it cannot honour', async () => {
    await expect(infra.rateLimiter.hit('k', 0, 1_000)).rejects.toThrow(RangeError);
    await expect(infra.rateLimiter.hit('k', 1.5, 1_000)).rejects.toThrow(RangeError);
    await expect(infra.rateLimiter.hit('k', 1, 0)).rejects.toThrow(RangeError);
    await expect(infra.rateLimiter.peek('', 1, 1_000)).rejects.toThrow(RangeError);
  });
});
