import type { MemoryEvent } from '../model/events.ts';
import { blockStateAt, type ImportedBlock } from './block-index.ts';
import type { Frame } from './snapshot-types.ts';

/**
 * Questions an imported file answers from its blocks (block-index.ts) and its segments' events:
 * explain the peak, leaks between two points, blocks whose stack holds some text. Pure functions of
 * the blocks and a way to read a block's stack (the worker has the frames, the page an interned table).
 *
 * Figures are the file's own: a block's `size` is the allocator's rounded size; `allocated` is the
 * bytes of active_allocated blocks (the snapshot's allocated_size), `reserved` the bytes of the
 * segments (total_size). A block pending free still holds its bytes but is not allocated: it
 * counts in the fragmentation, as the allocator cannot hand it out yet.
 */
export type FramesOf = (block: ImportedBlock) => readonly Frame[];

/** The group of a block without a stack, or with a stack the file did not record. */
export const NO_FRAME = '(no stack recorded)';

/** A frame as one line: `name (file:line)`. */
export const frameText = (frame: Frame): string => `${frame.name} (${frame.filename}:${frame.line})`;

/** The innermost recorded frame's text, the group a block falls in. */
export function topFrame(block: ImportedBlock, framesOf: FramesOf): string {
  const first = framesOf(block)[0];
  return first === undefined ? NO_FRAME : frameText(first);
}

/** Reserved (segment) bytes of a device after a seq: a step function, sorted by seq. */
export interface ReservedStep {
  readonly seq: number;
  readonly bytes: number;
}

/**
 * The device's reserved bytes over time, from the session's events: a segment is a device
 * allocation (alloc/free) or, for expandable segments, physical memory mapped into a reservation
 * (physAlloc/physRelease). Sizes are what the recording said (`size`), not the pages behind them.
 */
export function reservedSteps(events: readonly MemoryEvent[], device: number): ReservedStep[] {
  const sizes = new Map<number, number>();
  const steps: ReservedStep[] = [];
  let bytes = 0;
  for (const event of events) {
    let change = 0;
    if ((event.kind === 'alloc' || event.kind === 'physAlloc') && event.device === device) {
      sizes.set(event.id, event.size);
      change = event.size;
    } else if (event.kind === 'free' || event.kind === 'physRelease') {
      const size = sizes.get(event.id);
      if (size === undefined) continue;
      sizes.delete(event.id);
      change = -size;
    }
    if (change === 0) continue;
    bytes += change;
    steps.push({ seq: event.seq, bytes });
  }
  return steps;
}

/** Reserved bytes right after `seq`. */
export function reservedAt(steps: readonly ReservedStep[], seq: number): number {
  let low = 0;
  let high = steps.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((steps[mid]?.seq ?? 0) <= seq) low = mid + 1;
    else high = mid;
  }
  return low === 0 ? 0 : (steps[low - 1]?.bytes ?? 0);
}

/** The seq a block stops being allocated at (free requested or, failing that, completed). */
const allocatedUntil = (block: ImportedBlock): number | undefined => block.freeRequestedSeq ?? block.freeCompletedSeq;

export interface FrameGroup {
  readonly frame: string;
  readonly bytes: number;
  readonly blocks: number;
}

/** Blocks grouped by their top frame, biggest first (ties by frame text, so the order is stable). */
export function groupByTopFrame(blocks: readonly ImportedBlock[], framesOf: FramesOf): FrameGroup[] {
  const groups = new Map<string, { bytes: number; blocks: number }>();
  for (const block of blocks) {
    const frame = topFrame(block, framesOf);
    const group = groups.get(frame) ?? { bytes: 0, blocks: 0 };
    group.bytes += block.size;
    group.blocks += 1;
    groups.set(frame, group);
  }
  return [...groups].map(([frame, g]) => ({ frame, ...g })).sort((a, b) => b.bytes - a.bytes || a.frame.localeCompare(b.frame));
}

export interface PeakExplanation {
  /** The seq after which allocated bytes were highest (the first such seq). */
  readonly seq: number;
  readonly allocated: number;
  readonly reserved: number;
  /** Bytes of blocks pending free at the peak: held, not allocated. */
  readonly pendingFree: number;
  /** reserved − allocated: bytes the segments held that no allocated block used. */
  readonly fragmentation: number;
  /** fragmentation / reserved (0 when nothing was reserved). */
  readonly fragmentationShare: number;
  /** The allocated blocks at the peak, by top frame; their bytes add up to `allocated`. */
  readonly groups: readonly FrameGroup[];
  readonly blocks: readonly ImportedBlock[];
}

/** When allocated bytes peaked, what was allocated then by top frame, and how much of the reserved memory was not. */
export function explainPeak(
  blocks: readonly ImportedBlock[],
  reserved: readonly ReservedStep[],
  framesOf: FramesOf,
): PeakExplanation | undefined {
  if (blocks.length === 0) return undefined;
  const changes = new Map<number, number>();
  for (const block of blocks) {
    changes.set(block.allocSeq, (changes.get(block.allocSeq) ?? 0) + block.size);
    const until = allocatedUntil(block);
    if (until !== undefined) changes.set(until, (changes.get(until) ?? 0) - block.size);
  }
  let allocated = 0;
  let peak = { seq: 0, allocated: -1 };
  for (const [seq, change] of [...changes].sort((a, b) => a[0] - b[0])) {
    allocated += change;
    if (allocated > peak.allocated) peak = { seq, allocated };
  }
  const alive = blocks.filter((block) => blockStateAt(block, peak.seq) === 'active_allocated');
  const pendingFree = blocks.reduce((sum, b) => sum + (blockStateAt(b, peak.seq) === 'active_pending_free' ? b.size : 0), 0);
  const reservedBytes = reservedAt(reserved, peak.seq);
  const fragmentation = reservedBytes - peak.allocated;
  return {
    seq: peak.seq,
    allocated: peak.allocated,
    reserved: reservedBytes,
    pendingFree,
    fragmentation,
    fragmentationShare: reservedBytes > 0 ? fragmentation / reservedBytes : 0,
    groups: groupByTopFrame(alive, framesOf),
    blocks: alive.sort((a, b) => b.size - a.size),
  };
}

export interface Leaks {
  readonly from: number;
  readonly to: number;
  readonly bytes: number;
  readonly groups: readonly FrameGroup[];
  /** Biggest first. */
  readonly blocks: readonly ImportedBlock[];
}

/** Blocks allocated after `from` and at or before `to` that are still allocated at `to` (either order of the marks). */
export function leaksBetween(blocks: readonly ImportedBlock[], a: number, b: number, framesOf: FramesOf): Leaks {
  const from = Math.min(a, b);
  const to = Math.max(a, b);
  const leaked = blocks.filter((block) => block.allocSeq > from && block.allocSeq <= to && blockStateAt(block, to) === 'active_allocated');
  return {
    from,
    to,
    bytes: leaked.reduce((sum, block) => sum + block.size, 0),
    groups: groupByTopFrame(leaked, framesOf),
    blocks: leaked.sort((x, y) => y.size - x.size),
  };
}

/** Whether any frame of the block's stack holds `text` (case-insensitive) in its name or file; an empty text matches all. */
export function stackContains(block: ImportedBlock, text: string, framesOf: FramesOf): boolean {
  const needle = text.trim().toLowerCase();
  if (needle === '') return true;
  return framesOf(block).some((frame) => frame.name.toLowerCase().includes(needle) || frame.filename.toLowerCase().includes(needle));
}

/**
 * The seqs of the calls (alloc, free_requested, free_completed) of every block whose stack holds
 * `text`: what the log keeps of an imported session under the stack filter. Undefined for an empty
 * text (no filter).
 */
export function stackMatchSeqs(blocks: readonly ImportedBlock[], text: string, framesOf: FramesOf): ReadonlySet<number> | undefined {
  if (text.trim() === '') return undefined;
  const seqs = new Set<number>();
  for (const block of blocks) {
    if (!stackContains(block, text, framesOf)) continue;
    seqs.add(block.allocSeq);
    if (block.freeRequestedSeq !== undefined) seqs.add(block.freeRequestedSeq);
    if (block.freeCompletedSeq !== undefined) seqs.add(block.freeCompletedSeq);
  }
  return seqs;
}
