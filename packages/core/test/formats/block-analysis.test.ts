import { describe, expect, it } from 'vitest';
import {
  countMatching,
  expandableBound,
  explainPeak,
  type FramesOf,
  leaksBetween,
  NO_FRAME,
  reservedAt,
  reservedSteps,
  stackContains,
  stackMatcher,
  stackMatchSeqs,
} from '../../src/formats/block-analysis.ts';
import { BlockIndex, type ImportedBlock } from '../../src/formats/block-index.ts';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import type { Frame } from '../../src/formats/snapshot-types.ts';
import { NO_STACK, stackFrames } from '../../src/formats/stack-table.ts';
import type { MemoryEvent } from '../../src/model/events.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { writePickle } from './pickle-writer.ts';
import { makeSnapshot } from './snapshot-fixtures.ts';

const MiB = 1024 * 1024;
const forward: Frame = { name: 'forward', filename: 'model.py', line: 10 };
const backward: Frame = { name: 'backward', filename: 'model.py', line: 20 };
const step: Frame = { name: 'step', filename: 'optim.py', line: 5 };

/** One device's blocks in an index; each stack id stands for its frames here (the page keeps stacks in a table, too). */
const index = new BlockIndex();
const stacks = new Map<number, Frame[]>();
function block(
  size: number,
  allocSeq: number,
  freeRequestedSeq: number | undefined,
  freeCompletedSeq: number | undefined,
  frames: Frame[],
): ImportedBlock {
  const stack = frames.length === 0 ? NO_STACK : stacks.size;
  if (frames.length > 0) stacks.set(stack, frames);
  const row = index.open({
    device: 0,
    recordedAddress: BigInt(allocSeq) << 24n,
    addr: allocSeq * 16 * MiB,
    size,
    stream: 0n,
    stack,
    allocSeq,
  });
  if (freeRequestedSeq !== undefined) index.freeRequested(row, freeRequestedSeq);
  if (freeCompletedSeq !== undefined) index.freeCompleted(row, freeCompletedSeq);
  return index.block(row);
}
const framesOf: FramesOf = (stack) => stacks.get(stack) ?? [];

// The fixture, worked by hand (seq: what happens → allocated MiB after it):
//  1 segment of 20 MiB · 2 b0 1 MiB → 1 · 2 also a 2 MiB expandable map · 3 b1 8 MiB → 9
//  4 b0 free requested, b2 4 MiB → 12 · 5 b3 2 MiB → 14 (the peak) · 6 b3 free requested → 12
//  7 b4 1 MiB → 13 · 8 b2 free requested → 9 · 11 b5 0.5 MiB → 9.5 · 12 the 2 MiB map released
const b0 = block(1 * MiB, 2, 4, 9, [backward, forward]);
const b1 = block(8 * MiB, 3, undefined, undefined, [forward]);
const b2 = block(4 * MiB, 4, 8, 9, [forward, step]);
const b3 = block(2 * MiB, 5, 6, 10, [backward]);
const b4 = block(1 * MiB, 7, undefined, undefined, [step]);
const b5 = block(MiB / 2, 11, undefined, undefined, []);
const blocks = [b0, b1, b2, b3, b4, b5];
index.seal();
const events = [
  { kind: 'alloc', seq: 1, device: 0, id: 100, size: 20 * MiB },
  { kind: 'physAlloc', seq: 2, device: 0, id: 101, size: 2 * MiB },
  { kind: 'alloc', seq: 3, device: 1, id: 102, size: 64 * MiB },
  { kind: 'call', seq: 4 },
  { kind: 'physRelease', seq: 12, id: 101 },
  { kind: 'free', seq: 13, id: 102 },
] as unknown as MemoryEvent[];

describe('explain the peak, leaks in a range, stack filter', () => {
  it("reserved bytes over time from the segments' events, per device", () => {
    const steps = reservedSteps(events, 0);
    expect(steps).toEqual([
      { seq: 1, bytes: 20 * MiB },
      { seq: 2, bytes: 22 * MiB },
      { seq: 12, bytes: 20 * MiB },
    ]);
    expect([0, 1, 5, 11, 12, 99].map((seq) => reservedAt(steps, seq) / MiB)).toEqual([0, 20, 22, 22, 20, 20]);
    expect(reservedSteps(events, 1)).toEqual([
      { seq: 3, bytes: 64 * MiB },
      { seq: 13, bytes: 0 },
    ]);
  });

  it('the peak: seq 5, 14 MiB allocated of 22 reserved, 8 MiB (36.4 %) fragmentation, 1 MiB of it pending free; grouped by top frame', () => {
    const peak = explainPeak(index, 0, reservedSteps(events, 0), framesOf);
    expect(peak).toMatchObject({ seq: 5, allocated: 14 * MiB, reserved: 22 * MiB, pendingFree: 1 * MiB, fragmentation: 8 * MiB });
    expect(peak?.fragmentationShare).toBeCloseTo(8 / 22, 10);
    expect(peak?.groups).toEqual([
      { frame: 'forward (model.py:10)', bytes: 12 * MiB, blocks: 2 },
      { frame: 'backward (model.py:20)', bytes: 2 * MiB, blocks: 1 },
    ]);
    expect(peak?.blocks).toEqual([b1, b2, b3]);
    expect(explainPeak(index, 1, [], framesOf)).toBeUndefined();
    expect(explainPeak(new BlockIndex(), 0, [], framesOf)).toBeUndefined();
  });

  it('the expandable_segments bound at the peak: the held blocks (pending free too) per stream and pool in whole handles', () => {
    // Held at seq 5: b1 8 + b2 4 + b3 2 MiB in the large pool (one 20 MiB handle), b0 1 MiB pending free in the small (one 2 MiB handle).
    const peak = explainPeak(index, 0, reservedSteps(events, 0), framesOf, { profile: ASCEND_910B2, pageSize1g: false });
    expect(peak?.expandable).toEqual({ bytes: 22 * MiB, saving: 0, largeHandle: 20 * MiB });
    const giant = explainPeak(index, 0, reservedSteps(events, 0), framesOf, { profile: ASCEND_910B2, pageSize1g: true });
    expect(giant?.expandable).toEqual({ bytes: 1024 * MiB + 2 * MiB, saving: 0, largeHandle: 1024 * MiB });
    expect(explainPeak(index, 0, reservedSteps(events, 0), framesOf)?.expandable).toBeUndefined();
  });

  it('expandableBound: streams and pools rounded apart; page_size:1g takes 1 GiB handles only where the profile has giant pages', () => {
    const held = [
      { size: 30 * MiB, stream: 0n },
      { size: 5 * MiB, stream: 0n },
      { size: 512 * 1024, stream: 0n },
      { size: 100 * 1024, stream: 0n },
      { size: MiB + 1, stream: 7n },
    ];
    // Large pool, stream 0: 35 MiB → 40; small pool, stream 0: 612 KiB → 2; large pool, stream 7: 1 MiB + 1 → 20.
    expect(expandableBound(held, 200 * MiB, { profile: ASCEND_910B2, pageSize1g: false })).toEqual({
      bytes: 62 * MiB,
      saving: 138 * MiB,
      largeHandle: 20 * MiB,
    });
    expect(expandableBound(held, 200 * MiB, { profile: ASCEND_910B2, pageSize1g: true }).bytes).toBe(2048 * MiB + 2 * MiB);
    expect(ASCEND_310P3.features.giantPages).toBe(false);
    expect(expandableBound(held, 50 * MiB, { profile: ASCEND_310P3, pageSize1g: true })).toEqual({
      bytes: 62 * MiB,
      saving: 0,
      largeHandle: 20 * MiB,
    });
  });

  it('leaks between A and B: allocated after A, still allocated at B, biggest first; the marks in either order', () => {
    const leaks = leaksBetween(index, 0, 4, 11, framesOf);
    expect(leaks.blocks).toEqual([b4, b5]);
    expect(leaks.bytes).toBe(1.5 * MiB);
    expect(leaks.groups).toEqual([
      { frame: 'step (optim.py:5)', bytes: 1 * MiB, blocks: 1 },
      { frame: NO_FRAME, bytes: MiB / 2, blocks: 1 },
    ]);
    expect(leaksBetween(index, 0, 11, 4, framesOf)).toEqual(leaks);
    // Before b2's free: it was allocated after 3 and still allocated at 7.
    expect(leaksBetween(index, 0, 3, 7, framesOf).blocks).toEqual([b2, b4]);
    expect(leaksBetween(index, 0, 12, 12, framesOf).blocks).toEqual([]);
    // Under a stack filter, only the leaks whose stack holds the text.
    expect(leaksBetween(index, 0, 3, 7, framesOf, stackMatcher('optim', framesOf)).blocks).toEqual([b2, b4]);
    expect(leaksBetween(index, 0, 3, 7, framesOf, stackMatcher('forward', framesOf)).blocks).toEqual([b2]);
  });

  it("the stack filter: any frame's name or file, any case; empty text keeps every block", () => {
    expect(blocks.filter((b) => stackContains(b, 'model.py', framesOf))).toEqual([b0, b1, b2, b3]);
    expect(blocks.filter((b) => stackContains(b, ' OPTIM ', framesOf))).toEqual([b2, b4]);
    expect(blocks.filter((b) => stackContains(b, '', framesOf))).toEqual(blocks);
    expect(blocks.filter((b) => stackContains(b, 'nothing', framesOf))).toEqual([]);
    expect(stackMatcher('  ', framesOf)).toBeUndefined();
    expect(countMatching(index, 0, stackMatcher('model.py', framesOf))).toBe(4);
    expect(countMatching(index, 0, undefined)).toBe(6);
  });

  it('a stack is looked at once, however many blocks share it', () => {
    let looked = 0;
    const matches = stackMatcher('forward', (stack) => {
      looked += 1;
      return framesOf(stack);
    });
    for (let pass = 0; pass < 3; pass += 1) for (const b of blocks) matches?.(b.stack);
    expect(looked).toBe(new Set(blocks.map((b) => b.stack)).size);
  });

  it('on an imported file: the peak is the highest allocated total the block index gives at any entry', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 1500, devices: 1, seed: 9 });
    const opened = openMemoryFile(writePickle(fixture.data), 'job.pickle');
    if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error('fixture did not open');
    const session = importSnapshot(opened.file, { profile: ASCEND_910B2, pageSize1g: false, name: 'job.pickle' });
    const peak = explainPeak(session.blocks, 0, reservedSteps(session.events, 0), (stack) => stackFrames(session.stacks, stack));
    const seqs = session.entrySeqs[0] ?? [];
    const highest = Math.max(...seqs.map((seq) => session.blocks.totalsAt(0, seq).allocated));
    expect(peak?.allocated).toBe(highest);
    expect(session.blocks.totalsAt(0, peak?.seq ?? 0).allocated).toBe(highest);
    expect(peak?.groups.reduce((sum, g) => sum + g.bytes, 0)).toBe(highest);
    expect(peak?.reserved).toBeGreaterThanOrEqual(highest);
  });
});

describe('stackMatchSeqs (the log under the stack filter)', () => {
  const seqs = (text: string): number[] => {
    const matches = stackMatcher(text, framesOf);
    if (matches === undefined) throw new Error(`no filter for ${JSON.stringify(text)}`);
    return [...stackMatchSeqs(index, matches)].sort((a, b) => a - b);
  };
  it('the alloc and free calls of the blocks whose stack holds the text', () => {
    expect(seqs('backward')).toEqual([2, 4, 5, 6, 9, 10]);
    expect(seqs('OPTIM.PY')).toEqual([4, 7, 8, 9]);
    expect(seqs('nowhere')).toEqual([]);
  });
});
