import { validate, type ValidationError } from 'class-validator';
import { AppError } from '../errors/app-error';

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
 * type-graphql's argument validator: runs class-validator on argument objects
 * and turns the first failure into a 400 that names the field.
 */
export async function validateArgs(argValue: unknown): Promise<void> {
  const values = Array.isArray(argValue) ? argValue : [argValue];
  for (const v of values) {
    if (v === null || typeof v !== 'object') continue;
    const problem = firstProblem(await validate(v, OPTIONS));
    if (problem) throw AppError.badRequest(problem.field, problem.message);
  }
}
