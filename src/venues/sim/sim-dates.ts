/**
 * Calendar helpers for catalog wording. All dates are UTC; venues word the same
 * day differently ("December 31, 2026" vs "Dec 31" vs ticker code "26DEC31").
 */

const MONTHS = [
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
] as const;

/** A UTC date at the given wall-clock time. Month is 0-based as in `Date`. */
export function utc(year: number, month: number, day: number, hour = 0, minute = 0): Date {
  return new Date(Date.UTC(year, month, day, hour, minute));
}

/** Midnight UTC on the first day of the month containing `ms`. */
export function monthStart(ms: number): Date {
  const d = new Date(ms);
  return utc(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

/** Last day of the month `offset` months after `d`'s month, at `hour`:00 UTC. */
export function endOfMonth(d: Date, offset: number, hour = 23, minute = 59): Date {
  return utc(d.getUTCFullYear(), d.getUTCMonth() + offset + 1, 0, hour, minute);
}

/** The `nth` (1-based; -1 = last) given weekday (0 = Sunday) of a month. */
export function nthWeekday(year: number, month: number, weekday: number, nth: number, hour = 0): Date {
  if (nth > 0) {
    const first = utc(year, month, 1).getUTCDay();
    return utc(year, month, 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7, hour);
  }
  const lastDay = utc(year, month + 1, 0);
  const back = (lastDay.getUTCDay() - weekday + 7) % 7;
  return utc(year, month, lastDay.getUTCDate() - back, hour);
}

/** US general election day: the Tuesday after the first Monday of November. */
export function electionDay(year: number): Date {
  const firstMonday = nthWeekday(year, 10, 1, 1);
  return addDays(firstMonday, 1);
}

export function monthName(d: Date): string {
  return MONTHS[d.getUTCMonth()] ?? 'January';
}

export function monthShort(d: Date): string {
  return monthName(d).slice(0, 3);
}

/** "December 31, 2026" */
export function longDate(d: Date): string {
  return `${monthName(d)} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** "December 31" */
export function monthDay(d: Date): string {
  return `${monthName(d)} ${d.getUTCDate()}`;
}

/** "Dec 31" */
export function shortDate(d: Date): string {
  return `${monthShort(d)} ${d.getUTCDate()}`;
}

/** "Dec 31, 2026" */
export function shortDateYear(d: Date): string {
  return `${shortDate(d)}, ${d.getUTCFullYear()}`;
}

/** "December 2026" */
export function monthYear(d: Date): string {
  return `${monthName(d)} ${d.getUTCFullYear()}`;
}

/** ISO calendar date "2026-12-31", for canonical keys. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Ticker date code "26DEC31". */
export function tickerDate(d: Date): string {
  const yy = String(d.getUTCFullYear() % 100).padStart(2, '0');
  return `${yy}${monthShort(d).toUpperCase()}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Ticker month code "26DEC". */
export function tickerMonth(d: Date): string {
  return tickerDate(d).slice(0, 5);
}

/** Two-digit year code "27". */
export function tickerYear(year: number): string {
  return String(year % 100).padStart(2, '0');
}
