import { AppError } from './app-error';

interface PrismaKnownError {
  code: string;
  meta?: Record<string, unknown>;
}

function isPrismaKnownError(err: unknown): err is PrismaKnownError {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { name?: unknown }).name === 'PrismaClientKnownRequestError' &&
    typeof (err as { code?: unknown }).code === 'string'
  );
}

/**
 * Turns anything thrown into an AppError, translating Prisma errors in this one
 * place. Returns null for unexpected errors, which callers mask as `internal`.
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (isPrismaKnownError(err)) {
    switch (err.code) {
      case 'P2002':
        return AppError.conflict('resource already exists');
      case 'P2025':
      case 'P2001':
        return AppError.notFound('resource');
      default:
        return null;
    }
  }
  return null;
}
