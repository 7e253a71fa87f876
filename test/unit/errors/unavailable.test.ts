import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { AppError } from '../../../src/errors/app-error';
import { classifyGraphQLError } from '../../../src/errors/classify-error';
import { toAppError } from '../../../src/errors/normalize-error';
import { endAfterUnavailable, unavailableRetryAfter } from '../../../src/graphql/unavailable';
import { sendError } from '../../../src/http/send-error';
import { MemoryPubSub, RedisUnavailableError } from '../../../src/infra';

/** Status, Retry-After and body of what `sendError` writes for these arguments, over a real socket. */
async function sent(...args: Parameters<typeof sendError> extends [unknown, ...infer R] ? R : never) {
  const server = http.createServer((_req, res) => sendError(res, ...args));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  try {
    const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() };
  } finally {
    server.close();
  }
}

describe('503 unavailable', () => {
  it('carries Retry-After: the error’s own, else 2 s', async () => {
    expect(await sent('unavailable', 'database unavailable; retry in 2s', { retryAfter: 2 })).toEqual({
      status: 503,
      retryAfter: '2',
      body: { error: 'unavailable', message: 'database unavailable; retry in 2s' },
    });
    expect((await sent('unavailable', 'venue_a is unavailable')).retryAfter).toBe('2');
    expect((await sent('unavailable', 'later', { retryAfter: 7 })).retryAfter).toBe('7');
    expect((await sent('not_found', 'x not found')).retryAfter).toBeNull();
  });

  it('classifies every unavailable error with its retryAfter, for GraphQL extensions too', () => {
    expect(classifyGraphQLError(new AppError('unavailable', 'down'))).toMatchObject({
      code: 'unavailable',
      details: { retryAfter: 2 },
    });
    expect(classifyGraphQLError(AppError.unavailable('down', 5)).details).toEqual({ retryAfter: 5 });
  });

  it('answers Redis unreachable, where a caller has no fallback, as 503', () => {
    const wrapped = new GraphQLError('x', { originalError: new RedisUnavailableError(new Error('closed')) });
    expect(classifyGraphQLError(wrapped)).toMatchObject({ code: 'unavailable', details: { retryAfter: 2 } });
    expect(toAppError(new Error('redis unavailable'))).toBeNull();
  });
});

describe('GraphQL over HTTP: 503 only when nothing was answered', () => {
  const unavailable = { message: 'down', extensions: { code: 'unavailable', retryAfter: 2 } };
  it('is 503 for unavailable errors and no data', () => {
    expect(unavailableRetryAfter({ errors: [unavailable] })).toBe(2);
    expect(unavailableRetryAfter({ data: null, errors: [unavailable, unavailable] })).toBe(2);
    expect(unavailableRetryAfter({ data: { me: null }, errors: [unavailable] })).toBe(2);
  });
  it('stays 200 for a partial answer, another error, or none', () => {
    expect(
      unavailableRetryAfter({ data: { me: { userId: 'u' }, other: null }, errors: [unavailable] }),
    ).toBeUndefined();
    expect(
      unavailableRetryAfter({ errors: [unavailable, { message: 'x', extensions: { code: 'not_found' } }] }),
    ).toBeUndefined();
    expect(unavailableRetryAfter({ data: { me: null } })).toBeUndefined();
  });
});

describe('a subscription ending after an unavailable event', () => {
  let pubsub: MemoryPubSub;
  beforeEach(() => {
    pubsub = new MemoryPubSub({ onError: () => undefined, iteratorBufferSize: 10, now: Date.now });
  });
  afterEach(() => pubsub.close());

  /** A topic's messages as execution results: `down` is an unavailable error, the rest data. */
  function results(topic: string): AsyncIterable<ExecutionResult> & { source: AsyncIterator<string> } {
    const source = pubsub.iterate<string>(topic);
    return {
      source,
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const r = await source.next();
          if (r.done) return { done: true, value: undefined };
          const value: ExecutionResult =
            r.value === 'down'
              ? { errors: [new GraphQLError('down', { originalError: AppError.unavailable('down') })] }
              : { data: { v: r.value } };
          return { done: false, value };
        },
        return: async () => {
          await source.return?.();
          return { done: true, value: undefined };
        },
      }),
    };
  }

  it('delivers the error event, then ends and unsubscribes', async () => {
    const r = results('t');
    const stream = endAfterUnavailable(r);
    await pubsub.publishMany('t', ['a', 'down', 'b']);
    expect((await stream.next()).value).toEqual({ data: { v: 'a' } });
    const error = await stream.next();
    expect(classifyGraphQLError(error.value!.errors![0]).code).toBe('unavailable');
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(pubsub.listenerCount('t')).toBe(0);
  });

  it('turns a source failing with an unavailable error into a last error result', async () => {
    const failing: AsyncIterable<ExecutionResult> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(AppError.unavailable('database unavailable; retry in 2s')),
      }),
    };
    const stream = endAfterUnavailable(failing);
    const last = await stream.next();
    expect(classifyGraphQLError(last.value!.errors![0])).toMatchObject({ code: 'unavailable' });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('lets a client leave without waiting for the next event', async () => {
    const r = results('idle');
    const stream = endAfterUnavailable(r);
    const pending = stream.next();
    await stream.return();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(pubsub.listenerCount('idle')).toBe(0);
  });
});
