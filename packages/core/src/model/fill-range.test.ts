import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillRange } from './fill-range.ts';

describe('fillRange', () => {
  it('leaves every typed array exactly as TypedArray#fill does, for short and long ranges (property)', () => {
    const kinds = [(n: number) => new Uint8Array(n), (n: number) => new Uint16Array(n), (n: number) => new Int32Array(n)];
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 2),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: -3, max: 70_000 }),
        (kind, a, b, value) => {
          const make = kinds[kind] ?? kinds[0];
          if (make === undefined) return;
          const start = Math.min(a, b);
          const end = Math.max(a, b);
          const expected = make(200).fill(7);
          expected.fill(value, start, end);
          const actual = make(200).fill(7);
          fillRange(actual, value, start, end);
          expect([...actual]).toEqual([...expected]);
        },
      ),
    );
  });
});
