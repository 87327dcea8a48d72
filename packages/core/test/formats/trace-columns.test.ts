import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRACE_ACTIONS, type TraceEntry } from '../../src/formats/snapshot-types.ts';
import { BAD_STACK, NO_STACK, StackInterner } from '../../src/formats/stack-table.ts';
import { bareEntry, isTimed, TraceColumns, timeUsAt, tracesInterner } from '../../src/formats/trace-columns.ts';

const frame = fc.record({
  filename: fc.constantFrom('a.py', 'b.py', 'c.py'),
  line: fc.integer({ min: 0, max: 9 }),
  name: fc.constantFrom('f', 'g'),
});
const big = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.bigInt({ min: 1n << 64n, max: 1n << 80n }),
  fc.bigInt({ min: -(1n << 70n), max: -1n }),
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
/** Any entry the reader types, including the ones the columns cannot hold (kept whole). */
const entry: fc.Arbitrary<TraceEntry> = fc.record({
  action: fc.constantFrom(...TRACE_ACTIONS),
  addr: big,
  size: fc.integer({ min: 0, max: 2 ** 40 }),
  stream: big,
  timeUs: maybe(fc.double({ min: 0, max: 2e15, noNaN: true })),
  poolId: maybe(fc.constantFrom('0,0', '1,2')),
  deviceFree: maybe(fc.integer({ min: 0, max: 2 ** 36 })),
  frames: fc.array(frame, { maxLength: 4 }),
});

describe('a streamed trace in columns, released as it is read', () => {
  it('lets go of whole chunks before an entry only, and says so when a released entry is asked for', () => {
    const columns = new TraceColumns(new StackInterner());
    const at = (i: number): TraceEntry => ({
      action: 'alloc',
      addr: BigInt(i) * 512n,
      size: 512,
      stream: 0n,
      timeUs: undefined,
      poolId: undefined,
      // Every 1000th entry is kept whole (an oom's device_free): those go with their chunk too.
      deviceFree: i % 1000 === 0 ? i : undefined,
      frames: [],
    });
    const n = 3 * 65_536 + 10;
    for (let i = 0; i < n; i += 1) columns.push(at(i), false);
    columns.releaseBefore(65_535);
    expect(columns.bareAt(0)).toEqual(at(0));
    columns.releaseBefore(2 * 65_536 + 5);
    expect(() => columns.bareAt(0)).toThrow(/entry 0 was released/);
    expect(() => columns.bareAt(2 * 65_536 - 1)).toThrow(/was released/);
    // An entry kept whole goes with its chunk.
    expect(() => columns.at(131_000)).toThrow(/entry 131000 was released/);
    for (const i of [2 * 65_536, 2 * 65_536 + 1000 - ((2 * 65_536) % 1000), n - 1]) expect(columns.bareAt(i)).toEqual(at(i));
    // Asking again, or for less, changes nothing.
    columns.releaseBefore(10);
    expect(columns.bareAt(n - 1)).toEqual(at(n - 1));
    expect(columns.length).toBe(n);
  });
});

describe('a streamed trace in columns', () => {
  it('gives every entry back as it was pushed, its frames when kept and none when dropped', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(entry, fc.boolean()), { maxLength: 80 }), (pushed) => {
        const columns = new TraceColumns(new StackInterner());
        for (const [e, keep] of pushed) columns.push(e, keep);
        expect(columns.length).toBe(pushed.length);
        pushed.forEach(([e, keep], i) => {
          const kept = keep ? e : { ...e, frames: [] };
          expect(columns.at(i)).toEqual(kept);
          expect(bareEntry(columns, i)).toEqual({ ...e, frames: [] });
          expect(timeUsAt(columns, i)).toBe(e.timeUs);
          expect(columns.actionAt(i)).toBe(e.action);
          if (!keep || e.frames.length === 0) expect(columns.stackAt(i)).toBe(NO_STACK);
        });
        expect([...columns]).toEqual(pushed.map(([e, keep]) => (keep ? e : { ...e, frames: [] })));
        expect(isTimed(columns)).toBe(pushed.some(([e]) => e.timeUs !== undefined));
        expect(columns.at(pushed.length)).toBeUndefined();
      }),
      { numRuns: 200, seed: 16 },
    );
  });

  it('keeps a stack that is not a list of frames as the file wrote it', () => {
    const columns = new TraceColumns(new StackInterner());
    const frames = [{ filename: 'x.py', name: 'no line' }] as never;
    const bad: TraceEntry = {
      action: 'alloc',
      addr: 16n,
      size: 512,
      stream: 0n,
      timeUs: undefined,
      poolId: undefined,
      deviceFree: undefined,
      frames,
    };
    columns.push(bad, true);
    expect(columns.at(0)).toEqual(bad);
    expect(columns.stackAt(0)).toBe(BAD_STACK);
  });

  it('crosses its 65,536-entry chunks, shares its interner with the devices, and lets go on release', () => {
    const stacks = new StackInterner();
    const columns = new TraceColumns(stacks);
    const site = [{ filename: 'train.py', line: 12, name: 'step' }];
    for (let i = 0; i < 70_000; i += 1)
      columns.push(
        {
          action: 'alloc',
          addr: BigInt(i) * 512n,
          size: 512,
          stream: 7n,
          timeUs: i,
          poolId: undefined,
          deviceFree: undefined,
          frames: [...site],
        },
        true,
      );
    expect(columns.at(69_999)).toMatchObject({ addr: 69_999n * 512n, timeUs: 69_999, stream: 7n, frames: site });
    // One stack for 70,000 lists of the same frames (stack-table.ts keeps stacks by content).
    expect(columns.stackAt(0)).toBe(columns.stackAt(69_999));
    expect(stacks.table().starts.length).toBe(2);
    expect(tracesInterner([[], columns])).toBe(stacks);
    expect(tracesInterner([[]])).toBeUndefined();
    columns.release();
    expect(columns.length).toBe(0);
    expect(columns.at(0)).toBeUndefined();
  });
});
