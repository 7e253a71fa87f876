import type { Request } from 'express';
import type { z } from 'zod';
import { AppError } from '../src/errors/app-error';
import { bodyErrorOf, rawBodyOf } from '../src/http/raw-body';
import { findUnstorableText } from '../src/http/storable-text';
import type { AnyRouteDef } from './route.types';

function check(
  schema: z.ZodType | undefined,
  value: unknown,
  where: string,
  refuse: (field: string, message: string) => AppError = (f, m) => AppError.badRequest(f, m),
): Record<string, unknown> {
  if (!schema) return {};
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data as Record<string, unknown>;
  const issue = r.error.issues[0];
  const field = issue.path.length > 0 ? issue.path.join('.') : where;
  throw refuse(field, issue.message);
}

/**
 * How a path value the route cannot serve is refused: a route that documents
 * 404 but no 400 answers 404 (no resource can have that id); otherwise 400
 * naming the parameter. Text the database cannot store is such a value on
 * every route that documents 404.
 */
function pathRefusal(route: AnyRouteDef, unstorable: boolean) {
  const notFound = route.errors.includes(404) && (unstorable || !route.errors.includes(400));
  return (field: string, message: string) =>
    notFound ? AppError.notFound('resource') : AppError.badRequest(field, message);
}

/**
 * One check for every source (path, query, body, raw body): text PostgreSQL
 * cannot store (NUL, lone surrogates) is refused here, before any operation
 * runs, naming the field.
 */
function refuseUnstorable(route: AnyRouteDef, req: Request, body: unknown): void {
  const inPath = findUnstorableText(req.params, '');
  if (inPath) throw pathRefusal(route, true)(inPath.field, inPath.message);
  const inQuery = findUnstorableText(req.query, '');
  if (inQuery) throw AppError.badRequest(inQuery.field || 'query', inQuery.message);
  const inBody = findUnstorableText(body, '');
  if (inBody) throw AppError.badRequest(inBody.field || 'body', inBody.message);
}

/**
 * Parses a request's path, query and body against the route's schemas. Later
 * sources do not override earlier ones: path, then query, then body.
 */
export function parseInputs(route: AnyRouteDef, req: Request): Record<string, unknown> {
  const refused = bodyErrorOf(req);
  if (refused !== undefined) throw new AppError(refused.code, `body: ${refused.message}`, { field: 'body' });
  const body: unknown = req.body === undefined || req.body === null ? {} : req.body;
  refuseUnstorable(route, req, body);
  if (route.params?.body && (typeof body !== 'object' || Array.isArray(body))) {
    throw AppError.badRequest('body', 'must be a JSON object');
  }
  const fromBody = check(route.params?.body, body, 'body');
  const fromQuery = check(route.params?.query, req.query, 'query');
  const fromPath = check(route.params?.path, req.params, 'path', pathRefusal(route, false));
  const raw: Record<string, unknown> = {};
  if (route.rawBody) {
    const text = rawBodyOf(req);
    if (text === undefined) throw AppError.badRequest('body', 'must be a JSON request body');
    raw[route.rawBody.variable] = text;
  }
  return { ...raw, ...fromBody, ...fromQuery, ...fromPath };
}
