import { z } from 'zod';

/**
 * Body fields whose rules belong to the operation's own check (the service
 * check both surfaces share). These schemas only shape the JSON so it can
 * reach the operation: types, enum values and presence, which GraphQL would
 * otherwise refuse with a message naming no field. Bounds are documented
 * (OpenAPI) but not enforced here: a value out of bounds gets the check's 400,
 * the same message over REST and GraphQL, before anything runs.
 */

/** What a type error says: `is required` for a missing or null value, else what the value must be. */
const typeError = (what: string) => (iss: { input: unknown }) =>
  iss.input === undefined || iss.input === null ? 'is required' : `must be ${what}`;

/** String bounds as OpenAPI shows them. */
export interface StringDoc {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/** Number bounds as OpenAPI shows them. */
export interface NumberDoc {
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
}

/** A string; `doc` documents the bounds the operation checks. */
export function stringField(doc: StringDoc = {}) {
  return z.string({ error: typeError('a string') }).meta({ ...doc });
}

/** A number; `doc` documents the bounds the operation checks. */
export function numberField(doc: NumberDoc = {}) {
  return z.number({ error: typeError('a number') }).meta({ ...doc });
}

/** One of a closed set of values (the operation's enum). */
export function enumField<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: typeError(`one of ${values.join(', ')}`) });
}

/** An optional field: absent or null is absent. */
export function optionalField<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => v ?? undefined);
}
