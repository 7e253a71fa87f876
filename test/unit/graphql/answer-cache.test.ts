import { GraphQLError, type ExecutionResult } from 'graphql';
import { AnswerCache, type AnswerView } from '../../../src/graphql/pipeline/answer-cache';

const JSON_VIEW: AnswerView = { id: 'json', render: (data) => JSON.stringify(data) };
const BYTES_VIEW: AnswerView = { id: 'bytes', render: (data) => Buffer.from(`<${JSON.stringify(data)}>`) };

function counting(result: () => ExecutionResult) {
  const calls = { n: 0 };
  return {
    calls,
    execute: async () => {
      calls.n += 1;
      return result();
    },
  };
}

describe('AnswerCache', () => {
  let t = 0;
  const cache = () => new AnswerCache({ ttlMs: 1_000, maxBytes: 1_000_000, now: () => t });
  beforeEach(() => {
    t = 0;
  });

  it('keys an operation by its text, its operation name (none and "" differ) and its variables', () => {
    const keys = [
      AnswerCache.keyOf('{ a }', undefined, undefined),
      AnswerCache.keyOf('{ a }', '', undefined),
      AnswerCache.keyOf('{ a }', 'A', undefined),
      AnswerCache.keyOf('{ a }', undefined, { x: 1 }),
      AnswerCache.keyOf('{ b }', undefined, undefined),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(AnswerCache.keyOf('{ a }', null, null)).toBe(AnswerCache.keyOf('{ a }', undefined, {}));
  });

  it('executes once per key, shares the answer and each view made of it', async () => {
    const c = cache();
    const run = counting(() => ({ data: { a: 1 } }));
    const [one, two] = await Promise.all([c.answer('k', run.execute, JSON_VIEW), c.answer('k', run.execute)]);
    expect(run.calls.n).toBe(1);
    expect(one.cached).toBe(two.cached);
    expect(one.result).toBe(two.result);
    const view = one.cached!.serialized(JSON_VIEW);
    expect(view.text).toBe('{"a":1}');
    expect(view.body.toString()).toBe('{"a":1}');
    expect(one.cached!.serialized(JSON_VIEW)).toBe(view);
    expect(one.cached!.serialized(BYTES_VIEW).text).toBe('<{"a":1}>');
    expect(view.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(c.answerOf(one.result.data)).toBe(one.cached);
    expect(c.current('k')).toBe(one.cached);
  });

  it('answers errors and no data, but keeps neither', async () => {
    const c = cache();
    const failing = counting(() => ({ errors: [new GraphQLError('no')] }));
    expect((await c.answer('e', failing.execute)).cached).toBeUndefined();
    await c.answer('e', failing.execute);
    expect(failing.calls.n).toBe(2);
    const empty = counting(() => ({ data: null }));
    expect((await c.answer('n', empty.execute)).result).toEqual({ data: null });
    expect(c.current('n')).toBeUndefined();
    const thrown = () => Promise.reject(new Error('down'));
    await expect(c.answer('x', thrown)).rejects.toThrow('down');
    expect(c.held.entries).toBe(0);
  });

  it('forgets everything on invalidate, and each answer after the TTL', async () => {
    const c = cache();
    const run = counting(() => ({ data: { a: 1 } }));
    await c.answer('k', run.execute, BYTES_VIEW);
    c.rememberRequest('GET /a\n', 'k', 'bytes');
    expect(c.requestAnswer('GET /a\n')).toEqual({ key: 'k', view: 'bytes' });
    c.invalidate();
    expect(c.current('k')).toBeUndefined();
    expect(c.remembersRequests).toBe(false);
    await c.answer('k', run.execute);
    expect(run.calls.n).toBe(2);
    t = 1_000;
    expect(c.current('k')).toBeUndefined();
    await c.answer('k', run.execute);
    expect(run.calls.n).toBe(3);
  });

  it('weighs each answer by its key and what it keeps, and stays under its bound', async () => {
    const c = new AnswerCache({ ttlMs: 60_000, maxBytes: 50_000 });
    const big = 'x'.repeat(9_000);
    for (let i = 0; i < 20; i += 1) {
      const { cached } = await c.answer(`k${i}`, () => ({ data: { big } }), JSON_VIEW);
      // Its text, then its bytes too: the answer grows, and the cache weighs it again.
      void cached!.serialized(JSON_VIEW).body;
      expect(c.held.bytes).toBeLessThanOrEqual(50_000);
    }
    expect(c.held.entries).toBe(2);
    expect(c.current('k19')).toBeDefined();
    expect(c.current('k0')).toBeUndefined();
  });
});
