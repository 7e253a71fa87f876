/**
 * Text PostgreSQL cannot store: the NUL character (refused in `text`) and lone
 * UTF-16 surrogates (not encodable as UTF-8). Input carrying either is refused
 * (400 naming the field) at the edge, before it can reach the database.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what it looks for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or undefined when it can. */
export function unstorableText(s: string): string | undefined {
  const m = UNSTORABLE.exec(s);
  if (!m) return undefined;
  return m[0] === '\u0000' ? 'must not contain NUL characters' : 'must be well-formed Unicode text';
}

/**
 * The first string inside a JSON-like value (keys included) that cannot be
 * stored, with its dot path under `field`. Walked with an explicit stack, so
 * deeply nested input cannot overflow the call stack.
 */
export function findUnstorableText(value: unknown, field: string): { field: string; message: string } | undefined {
  const stack: [unknown, string][] = [[value, field]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const message = unstorableText(v);
      if (message) return { field: path, message };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [k, child] = entries[i];
        const at = path ? `${path}.${k}` : k;
        const keyProblem = unstorableText(k);
        if (keyProblem) return { field: path || 'body', message: `keys ${keyProblem}` };
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}
