import { validate, type ValidationError } from 'class-validator';
import type { ResolverData } from 'type-graphql';
import { AppError } from '../errors/app-error';
import { findUnstorableText } from '../http/storable-text';

const OPTIONS = { skipMissingProperties: true, forbidUnknownValues: false } as const;

function firstProblem(errors: ValidationError[], prefix = ''): { field: string; message: string } | null {
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const constraint = e.constraints ? Object.values(e.constraints)[0] : undefined;
    // class-validator messages start with the property name: keep the rest.
    if (constraint) return { field, message: constraint.replace(new RegExp(`^${e.property}\\s+`), '') };
    const nested = firstProblem(e.children ?? [], field);
    if (nested) return nested;
  }
  return null;
}

/**
 * Instances of input and args classes carry class-validator rules; plain objects (a JSON scalar's value) carry none.
 */
const isClassInstance = (v: unknown): v is object =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) !== Object.prototype;

/**
 * type-graphql's argument validator: runs class-validator on argument objects
 * and turns the first failure into a 400 that names the field. Only instances
 * of input classes are walked: a scalar's plain objects have no rules, and a
 * bulk one (a webhook's thousand records) would cost a metadata lookup each.
 */
export async function validateArgs(argValue: unknown, _type?: unknown, data?: ResolverData): Promise<void> {
  refuseUnstorable(argValue, data?.args);
  const values = Array.isArray(argValue) ? argValue : [argValue];
  for (const v of values) {
    if (!isClassInstance(v)) continue;
    const problem = firstProblem(await validate(v, OPTIONS));
    if (problem) throw AppError.badRequest(problem.field, problem.message);
  }
}

/**
 * Text PostgreSQL cannot store (NUL, lone surrogates) in any argument is a 400
 * naming the field, before the resolver runs. An input object's fields are
 * named as class-validator names them (`coreId`); a scalar argument by its name.
 */
function refuseUnstorable(argValue: unknown, args: Record<string, unknown> | undefined): void {
  const isObject = argValue !== null && typeof argValue === 'object';
  const name = isObject ? '' : (Object.entries(args ?? {}).find(([, v]) => v === argValue)?.[0] ?? 'argument');
  const problem = findUnstorableText(argValue, name);
  if (problem) throw AppError.badRequest(problem.field || 'input', problem.message);
}

/**
 * The storable-text check of {@link validateArgs} for arguments type-graphql hands on unvalidated:
 * a subscription's, which reach its subscribe function as graphql-js coerced them (finalize-schema.ts
 * checks them there).
 */
export function refuseUnstorableArgs(args: Record<string, unknown>): void {
  for (const value of Object.values(args)) refuseUnstorable(value, args);
}
