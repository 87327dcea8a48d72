import { describe, expect, it } from 'vitest';
import type { StackFrames } from '../../src/formats/snapshot-types.ts';
import { BAD_STACK, NO_STACK, StackInterner, type StackTable, stackFrames } from '../../src/formats/stack-table.ts';

/** Each stack through one interner, in order: the table and every stack's id. */
function internStacks(stacks: readonly StackFrames[]): { table: StackTable; ids: Int32Array } {
  const interner = new StackInterner();
  const ids = Int32Array.from(stacks, (stack) => interner.add(stack));
  return { table: interner.table(), ids };
}

describe('StackInterner', () => {
  const a = { filename: 'a.py', line: 1, name: 'fa' };
  const b = { filename: 'b.py', line: 2, name: 'fb' };
  const shared = [a, b];

  it('keeps each frame and each stack once, and gives every stack back in order', () => {
    const { table, ids } = internStacks([shared, [b, a, b], shared, []]);
    expect(table.frames).toHaveLength(2);
    expect(ids[0]).toBe(ids[2]);
    expect(ids[3]).toBe(NO_STACK);
    expect(stackFrames(table, ids[0] ?? -1).map((f) => f.name)).toEqual(['fa', 'fb']);
    expect(stackFrames(table, ids[1] ?? -1).map((f) => f.name)).toEqual(['fb', 'fa', 'fb']);
    expect(stackFrames(table, NO_STACK)).toEqual([]);
  });

  it('keeps equal stacks once whatever lists hold them, and a stack read back from the table interns to itself', () => {
    const c = { filename: 'c.py', line: 3, name: 'fc' };
    const interner = new StackInterner();
    // Fresh lists, as the pickler writes one per entry, over shared frames (the memo).
    const first = interner.add([a, b, c]);
    expect(interner.add([a, b, c])).toBe(first);
    const other = interner.add([a, c, b]);
    expect(other).not.toBe(first);
    expect(interner.add([a, b])).not.toBe(first);
    const table = interner.table();
    // A table's frames are plain frame dicts, as the file held them.
    expect(interner.add(stackFrames(table, other) as unknown as StackFrames)).toBe(other);
    const after = interner.table();
    expect(after.starts).toEqual(table.starts);
    expect(after.frameIds.reduce((sum, chunk) => sum + chunk.length, 0)).toBe(8);
    expect(after.frames).toHaveLength(3);
  });

  it('marks a stack whose frames are not frames, without throwing', () => {
    const { ids } = internStacks([[{ filename: 'x.py', name: 'no line' }], shared]);
    expect(ids[0]).toBe(BAD_STACK);
    expect(ids[1]).toBe(0);
  });

  it('stacks that run across the 4 MiB chunks of frame ids read back whole, a refused stack leaving no ids behind', () => {
    const frames = Array.from({ length: 1000 }, (_, i) => ({ filename: `f${i}.py`, line: i, name: `fn${i}` }));
    // 3,000 distinct stacks of 1,001 frames: 3 M ids over three chunks, with a bad stack straddling the first boundary.
    const stacks: StackFrames[] = [];
    for (let s = 0; s < 3000; s += 1) {
      const rotated = [...frames.slice(s % 1000), ...frames.slice(0, s % 1000), frames[Math.floor(s / 1000)] as (typeof frames)[number]];
      if (s === 1048) rotated[999] = { filename: 'bad.py', name: 'no line' } as never;
      stacks.push(rotated);
    }
    const { table, ids } = internStacks(stacks);
    expect(table.frameIds.length).toBeGreaterThan(2);
    expect(ids[1048]).toBe(BAD_STACK);
    const total = table.frameIds.reduce((sum, chunk) => sum + chunk.length, 0);
    expect(total).toBe(2999 * 1001);
    stacks.forEach((stack, s) => {
      const id = ids[s] ?? NO_STACK;
      if (id === BAD_STACK) return;
      expect(stackFrames(table, id)).toEqual(stack);
    });
  });
});
