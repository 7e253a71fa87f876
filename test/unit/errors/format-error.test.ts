import { GraphQLError } from 'graphql';
import { AppError } from '../../../src/errors/app-error';
import { ERROR_STATUS } from '../../../src/errors/error-codes';
import { classifyGraphQLError } from '../../../src/errors/classify-error';
import { createFormatError } from '../../../src/graphql/format-error';

describe('error table', () => {
  it('maps every code to its documented status', () => {
    expect(ERROR_STATUS).toEqual({
      bad_request: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      rate_limited: 429,
      internal: 500,
      upstream_error: 502,
      unavailable: 503,
    });
  });
});

describe('classifyGraphQLError', () => {
  it('keeps domain errors, wrapped or not', () => {
    const app = AppError.notFound('event x');
    expect(classifyGraphQLError(app)).toMatchObject({ code: 'not_found', message: 'event x not found' });
    const wrapped = new GraphQLError(app.message, { originalError: app });
    expect(classifyGraphQLError(wrapped)).toMatchObject({ code: 'not_found' });
  });

  it('masks unexpected errors and keeps them for the log', () => {
    const boom = new Error('connection string postgres://secret@db');
    const wrapped = new GraphQLError(boom.message, { originalError: boom });
    const c = classifyGraphQLError(wrapped);
    expect(c).toMatchObject({ code: 'internal', message: 'internal error' });
    expect(c.unexpected).toBe(boom);
    const logged: unknown[] = [];
    const formatted = createFormatError((e) => logged.push(e))({ message: boom.message }, wrapped);
    expect(formatted).toEqual({ message: 'internal error', extensions: { code: 'internal' } });
    expect(logged).toEqual([boom]);
  });

  it('treats request errors (parse, validation, variables) as bad_request', () => {
    expect(
      classifyGraphQLError(new GraphQLError('Syntax Error', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })).code,
    ).toBe('bad_request');
    expect(classifyGraphQLError(new GraphQLError('Variable "$x" got invalid value')).code).toBe('bad_request');
  });

  it('translates Prisma unique violations to conflict', () => {
    const prismaErr = Object.assign(new Error('Unique constraint failed'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2002',
    });
    expect(classifyGraphQLError(prismaErr).code).toBe('conflict');
  });
});
