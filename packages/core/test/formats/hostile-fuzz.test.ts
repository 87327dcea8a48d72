import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { toChromeTrace } from '../../src/formats/perfetto.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { writePickle } from './pickle-writer.ts';
import { makeSnapshot } from './snapshot-fixtures.ts';

/**
 * Damaged snapshots, made by flipping, cutting and inserting bytes of a valid one: opening one
 * gives a snapshot or a message — never another exception — and what opens can be summarised and
 * exported (every field the normaliser let through is of its type).
 */
const VALID = writePickle(makeSnapshot({ flavour: 'torch_npu', events: 60, devices: 2, expandableDevice: 1 }).data, {
  protocol: 4,
  frameBytes: 512,
});
const MODEL = { profile: ASCEND_910B2, pageSize1g: false };

const damage = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(VALID.length - 1), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(VALID.length - 1), value: fc.constant(0) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(VALID.length - 1), value: fc.integer({ min: 0, max: 255 }) }),
);

function apply(bytes: Uint8Array, changes: readonly { kind: 'flip' | 'cut' | 'insert'; at: number; value: number }[]): Uint8Array {
  let out = bytes;
  for (const change of changes) {
    const at = Math.min(change.at, out.length - 1);
    if (change.kind === 'flip') {
      out = out.slice();
      out[at] = change.value;
    } else if (change.kind === 'cut') {
      out = out.slice(0, Math.max(1, at));
    } else {
      out = new Uint8Array([...out.subarray(0, at), change.value, ...out.subarray(at)]);
    }
  }
  return out;
}

describe('damaged snapshot pickles', () => {
  it('open to a snapshot or a message, and what opens can be summarised and exported', () => {
    let refused = 0;
    let opened = 0;
    fc.assert(
      fc.property(fc.array(damage, { minLength: 1, maxLength: 4 }), (changes) => {
        const result = openMemoryFile(apply(VALID, changes), 'damaged.pickle');
        if (!result.ok) {
          refused += 1;
          expect(result.message.length).toBeGreaterThan(10);
          return;
        }
        opened += 1;
        if (result.file.kind !== 'snapshot') throw new Error(result.file.kind);
        const stats = snapshotStats(result.file, MODEL);
        for (const device of stats.devices) expect(Number.isSafeInteger(device.reservedBytes)).toBe(true);
        JSON.stringify(toChromeTrace(result.file, MODEL));
      }),
      { seed: 16, numRuns: 400 },
    );
    // Both outcomes happen, so the property exercised each path.
    expect(refused).toBeGreaterThan(50);
    expect(opened).toBeGreaterThan(5);
  });
});
