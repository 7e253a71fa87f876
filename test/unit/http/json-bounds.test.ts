import fc from 'fast-check';
import { boundedJsonText, jsonNestingExceeds, nestingProblem } from '../../../src/http/json-bounds';

/** The nesting of a parsed JSON value, the outermost value being level 1 (scalars are 0). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, level] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, level);
    for (const child of Object.values(v)) stack.push([child, level + 1]);
  }
  return max;
}

describe('jsonNestingExceeds', () => {
  it('counts the outermost value as level 1 and is exact at the bound', () => {
    expect(jsonNestingExceeds('{}', 1)).toBe(false);
    expect(jsonNestingExceeds('{"a":[1]}', 1)).toBe(true);
    expect(jsonNestingExceeds('{"a":[1]}', 2)).toBe(false);
    expect(jsonNestingExceeds('[[],[],[[]]]', 2)).toBe(true);
    expect(jsonNestingExceeds('[[],[],[[]]]', 3)).toBe(false);
    expect(jsonNestingExceeds('"text"', 0)).toBe(false);
    expect(jsonNestingExceeds('123', 0)).toBe(false);
  });

  it('does not count brackets inside strings, keys included', () => {
    const text = JSON.stringify({ '[[[[': '{{{{[[[[', b: ['}}]]', '[{'] });
    expect(jsonNestingExceeds(text, 2)).toBe(false);
    expect(jsonNestingExceeds(text, 1)).toBe(true);
  });

  it('honours escapes: an escaped quote does not end a string, an escaped backslash does not escape the quote', () => {
    // "a\"[[[" is one string; "b\\" ends after the escaped backslash, so the [ after it counts.
    expect(jsonNestingExceeds('{"k":"a\\"[[[["}', 1)).toBe(false);
    expect(jsonNestingExceeds('{"k":"b\\\\","l":[[1]]}', 2)).toBe(true);
    expect(jsonNestingExceeds('{"k":"b\\\\","l":[[1]]}', 3)).toBe(false);
    expect(jsonNestingExceeds('["\\u005b\\u005b\\u005b"]', 1)).toBe(false);
  });

  it('answers a bomb of any size in one pass, without recursion', () => {
    const bomb = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(jsonNestingExceeds(bomb, 64)).toBe(true);
    expect(jsonNestingExceeds('{"a":'.repeat(65) + '1' + '}'.repeat(65), 64)).toBe(true);
    expect(jsonNestingExceeds('{"a":'.repeat(64) + '1' + '}'.repeat(64), 64)).toBe(false);
  });

  it('does not let closing brackets before the value undercount it', () => {
    expect(jsonNestingExceeds(']]]]' + '['.repeat(5), 4)).toBe(true);
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, max) => {
        const text = JSON.stringify(value);
        expect(jsonNestingExceeds(text, max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 500 },
    );
  });

  it('names the setting in its message', () => {
    expect(nestingProblem(64)).toBe('nested deeper than 64 levels (JSON_MAX_DEPTH)');
  });
});

describe('boundedJsonText', () => {
  it('writes what JSON.stringify writes for JSON data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(boundedJsonText(value, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
    expect(boundedJsonText({ a: undefined, b: [undefined, 1], c: Number.NaN }, 100)).toBe(
      JSON.stringify({ a: undefined, b: [undefined, 1], c: Number.NaN }),
    );
  });

  it('gives up past its bound, and is exact at it', () => {
    const text = JSON.stringify({ a: 'x'.repeat(20) });
    expect(boundedJsonText({ a: 'x'.repeat(20) }, text.length)).toBe(text);
    expect(boundedJsonText({ a: 'x'.repeat(20) }, text.length - 1)).toBeUndefined();
  });

  it('never overflows the stack on nesting JSON.stringify cannot write', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) deep = { a: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(boundedJsonText(deep, 2_048)).toBeUndefined();
    expect(boundedJsonText(deep, Number.POSITIVE_INFINITY)?.length).toBe(100_000 * 6 + 1);
  });
});
