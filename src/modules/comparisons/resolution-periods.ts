/**
 * The period a market question names ("in March 2027", "at the March 2027 FOMC meeting", "by Dec
 * 31", "before 2027", "on Jan 5", "Q1 2025", "2026"), read from a venue's own wording, and how two
 * named periods relate. Dates are UTC calendar days; a year the wording leaves out is the one
 * nearest the venue's close time. Pure and deterministic.
 */

const DAY_MS = 86_400_000;

export type PeriodKind = 'day' | 'month' | 'quarter' | 'season' | 'year' | 'deadline';

/** A named period: the calendar days it covers, first and last (UTC midnights, ms). */
export interface Period {
  kind: PeriodKind;
  /** First day covered; a deadline covers everything up to its last day. */
  start: number;
  /** Last day covered (inclusive). */
  end: number;
  /** How it reads in a reason: "March 2027", "Dec 31, 2026", "by Dec 31, 2026", "Q1 2025", "2026". */
  label: string;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Capitalized month names and abbreviations ("May" the verb is lower case mid-sentence). */
const MONTH =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|' +
  'Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![a-z])\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?(?!\\d)';
const YEAR = '((?:19|20)\\d{2})(?![\\d-])';

interface Found {
  at: number;
  length: number;
  period: (yearOf: YearResolver) => Period | null;
}

/** The year of a date the wording gave without one. */
type YearResolver = (month: number, day: number) => number;

function monthIndex(name: string): number {
  return MONTH_NAMES.indexOf(name.slice(0, 3));
}

function utcDay(y: number, m: number, d: number): number {
  return Date.UTC(y, m, d);
}

function lastDayOfMonth(y: number, m: number): number {
  return utcDay(y, m + 1, 0);
}

function dayLabel(t: number): string {
  const d = new Date(t);
  return `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

function dayPeriod(y: number, m: number, d: number): Period {
  const t = utcDay(y, m, d);
  return { kind: 'day', start: t, end: t, label: dayLabel(t) };
}

function monthPeriod(y: number, m: number): Period {
  return { kind: 'month', start: utcDay(y, m, 1), end: lastDayOfMonth(y, m), label: `${LONG_MONTHS[m]} ${y}` };
}

function yearPeriod(y: number): Period {
  return { kind: 'year', start: utcDay(y, 0, 1), end: utcDay(y, 11, 31), label: String(y) };
}

function deadline(lastDay: number): Period {
  return { kind: 'deadline', start: -Infinity, end: lastDay, label: `by ${dayLabel(lastDay)}` };
}

/** Every period mention in a text, leftmost first. */
function mentions(text: string): Found[] {
  const out: Found[] = [];
  const scan = (re: RegExp, make: (m: RegExpExecArray) => Found['period'] | null) => {
    for (const m of text.matchAll(re)) {
      const period = make(m);
      if (period) out.push({ at: m.index ?? 0, length: m[0].length, period });
    }
  };
  // "by Dec 31, 2026", "before Jan 1, 2027", "by the end of March 2027", "before 2027", "by end of 2026".
  scan(
    new RegExp(
      `\\b(by|before|prior to|no later than)\\s+(?:the\\s+)?(?:end\\s+of\\s+)?` +
        `(?:${MONTH}\\s+${DAY}(?:,?\\s+${YEAR})?|${MONTH}(?:,?\\s+${YEAR})?|${YEAR})`,
      'gi',
    ),
    (m) => {
      const before = /^(before|prior to)$/i.test(m[1]);
      const endOf = /end\s+of/i.test(m[0]);
      if (m[2] && m[3]) {
        const mon = monthIndex(cap(m[2]));
        const day = Number(m[3]);
        return (yearOf) => {
          const y = m[4] ? Number(m[4]) : yearOf(mon, day);
          const t = utcDay(y, mon, day);
          return deadline(before ? t - DAY_MS : t);
        };
      }
      if (m[5]) {
        if (!/^[A-Z]/.test(m[5])) return null;
        const mon = monthIndex(m[5]);
        return (yearOf) => {
          const y = m[6] ? Number(m[6]) : yearOf(mon, 15);
          return deadline(before && !endOf ? utcDay(y, mon, 1) - DAY_MS : lastDayOfMonth(y, mon));
        };
      }
      const y = Number(m[7]);
      return () => deadline(before && !endOf ? utcDay(y, 0, 1) - DAY_MS : utcDay(y, 11, 31));
    },
  );
  // "at the end of December 2026", "end of March": its last day.
  scan(
    new RegExp(`(?<!by\\s+(?:the\\s+)?)\\bend\\s+of\\s+(?:the\\s+)?${MONTH}(?:,?\\s+${YEAR})?(?!\\s*\\d{1,2}\\b)`, 'g'),
    (m) => {
      const mon = monthIndex(m[1]);
      return (yearOf) => {
        const y = m[2] ? Number(m[2]) : yearOf(mon, 28);
        const t = lastDayOfMonth(y, mon);
        return { kind: 'day', start: t, end: t, label: dayLabel(t) };
      };
    },
  );
  // A sports season: "2026-27", "2026/27".
  scan(/(?<![\d-])((?:19|20)\d{2})[-/](\d{2})(?![\d-])/g, (m) => {
    const y = Number(m[1]);
    if ((y + 1) % 100 !== Number(m[2])) return null;
    return () => ({ kind: 'season', start: utcDay(y, 6, 1), end: utcDay(y + 1, 5, 30), label: `${y}-${m[2]} season` });
  });
  // "Dec 1, 2026", "January 5", "Mar 18th".
  scan(new RegExp(`\\b${MONTH}\\s+${DAY}(?:,?\\s+${YEAR})?`, 'g'), (m) => {
    const mon = monthIndex(m[1]);
    const day = Number(m[2]);
    if (day < 1 || day > 31) return null;
    return (yearOf) => dayPeriod(m[3] ? Number(m[3]) : yearOf(mon, day), mon, day);
  });
  // "March 2027", "in March", "the Dec meeting", "after the January meeting".
  scan(
    new RegExp(
      `(\\b(?:in|during|for|after|of|at)\\s+(?:the\\s+)?)?\\b${MONTH}(?:,?\\s+${YEAR})?(?!\\s*\\d)` +
        `(\\s+(?:FOMC\\s+)?meeting)?`,
      'g',
    ),
    (m) => {
      if (!m[1] && !m[3] && !m[4]) return null;
      const mon = monthIndex(m[2]);
      return (yearOf) => monthPeriod(m[3] ? Number(m[3]) : yearOf(mon, 15), mon);
    },
  );
  // "Q1 2025", "first quarter of 2025".
  scan(/\bQ([1-4])\s*(?:of\s+)?((?:19|20)\d{2})\b/g, (m) => quarter(Number(m[1]), Number(m[2])));
  scan(/\b(first|second|third|fourth)\s+quarter\s+(?:of\s+)?((?:19|20)\d{2})\b/gi, (m) =>
    quarter(['first', 'second', 'third', 'fourth'].indexOf(m[1].toLowerCase()) + 1, Number(m[2])),
  );
  // "in 2027", "during 2026".
  scan(/\b(?:in|during|for|throughout)\s+((?:19|20)\d{2})(?![\d-])/gi, (m) => {
    const y = Number(m[1]);
    return () => yearPeriod(y);
  });
  return out.sort((x, y) => x.at - y.at || y.length - x.length);
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

function quarter(q: number, y: number): Found['period'] {
  return () => ({
    kind: 'quarter',
    start: utcDay(y, (q - 1) * 3, 1),
    end: lastDayOfMonth(y, q * 3 - 1),
    label: `Q${q} ${y}`,
  });
}

/** A bare edition year ("2026 Ballon d'Or", "Presidential Election Winner 2028"), not a season ("2025-26"). */
function bareYear(text: string): Period | null {
  const m = /(?<![\d-])((?:19|20)\d{2})(?![\d-])/.exec(text);
  return m ? yearPeriod(Number(m[1])) : null;
}

/**
 * The year nearest `close` for a date given without one. Without a close time every yearless date
 * gets one fixed year, so two such dates still compare by month and day.
 */
export function yearNear(close: Date | null): YearResolver {
  return (month, day) => {
    if (!close) return 1970;
    const cy = close.getUTCFullYear();
    let best = cy;
    for (const y of [cy - 1, cy, cy + 1]) {
      if (Math.abs(utcDay(y, month, day) - close.getTime()) < Math.abs(utcDay(best, month, day) - close.getTime()))
        best = y;
    }
    return best;
  };
}

/**
 * The period the first of `texts` that names one names: its leftmost mention (a deadline, a day,
 * a month, a quarter, a season, a year), else its bare edition year. Null when no text names one.
 */
export function namedPeriod(texts: readonly string[], close: Date | null): Period | null {
  const yearOf = yearNear(close);
  for (const text of texts) {
    for (const f of mentions(text)) {
      const p = f.period(yearOf);
      if (p) return p;
    }
    const p = bareYear(text);
    if (p) return p;
  }
  return null;
}

/** How two named periods relate: the same, one inside the other (an edition year and its date), or different. */
export function relatePeriods(a: Period, b: Period): 'same' | 'within' | 'differ' {
  // A year and a deadline compare by their last day: "in 2026" reads as "by Dec 31, 2026".
  const byLastDay = (p: Period) => p.kind === 'year' || p.kind === 'deadline';
  if (byLastDay(a) && byLastDay(b)) return Math.abs(a.end - b.end) <= DAY_MS ? 'same' : 'differ';
  if (a.kind === b.kind) return a.start === b.start && a.end === b.end ? 'same' : 'differ';
  // A season is decided in its second year: "2026-27" and "in 2027" name one championship.
  const season = a.kind === 'season' ? a : b.kind === 'season' ? b : null;
  const yearly = a.kind === 'year' ? a : b.kind === 'year' ? b : null;
  if (season && yearly)
    return new Date(season.end).getUTCFullYear() === new Date(yearly.end).getUTCFullYear() ? 'within' : 'differ';
  const [year, other] = a.kind === 'year' ? [a, b] : b.kind === 'year' ? [b, a] : [null, null];
  if (year && other && other.kind !== 'deadline' && other.start >= year.start && other.end <= year.end) return 'within';
  return 'differ';
}

/** Whether a moment falls in a period, the period's last day counted whole and `graceMs` after it. */
export function inPeriod(t: number, p: Period, graceMs: number): boolean {
  return t >= p.start && t < p.end + DAY_MS + graceMs;
}
