import { MemoryRateLimiter } from '../../../src/infra';

describe('MemoryRateLimiter (fake clock)', () => {
  let now: number;
  let limiter: MemoryRateLimiter;

  beforeEach(() => {
    now = 1_000_000;
    limiter = new MemoryRateLimiter({ now: () => now });
  });

  afterEach(() => limiter.close());

  it('counts a hit while now - hit < window, exactly', async () => {
    await limiter.hit('k', 1, 1_000);
    now += 999;
    await expect(limiter.hit('k', 1, 1_000)).resolves.toMatchObject({ allowed: false, retryAfterMs: 1 });
    now += 1;
    await expect(limiter.hit('k', 1, 1_000)).resolves.toMatchObject({ allowed: true, remaining: 0 });
  });

  it('reports resetAt from the oldest counted hit and retryAfter to the exact millisecond', async () => {
    await expect(limiter.peek('k', 3, 1_000)).resolves.toEqual({
      allowed: true,
      limit: 3,
      remaining: 3,
      resetAt: 1_001_000,
      retryAfterMs: 0,
    });
    await limiter.hit('k', 3, 1_000); // t=0
    now += 100;
    await limiter.hit('k', 3, 1_000); // t=100
    now += 100;
    await expect(limiter.hit('k', 3, 1_000)).resolves.toEqual({
      allowed: true,
      limit: 3,
      remaining: 0,
      resetAt: 1_001_000,
      retryAfterMs: 0,
    });
    now += 300; // t=500
    await expect(limiter.hit('k', 3, 1_000)).resolves.toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetAt: 1_001_000,
      retryAfterMs: 500,
    });
    now += 500; // t=1000: the first hit left, one slot free
    await expect(limiter.peek('k', 3, 1_000)).resolves.toEqual({
      allowed: true,
      limit: 3,
      remaining: 1,
      resetAt: 1_001_100,
      retryAfterMs: 0,
    });
  });

  it('does not count refused hits', async () => {
    await limiter.hit('k', 2, 1_000); // t=0
    await limiter.hit('k', 2, 1_000);
    now += 500;
    for (let i = 0; i < 10; i += 1) await limiter.hit('k', 2, 1_000); // refused at t=500
    now += 500; // t=1000: only the allowed hits could have expired
    await expect(limiter.hit('k', 2, 1_000)).resolves.toMatchObject({ allowed: true, remaining: 1 });
    await expect(limiter.hit('k', 2, 1_000)).resolves.toMatchObject({ allowed: true, remaining: 0 });
  });

  it('peek never consumes and never creates state', async () => {
    for (let i = 0; i < 5; i += 1) await limiter.peek('k', 1, 1_000);
    expect(limiter.trackedKeys).toBe(0);
    await expect(limiter.hit('k', 1, 1_000)).resolves.toMatchObject({ allowed: true });
  });

  it('computes retryAfter from the hit that actually frees a slot when the limit shrinks', async () => {
    for (let i = 0; i < 4; i += 1) {
      await limiter.hit('k', 10, 1_000); // t=0,100,200,300
      now += 100;
    }
    // now t=400; 4 hits counted, new limit 2: a slot frees when the 3rd-newest (t=200) leaves.
    const result = await limiter.hit('k', 2, 1_000);
    expect(result).toMatchObject({ allowed: false, remaining: 0, resetAt: 1_001_000 });
    expect(result.retryAfterMs).toBe(800);
  });

  it('keeps hits ordered if the clock steps backwards', async () => {
    await limiter.hit('k', 3, 1_000); // t=0
    now -= 50;
    await limiter.hit('k', 3, 1_000); // t=-50
    now += 1_000; // t=950: the t=-50 hit left, the t=0 hit has not
    await expect(limiter.peek('k', 3, 1_000)).resolves.toMatchObject({ remaining: 2, resetAt: 1_001_000 });
  });

  it('forgets idle keys on cleanup', async () => {
    await limiter.hit('a', 5, 1_000);
    await limiter.hit('b', 5, 5_000);
    expect(limiter.trackedKeys).toBe(2);
    now += 2_000;
    limiter.cleanup();
    expect(limiter.trackedKeys).toBe(1);
    now += 5_000;
    limiter.cleanup();
    expect(limiter.trackedKeys).toBe(0);
  });
});
