import { AppError } from './app-error';

/**
 * Checks of a body's fields where the services check them (one rule for REST and GraphQL): each
 * returns the value (`undefined` when an optional field is absent or null) or throws a 400 that
 * names the field.
 */

/** One of `allowed`; undefined when absent. */
export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw AppError.badRequest(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** One of `allowed`; `is required` when absent. */
export function requiredOneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  const v = oneOf(field, value, allowed);
  if (v === undefined) throw AppError.badRequest(field, 'is required');
  return v;
}

/** A string of 1 to `max` characters, not blank; undefined when absent unless `required`. */
export function textOf(field: string, value: unknown, max: number, required: true): string;
export function textOf(field: string, value: unknown, max: number, required?: false): string | undefined;
export function textOf(field: string, value: unknown, max: number, required = false): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw AppError.badRequest(field, 'is required');
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    throw AppError.badRequest(field, `must be a string of 1 to ${max} characters`);
  return value;
}

/** A finite number from `range.min` to `range.max`; undefined when absent. */
export function numberIn(field: string, value: unknown, range: { min: number; max: number }): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < range.min || value > range.max)
    throw AppError.badRequest(field, `must be a number from ${range.min} to ${range.max}`);
  return value;
}
