/**
 * Bounds on JSON that code must check before it walks a value: how deep a JSON
 * text nests (checked on the text, before `JSON.parse` builds it), and a
 * length-bounded serialisation for memo keys. Both are loops over an explicit
 * position or stack, never recursion, so no input can exhaust the call stack.
 *
 * Hand-written: no maintained package bounds nesting before parsing (the JSON
 * parsers that take a depth option parse first, or recurse themselves), and the
 * key serialiser must stop at its length bound instead of serialising a bulk
 * input whole to find out it is too long.
 */

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }

/**
 * Whether a JSON text nests arrays and objects more than `max` levels deep
 * (the outermost value is level 1: `{}` is 1 deep, `{"a":[1]}` 2). Brackets
 * inside strings do not count (escapes are honoured). One pass over the text,
 * O(n). On text that is not JSON the answer is only meaningful for its valid
 * prefix; the parser refuses the rest.
 */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && depth > 0) {
      depth -= 1;
    }
  }
  return false;
}

/** What a value refused for its nesting is told (after the name of the field): it names the setting. */
export function nestingProblem(max: number): string {
  return `nested deeper than ${max} levels (JSON_MAX_DEPTH)`;
}

type Frame = { items: readonly unknown[]; next: number } | { entries: [string, unknown][]; next: number };

/** A JSON scalar as `JSON.stringify` writes it (anything that is not JSON data is `null`, as in an array). */
function scalarText(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return 'null';
}

/**
 * `JSON.stringify(value)` for JSON data (plain objects, arrays, strings,
 * numbers, booleans, null; object members whose value is undefined are left
 * out, as `JSON.stringify` does), or undefined as soon as the text would pass
 * `maxLength` characters. Iterative: the nesting of `value` cannot overflow
 * the stack, and a bulk value costs only the bound.
 */
export function boundedJsonText(value: unknown, maxLength: number): string | undefined {
  let out = '';
  const stack: Frame[] = [];
  let pending: { value: unknown } | undefined = { value };
  for (;;) {
    if (pending !== undefined) {
      const v = pending.value;
      pending = undefined;
      if (Array.isArray(v)) {
        out += '[';
        stack.push({ items: v, next: 0 });
      } else if (v !== null && typeof v === 'object') {
        out += '{';
        const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
        stack.push({ entries, next: 0 });
      } else {
        out += scalarText(v);
      }
      if (out.length > maxLength) return undefined;
    }
    const top = stack.at(-1);
    if (top === undefined) return out;
    if ('items' in top) {
      if (top.next >= top.items.length) {
        out += ']';
        stack.pop();
      } else {
        if (top.next > 0) out += ',';
        pending = { value: top.items[top.next] };
        top.next += 1;
      }
    } else if (top.next >= top.entries.length) {
      out += '}';
      stack.pop();
    } else {
      const [key, member] = top.entries[top.next];
      out += `${top.next > 0 ? ',' : ''}${JSON.stringify(key)}:`;
      pending = { value: member };
      top.next += 1;
    }
    if (out.length > maxLength) return undefined;
  }
}
