import type { Request } from 'express';
import type { z } from 'zod';
import { AppError } from '../src/errors/app-error';
import { bodyErrorOf, rawBodyOf } from '../src/http/raw-body';
import type { AnyRouteDef } from './route.types';

function check(schema: z.ZodType | undefined, value: unknown, where: string): Record<string, unknown> {
  if (!schema) return {};
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data as Record<string, unknown>;
  const issue = r.error.issues[0];
  const field = issue.path.length > 0 ? issue.path.join('.') : where;
  throw AppError.badRequest(field, issue.message);
}

/**
 * Parses a request's path, query and body against the route's schemas. Later
 * sources do not override earlier ones: path, then query, then body.
 */
export function parseInputs(route: AnyRouteDef, req: Request): Record<string, unknown> {
  const unreadable = bodyErrorOf(req);
  if (unreadable !== undefined) throw AppError.badRequest('body', unreadable);
  const body: unknown = req.body === undefined || req.body === null ? {} : req.body;
  if (route.params?.body && (typeof body !== 'object' || Array.isArray(body))) {
    throw AppError.badRequest('body', 'must be a JSON object');
  }
  const fromBody = check(route.params?.body, body, 'body');
  const fromQuery = check(route.params?.query, req.query, 'query');
  const fromPath = check(route.params?.path, req.params, 'path');
  const raw: Record<string, unknown> = {};
  if (route.rawBody) {
    const text = rawBodyOf(req);
    if (text === undefined) throw AppError.badRequest('body', 'must be a JSON request body');
    raw[route.rawBody.variable] = text;
  }
  return { ...raw, ...fromBody, ...fromQuery, ...fromPath };
}
