import { z } from 'zod';

/**
 * Parameter schemas for REST inputs. Query and path values arrive as strings;
 * these coerce them and phrase failures so the 400 names the field's rule.
 */

/** An integer in [min, max]; absent → `fallback` when given. */
export function int(min: number, max: number, fallback?: number) {
  const msg = `must be an integer from ${min} to ${max}`;
  const base = z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ error: msg }).int({ error: msg }).min(min, { error: msg }).max(max, { error: msg }),
  );
  return fallback === undefined ? base.optional() : base.optional().transform((v) => v ?? fallback);
}

/** A required integer in [min, max]. */
export function requiredInt(min: number, max: number) {
  const msg = `must be an integer from ${min} to ${max}`;
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: (iss) => (iss.input === undefined ? 'is required' : msg) })
      .int({ error: msg })
      .min(min, { error: msg })
      .max(max, { error: msg }),
  );
}

/** A number in [min, max]. */
export function num(min: number, max: number) {
  const msg = `must be a number from ${min} to ${max}`;
  return z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z.number({ error: msg }).min(min, { error: msg }).max(max, { error: msg }),
    )
    .optional();
}

/** One of a closed set of values. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional();
}

/** `true` or `false`. */
export function bool() {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'));
}

/** A non-empty string of at most `max` characters. */
export function str(max: number) {
  return z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .optional();
}

/** A required non-empty string (path segments). */
export function requiredStr(max: number) {
  return z
    .string({ error: 'is required' })
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });
}
