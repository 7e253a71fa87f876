import { memoBudget, ReadMemo } from '../../../src/infra/read-memo';

/** A cached answer of `bytes` bytes, as the REST adapter keeps one. */
const answer = (bytes: number) => ({ body: Buffer.alloc(bytes, 'x') });
const weigh = (a: unknown) => (a as { body: Buffer }).body.length;

describe('ReadMemo bounded by a byte budget', () => {
  it('many distinct large answers keep the bytes under the bound, least recently read out first', async () => {
    const budget = memoBudget(1_000_000);
    const memo = new ReadMemo(60_000, { budget, weigh });
    let loads = 0;
    const load = (bytes: number) => () => {
      loads += 1;
      return Promise.resolve(answer(bytes));
    };
    // 200 answers of 150 KB (30 MB): far under the 5,000 entries, far over the byte bound.
    for (let i = 0; i < 200; i += 1) {
      await memo.get(`page:${i}`, load(150_000));
      expect(budget.bytes).toBeLessThanOrEqual(1_000_000);
    }
    expect(memo.size).toBe(6); // 6 × (150,000 + key) fit in 1,000,000; 7 do not
    expect(budget.bytes).toBe([194, 195, 196, 197, 198, 199].reduce((n, i) => n + 150_000 + `page:${i}`.length, 0));

    // A hit refreshes: page:194 survives the next insertion, page:195 (now the oldest) does not.
    loads = 0;
    await memo.get('page:194', load(150_000));
    expect(loads).toBe(0);
    await memo.get('page:200', load(150_000));
    await memo.get('page:194', load(150_000));
    expect(loads).toBe(1);
    await memo.get('page:195', load(150_000));
    expect(loads).toBe(2);
  });

  it('memos sharing a budget evict each other; invalidate gives the bytes back', async () => {
    const budget = memoBudget(100_000);
    const a = new ReadMemo(60_000, { budget, weigh });
    const b = new ReadMemo(60_000, { budget, weigh });
    const first = await a.get('k', () => Promise.resolve(answer(60_000)));
    expect(a.peek('k')).toBe(first);
    await b.get('k', () => Promise.resolve(answer(60_000)));
    expect(a.peek('k')).toBeUndefined(); // evicted by b's entry
    expect(a.size).toBe(0);
    expect(b.size).toBe(1);
    expect(budget.bytes).toBe(60_001);
    b.invalidate();
    expect(budget.bytes).toBe(0);
    expect(budget.size).toBe(0);
  });

  it('an answer heavier than the whole budget is served but not kept', async () => {
    const budget = memoBudget(50_000);
    const memo = new ReadMemo(60_000, { budget, weigh });
    await memo.get('small', () => Promise.resolve(answer(10_000)));
    const big = await memo.get('big', () => Promise.resolve(answer(80_000)));
    expect(big.body.length).toBe(80_000);
    expect(memo.peek('big')).toBeUndefined();
    expect(memo.size).toBe(1);
    expect(budget.bytes).toBe(10_005);
    let loads = 0;
    await memo.get('big', () => {
      loads += 1;
      return Promise.resolve(answer(80_000));
    });
    expect(loads).toBe(1);
  });

  it('a pending read weighs its key, shares its load, and is weighed when it resolves', async () => {
    const budget = memoBudget(1_000_000);
    const memo = new ReadMemo(60_000, { budget, weigh });
    let resolve!: (v: { body: Buffer }) => void;
    let loads = 0;
    const load = () => {
      loads += 1;
      return new Promise<{ body: Buffer }>((r) => (resolve = r));
    };
    const one = memo.get('pending', load);
    const two = memo.get('pending', load);
    expect(loads).toBe(1);
    expect(budget.bytes).toBe('pending'.length);
    resolve(answer(1_000));
    await Promise.all([one, two]);
    expect(budget.bytes).toBe(1_000 + 'pending'.length);
  });

  it('peek sees only a resolved read still kept; reweigh counts what a kept value grew by', async () => {
    const budget = memoBudget(10_000);
    let t = 0;
    const memo = new ReadMemo(1_000, { budget, weigh, now: () => t });
    let resolve!: (v: { body: Buffer }) => void;
    const pending = memo.get('grows', () => new Promise<{ body: Buffer }>((r) => (resolve = r)));
    expect(memo.peek('grows')).toBeUndefined();
    resolve(answer(1_000));
    const value = await pending;
    expect(memo.peek('grows')).toBe(value);
    expect(budget.bytes).toBe(1_000 + 'grows'.length);
    value.body = Buffer.alloc(4_000);
    memo.reweigh('grows');
    expect(budget.bytes).toBe(4_000 + 'grows'.length);
    // Grown past the whole budget: dropped.
    value.body = Buffer.alloc(20_000);
    memo.reweigh('grows');
    expect(memo.peek('grows')).toBeUndefined();
    expect(budget.bytes).toBe(0);
    // Expired: not seen.
    await memo.get('old', () => Promise.resolve(answer(10)));
    t = 1_000;
    expect(memo.peek('old')).toBeUndefined();
  });

  it('without a budget it stays bounded by entries alone, as before', async () => {
    const memo = new ReadMemo(60_000, { maxEntries: 3 });
    for (let i = 0; i < 5; i += 1) await memo.get(`k${i}`, () => Promise.resolve(answer(100_000)));
    expect(memo.size).toBe(3);
    expect(() => new ReadMemo(1, { budget: memoBudget(10) })).toThrow(/weigh/);
  });
});
