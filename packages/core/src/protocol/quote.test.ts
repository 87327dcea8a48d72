import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clip, QUOTE_LIMIT, quote } from './quote.ts';

/** What quote promises for JSON values: JSON.stringify's text, cut to the limit with "…". */
function expected(value: unknown, limit = QUOTE_LIMIT): string {
  const text = JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** `depth` arrays, one inside the other, built without recursion. */
function nestedArrays(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
}

describe('quote', () => {
  it.each([
    [0],
    [-0],
    [8192],
    [1.5e300],
    ['7'],
    ['a "quoted" \\ line\n'],
    ['\ud83d\ude00 and a lone \ud800'],
    [null],
    [true],
    [[]],
    [{}],
    [[1, [2, [3]], { a: null }]],
    [{ size: 4096, policy: 'ACL_MEM_MALLOC_HUGE_FIRST', prop: { location: { type: 1, id: 0 } } }],
    [JSON.parse('{"__proto__":{"polluted":true},"constructor":"x"}')],
    ['x'.repeat(61)],
    ['x'.repeat(60)],
  ])('writes %j as JSON.stringify does, cut at 60 characters', (value) => {
    expect(quote(value)).toBe(expected(value));
  });

  it('agrees with JSON.stringify on any JSON value, for any limit (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 200 }), (value, limit) => {
        expect(quote(value, limit)).toBe(expected(value, limit));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['5,000 nested arrays', nestedArrays(5000)],
    ['524,288 nested arrays (1 MiB of JSON)', nestedArrays(512 * 1024)],
  ])('quotes %s by their first characters (JSON.stringify and String() overflow the stack)', (_name, value) => {
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(() => String(value)).toThrow(RangeError);
    expect(quote(value)).toBe(`${'['.repeat(QUOTE_LIMIT)}…`);
  });

  it('quotes wide and long values by their first characters', () => {
    const keys: Record<string, number> = {};
    for (let index = 0; index < 100_000; index += 1) keys[`k${index}`] = index;
    expect(quote(keys)).toBe(expected(keys));
    expect(quote(keys).length).toBe(QUOTE_LIMIT + 1);
    const items = new Array<number>(1_000_000).fill(7);
    expect(quote(items)).toBe(`[${'7,'.repeat(29)}7…`);
    expect(quote('s'.repeat(1 << 20))).toBe(`"${'s'.repeat(QUOTE_LIMIT - 1)}…`);
    expect(quote({ ['k'.repeat(1 << 20)]: 1 })).toBe(`{"${'k'.repeat(QUOTE_LIMIT - 2)}…`);
    // A sparse array as long as arrays go: its holes are written as null until the text is full.
    expect(quote(new Array(2 ** 32 - 1))).toBe(`[${'null,'.repeat(11)}null…`);
  });

  it('ends at cycles, however they are made', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    expect(quote(loop)).toBe(`{"name":"loop","self":{"name":"loop","self":{"name":"loop","…`);
    const ring: unknown[] = [];
    ring.push(ring, ring);
    expect(quote(ring)).toBe(`${'['.repeat(QUOTE_LIMIT)}…`);
  });

  it('names what JSON cannot hold, and never throws', () => {
    expect(quote(undefined)).toBe('undefined');
    expect(quote(Number.NaN)).toBe('NaN');
    expect(quote([Number.NEGATIVE_INFINITY, undefined, () => 1])).toBe('[-Infinity,null,null]');
    expect(quote({ a: undefined, b: Symbol('s'), c: 1 })).toBe('{"c":1}');
    expect(quote(2n ** 64n)).toBe('18446744073709551616n');
    expect(quote(Symbol('tag'))).toBe('Symbol(tag)');
    expect(quote(() => 1)).toBe('[function]');
    const getter = Object.defineProperty({ a: 1 }, 'b', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    expect(quote(getter)).toBe('{"a":1…');
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    expect(quote(hostile)).toBe('{…');
    // A getter that builds a new level each time it is read: bounded by the text, not the value.
    const endless = (): object => ({
      get next() {
        return endless();
      },
    });
    expect(quote(endless())).toBe(`${'{"next":'.repeat(7)}{"ne…`);
  });
});

describe('clip', () => {
  it('keeps short text and cuts long text with "…"', () => {
    expect(clip('size')).toBe('size');
    expect(clip('x'.repeat(QUOTE_LIMIT))).toBe('x'.repeat(QUOTE_LIMIT));
    expect(clip('x'.repeat(1 << 20))).toBe(`${'x'.repeat(QUOTE_LIMIT)}…`);
    expect(clip('abcdef', 3)).toBe('abc…');
  });
});
