import type { Representation } from './route.types';

/** One CSV column: its header and the field of each row it shows. */
export interface CsvColumn {
  header: string;
  field: string;
}

/** Text a spreadsheet would run as a formula: it starts with =, +, -, @, tab or CR and is not a plain number. */
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * The CSV-injection guard (OWASP), reversibly: a string that a spreadsheet would
 * evaluate as a formula, or that itself starts with an apostrophe, gets one
 * leading apostrophe. Numbers (also negative ones) pass as they are. So
 * {@link unescapeCsvText}, "strip one leading apostrophe", restores every value.
 */
export function escapeCsvText(text: string): string {
  return text.startsWith("'") || (FORMULA.test(text) && !NUMBER.test(text)) ? `'${text}` : text;
}

/** The inverse of {@link escapeCsvText}: strips one leading apostrophe, if any. */
export function unescapeCsvText(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}

/**
 * RFC 4180 quoting: a field with a comma, a double quote, CR or LF is quoted, its
 * quotes doubled. String values pass {@link escapeCsvText} first.
 */
export function csvField(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell's text before quoting: empty for null and undefined, JSON for a nested value. */
function cellText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return escapeCsvText(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return value === null ? '' : JSON.stringify(value);
    default:
      return '';
  }
}

/** RFC 4180 text: a header record, then one record per row, each ended by CRLF. */
export function toCsv(columns: readonly CsvColumn[], rows: readonly Record<string, unknown>[]): string {
  const records = [
    columns.map((c) => csvField(c.header)),
    ...rows.map((r) => columns.map((c) => csvField(r[c.field]))),
  ];
  return records.map((fields) => `${fields.join(',')}\r\n`).join('');
}

/**
 * A CSV representation of a route whose result is a list of objects: one
 * column per entry of `columns` (null and absent fields are empty).
 */
export function csv(columns: readonly CsvColumn[], filename?: string): Representation {
  return {
    contentType: 'text/csv; charset=utf-8; header=present',
    filename,
    render(result) {
      if (!Array.isArray(result)) throw new Error('a CSV representation needs a list result');
      return toCsv(columns, result as Record<string, unknown>[]);
    },
  };
}
