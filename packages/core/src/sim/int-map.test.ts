import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IntMap } from './int-map.ts';

/**
 * Keys that share their home slot in every table of up to 256 slots (the same top 8 bits of the
 * multiplicative hash), so sets build long probe runs and deletes must shift entries back; with
 * top bits 0xff the home is the last slot and every run wraps around the end of the table, into
 * the first slots, home to keys with top bits 0x00.
 * Multiplicative hashing spreads ordinary keys so evenly that they rarely collide at all.
 */
function collidingKeys(count: number, topBits: number): number[] {
  const keys: number[] = [];
  for (let key = 0; keys.length < count; key += 1) if (Math.imul(key, 0x9e3779b1) >>> 24 === topBits) keys.push(key);
  return keys;
}

describe('IntMap', () => {
  it('behaves as a Map under any mix of sets, deletes and gets (property)', () => {
    // Colliding keys make long probe runs; large keys use both 32-bit halves of the hash.
    const key = fc.oneof(
      fc.constantFrom(...collidingKeys(16, 0x5a), ...collidingKeys(16, 0xff), ...collidingKeys(16, 0x00)),
      fc.nat({ max: 64 }),
      fc.integer({ min: 0, max: 2 ** 38 }),
    );
    const op = fc.tuple(fc.constantFrom('set', 'delete', 'get'), key);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 600 }), (ops) => {
        const map = new IntMap<{ v: number }>();
        const model = new Map<number, { v: number }>();
        ops.forEach(([kind, k], index) => {
          if (kind === 'set') {
            const value = { v: index };
            map.set(k, value);
            model.set(k, value);
          } else if (kind === 'delete') {
            expect(map.delete(k)).toBe(model.delete(k));
          }
          expect(map.get(k)).toBe(model.get(k));
        });
        expect(map.size).toBe(model.size);
        for (const [k, value] of model) expect(map.get(k)).toBe(value);
        expect(new Set(map.values())).toEqual(new Set(model.values()));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every entry reachable after deletions in the middle of probe runs', () => {
    const map = new IntMap<{ k: number }>();
    const keys = [...collidingKeys(40, 0x5a), ...collidingKeys(40, 0xff), ...collidingKeys(40, 0x00)];
    for (const k of keys) map.set(k, { k });
    for (const k of keys.filter((_, i) => i % 3 === 0)) map.delete(k);
    keys.forEach((k, i) => {
      expect(map.get(k)?.k).toBe(i % 3 === 0 ? undefined : k);
    });
    expect(map.size).toBe(keys.length - Math.ceil(keys.length / 3));
  });

  it('shifts entries back across the end of the table', () => {
    // Runs from the last slot wrap into slot 0 and on, where keys whose home is slot 0 live too.
    const map = new IntMap<{ k: number }>();
    const wrapping = collidingKeys(6, 0xff);
    const first = collidingKeys(6, 0x00);
    wrapping.forEach((k, i) => {
      map.set(k, { k });
      const other = first[i] ?? 0;
      map.set(other, { k: other });
    });
    for (const k of wrapping) map.delete(k);
    for (const k of first) expect(map.get(k)?.k).toBe(k);
    expect(map.size).toBe(first.length);
  });
});
