import { bucketize, bucketStart, normalizeHistory, type CandleRow } from '../../../src/modules/charts';

describe('bucketStart', () => {
  it('truncates to multiples of the interval since the epoch', () => {
    const t = Date.UTC(2026, 10, 15, 12, 7, 30) / 1000;
    expect(bucketStart(t, '1m')).toBe(Date.UTC(2026, 10, 15, 12, 7) / 1000);
    expect(bucketStart(t, '5m')).toBe(Date.UTC(2026, 10, 15, 12, 5) / 1000);
    expect(bucketStart(t, '1h')).toBe(Date.UTC(2026, 10, 15, 12) / 1000);
    expect(bucketStart(t, '1d')).toBe(Date.UTC(2026, 10, 15) / 1000);
    // Weekly buckets start on Thursdays 00:00 UTC (the epoch was a Thursday), as the venues bucket.
    const week = bucketStart(t, '1w');
    expect(new Date(week * 1000).getUTCDay()).toBe(4);
    expect(week).toBe(Date.UTC(2026, 10, 12) / 1000);
  });

  it('keeps a bucket start where it is', () => {
    expect(bucketStart(3600 * 5, '1h')).toBe(3600 * 5);
    expect(bucketStart(3600 * 5 - 1, '1h')).toBe(3600 * 4);
  });
});

describe('bucketize', () => {
  it('snaps rows and merges those sharing a bucket: first open, last close, extreme high/low, summed volume', () => {
    const rows: CandleRow[] = [
      { t: 3720, o: 0.52, h: 0.6, l: 0.5, c: 0.55, v: 10 },
      { t: 3605, o: 0.5, h: 0.51, l: 0.45, c: 0.5, v: 5 },
      { t: 7300, o: 0.6, h: 0.6, l: 0.6, c: 0.6, v: 1 },
    ];
    expect(bucketize(rows, '1h')).toEqual([
      { t: 3600, o: 0.5, h: 0.6, l: 0.45, c: 0.55, v: 15 },
      { t: 7200, o: 0.6, h: 0.6, l: 0.6, c: 0.6, v: 1 },
    ]);
  });

  it('keeps volume null only when every merged row lacks it', () => {
    expect(
      bucketize(
        [
          { t: 60, o: 1, h: 1, l: 1, c: 1, v: null },
          { t: 90, o: 1, h: 1, l: 1, c: 1, v: null },
        ],
        '1m',
      )[0].v,
    ).toBeNull();
    expect(
      bucketize(
        [
          { t: 60, o: 1, h: 1, l: 1, c: 1, v: null },
          { t: 90, o: 1, h: 1, l: 1, c: 1, v: 2 },
        ],
        '1m',
      )[0].v,
    ).toBe(2);
  });
});

describe('normalizeHistory', () => {
  it('turns venue_a points into rows with o = h = l = c and no volume', () => {
    const n = normalizeHistory(
      {
        kind: 'points',
        points: [
          { t: 120, p: 0.4 },
          { t: 60, p: 0.3 },
        ],
      },
      '1m',
    );
    expect(n).toEqual({
      kind: 'points',
      candles: [
        { t: 60, o: 0.3, h: 0.3, l: 0.3, c: 0.3, v: null },
        { t: 120, o: 0.4, h: 0.4, l: 0.4, c: 0.4, v: null },
      ],
    });
  });

  it('keeps venue_b OHLCV as it is, snapped', () => {
    const n = normalizeHistory({ kind: 'ohlcv', candles: [{ t: 301, o: 0.1, h: 0.3, l: 0.1, c: 0.2, v: 7 }] }, '5m');
    expect(n).toEqual({ kind: 'ohlcv', candles: [{ t: 300, o: 0.1, h: 0.3, l: 0.1, c: 0.2, v: 7 }] });
  });
});
