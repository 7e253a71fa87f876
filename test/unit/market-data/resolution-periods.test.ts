import { namedPeriod, relatePeriods } from '../../../src/modules/comparisons/resolution-periods';

const close = new Date('2027-03-27T00:00:00Z');
const label = (text: string, at: Date | null = close) => namedPeriod([text], at)?.label ?? null;

describe('named periods', () => {
  it('reads months, meetings, days, deadlines, quarters, seasons and edition years', () => {
    expect(label('Will the Fed cut interest rates in March 2027?')).toBe('March 2027');
    expect(label('Fed rate cut at the March 2027 FOMC meeting?')).toBe('March 2027');
    expect(label('Fed decision in March?')).toBe('March 2027');
    expect(label('Knicks vs. Trail Blazers, scheduled for March 12 at 10:00PM ET')).toBe('Mar 12, 2027');
    expect(label('Will Bitcoin reach $150,000 by December 31, 2025?')).toBe('by Dec 31, 2025');
    expect(label('Will Taylor Swift announce a new album before 2027?')).toBe('by Dec 31, 2026');
    expect(label('US GDP growth in Q1 2025?')).toBe('Q1 2025');
    expect(label('Premier League Winner 2026-27')).toBe('2026-27 season');
    expect(label('S&P 500 at the end of December 2026')).toBe('Dec 31, 2026');
    expect(label('Masters Winner 2025')).toBe('2025');
    // "may" the verb, a bare strike and a ticker are no periods.
    expect(label('This market may resolve early. Above 4.25%?')).toBeNull();
  });

  it('relates periods: one deadline a day apart, an edition year and its date, a season and its year', () => {
    const p = (text: string) => namedPeriod([text], close)!;
    expect(relatePeriods(p('by December 31, 2026'), p('before Jan 1, 2027'))).toBe('same');
    expect(relatePeriods(p('by January 31, 2027'), p('before Jan 31, 2027'))).toBe('same');
    expect(relatePeriods(p('in 2026'), p('by Dec 31, 2026'))).toBe('same');
    expect(relatePeriods(p('Masters Winner 2025'), p('On Apr 13, 2025'))).toBe('within');
    expect(relatePeriods(p('Champions League 2026-27'), p('final in 2027'))).toBe('within');
    expect(relatePeriods(p('in March 2027'), p('in May 2027'))).toBe('differ');
    expect(relatePeriods(p('in March 2027'), p('on Mar 31, 2027'))).toBe('differ');
    expect(relatePeriods(p('by Jan 31, 2027'), p('on Jan 31, 2027'))).toBe('differ');
  });
});
