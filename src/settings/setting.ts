import { z } from 'zod';

/**
 * The builders of a settings slice's variables. Each returns the zod schema that parses one
 * environment variable and records how the variable is documented (docs/configuration.md's table
 * row and .env.example's line are rendered from it), so a variable is written once.
 */

/** The shortest secret accepted (bytes): HS256 keys always, every shared secret in production. */
export const MIN_SECRET_BYTES = 32;

/**
 * The base of the fixed development values of unset secrets outside production (each secret adds
 * its own suffix); production refuses to start with any of them.
 */
export const DEVELOPMENT_SECRET = 'development-only-secret-change-me-0123456789';

/** How one variable is documented and, for the generic rules, treated. */
export interface SettingDoc {
  /** What it does (Markdown, one paragraph): the docs' meaning column and .env.example's comment. */
  readonly meaning: string;
  /** The default as the docs show it (Markdown): `` `4000` ``, `unset: PGlite`. */
  readonly default: string;
  /** What it accepts (Markdown): `integer 0–65535`, `` `on`, `off` ``; empty: any text. */
  readonly accepted: string;
  /** What .env.example shows after `# NAME=`: the default, or an example for a variable unset by default. */
  readonly example: string;
  /** A shared secret callers are checked against: at least {@link MIN_SECRET_BYTES} in production. */
  readonly sharedSecret: boolean;
  /** A value the variable refuses (its tests set it), or undefined when it takes any text. */
  readonly invalid?: string;
}

/** The documentation of every variable a builder made, by its schema. */
export const settingDocs = z.registry<SettingDoc>();

/** A variable's meaning, or its meaning with the docs' default, accepted or example text overridden. */
export type Describe = string | { meaning: string; default?: string; accepted?: string; example?: string };

/** Text written over several source lines, as one paragraph: runs of white space become one space. */
export function prose(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw({ raw: strings }, ...values)
    .replace(/\s+/g, ' ')
    .trim();
}

const code = (v: unknown): string => `\`${String(v)}\``;

function documented<T extends z.ZodType>(
  schema: T,
  describe: Describe,
  derived: Omit<SettingDoc, 'meaning' | 'sharedSecret'> & { sharedSecret?: boolean },
): T {
  const d = typeof describe === 'string' ? { meaning: describe } : describe;
  // Its own instance: builders share schemas, and the registry keys each variable's docs by schema.
  const own = schema.clone();
  settingDocs.add(own, {
    meaning: d.meaning,
    default: d.default ?? derived.default,
    accepted: d.accepted ?? derived.accepted,
    example: d.example ?? derived.example,
    sharedSecret: derived.sharedSecret ?? false,
    invalid: derived.invalid,
  });
  return own;
}

/** Unset or blank: undefined. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const optionalUrl = (protocols: readonly string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL (${protocols.join(', ')})` },
  );

const intInRange = (min: number, max: number, fallback: number | undefined) =>
  optionalString.pipe(
    z.preprocess(
      (v) => (v === undefined ? fallback : Number(v)),
      fallback === undefined
        ? z.number().int(`must be an integer from ${min} to ${max}`).min(min).max(max).optional()
        : z.number().int(`must be an integer from ${min} to ${max}`).min(min).max(max),
    ),
  );

const choices = (values: readonly string[]): string => values.map(code).join(', ');

/** The builders: `setting.integer(0, 65535, 4000, 'listen port')`. */
export const setting = {
  /** An integer from `min` to `max` (inclusive); unset or blank: `fallback`. */
  integer(min: number, max: number, fallback: number, describe: Describe) {
    return documented(intInRange(min, max, fallback) as z.ZodType<number, string | undefined>, describe, {
      default: code(fallback),
      accepted: `integer ${min}–${max}`,
      example: String(fallback),
      invalid: 'not-a-number',
    });
  },

  /** An integer from `min` to `max`, or undefined when unset (the slice computes the default). */
  optionalInteger(min: number, max: number, describe: Describe & { default: string; example: string }) {
    return documented(intInRange(min, max, undefined) as z.ZodType<number | undefined, string | undefined>, describe, {
      default: '',
      accepted: `integer ${min}–${max}`,
      example: '',
      invalid: 'not-a-number',
    });
  },

  /** A number from `min` to `max` (inclusive); unset or blank: `fallback`. */
  number(min: number, max: number, fallback: number, describe: Describe) {
    const schema = optionalString.pipe(
      z.preprocess(
        (v) => (v === undefined ? fallback : Number(v)),
        z.number(`must be a number from ${min} to ${max}`).min(min).max(max),
      ),
    );
    return documented(schema as z.ZodType<number, string | undefined>, describe, {
      default: code(fallback),
      accepted: `number ${min}–${max}`,
      example: String(fallback),
      invalid: 'not-a-number',
    });
  },

  /** One of `values`; unset: `fallback` (a blank value is refused). */
  choice<const V extends readonly [string, ...string[]]>(values: V, fallback: V[number], describe: Describe) {
    return documented(z.enum(values).default(fallback as never), describe, {
      default: code(fallback),
      accepted: choices(values),
      example: fallback,
      invalid: 'none-of-these',
    });
  },

  /** One of `values`, or undefined when unset or blank (the slice computes the default). */
  optionalChoice<const V extends readonly [string, ...string[]]>(values: V, describe: Describe & { default: string }) {
    return documented(optionalString.pipe(z.enum(values).optional()), describe, {
      default: '',
      accepted: choices(values),
      example: '',
      invalid: 'none-of-these',
    });
  },

  /** A URL of one of `protocols` (`https:`), or undefined when unset or blank. */
  url(protocols: readonly string[], describe: Describe) {
    return documented(optionalUrl(protocols), describe, {
      default: 'unset',
      accepted: `${protocols.map(code).join(' / ')} URL`,
      example: '',
      invalid: 'not a url',
    });
  },

  /** Free text, or undefined when unset or blank. */
  text(describe: Describe) {
    return documented(optionalString, describe, { default: 'unset', accepted: '', example: '' });
  },

  /** Free text; unset or blank: `fallback`. */
  textOr(fallback: string, describe: Describe) {
    return documented(
      optionalString.transform((v) => v ?? fallback),
      describe,
      { default: code(fallback), accepted: '', example: fallback },
    );
  },

  /**
   * A shared secret this service checks callers against (a header token, a webhook's key, a
   * signing key), or undefined when unset: with NODE_ENV=production at least
   * {@link MIN_SECRET_BYTES} bytes (the composition checks every one).
   */
  secret(describe: Describe) {
    return documented(optionalString, describe, {
      default: 'unset',
      accepted: `production: at least ${MIN_SECRET_BYTES} bytes`,
      example: '',
      sharedSecret: true,
    });
  },

  /** Any other schema (a format of its own), with its documentation spelled out. */
  custom<T extends z.ZodType>(
    schema: T,
    describe: { meaning: string; default: string; accepted: string; example?: string; invalid?: string },
  ): T {
    return documented(schema, describe, {
      default: describe.default,
      accepted: describe.accepted,
      example: describe.example ?? '',
      invalid: describe.invalid,
    });
  },
};

/** Unset or blank: undefined (for {@link setting.custom} schemas). */
export { optionalString };
