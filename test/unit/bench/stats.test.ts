import { median, percentile } from '../../bench/stats';

describe("the benchmarks' statistics", () => {
  it('takes the median of any order: the middle one, or the mean of the middle two', () => {
    expect(median([0.58, 0.51, 0.66])).toBe(0.58);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBe(0);
  });

  it('takes the nearest-rank percentile of sorted values', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([], 99)).toBe(0);
  });
});
