import type { MemoryEvent } from '../model/events.ts';
import type { BlockIndex, ImportedBlock } from './block-index.ts';
import { type AllocatorModel, expandableHandleBytes, SMALL_BLOCK_BYTES } from './segment-pages.ts';
import type { Frame } from './snapshot-types.ts';

/**
 * Questions an imported file answers from its blocks (block-index.ts) and its segments' events:
 * explain the peak, leaks between two points, blocks whose stack holds some text. Pure functions of
 * the blocks and a way to read a stack's frames by its id (the session's interned table). They read
 * the index's columns and make objects only for the blocks they answer with: a 10 M-entry file has
 * 5 M blocks, of which a peak holds a few thousand.
 *
 * Figures are the file's own: a block's `size` is the allocator's rounded size; `allocated` is the
 * bytes of active_allocated blocks (the snapshot's allocated_size), `reserved` the bytes of the
 * segments (total_size). A block pending free still holds its bytes but is not allocated: it
 * counts in the fragmentation, as the allocator cannot hand it out yet.
 */
export type FramesOf = (stack: number) => readonly Frame[];

/** The group of a block without a stack, or with a stack the file did not record. */
export const NO_FRAME = '(no stack recorded)';

/** A frame as one line: `name (file:line)`. */
export const frameText = (frame: Frame): string => `${frame.name} (${frame.filename}:${frame.line})`;

/** The innermost recorded frame's text, the group a block falls in. */
export function topFrame(block: ImportedBlock, framesOf: FramesOf): string {
  const first = framesOf(block.stack)[0];
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
  /** Biggest first. */
  readonly blocks: readonly ImportedBlock[];
  /** What expandable_segments could have changed at the peak (a bound); undefined when no model was given. */
  readonly expandable: ExpandableBound | undefined;
}

/**
 * A what-if at a peak, as a bound: with expandable_segments, torch_npu's allocator grows one
 * reservation per stream and pool by mapping physical handles (segment-pages.ts
 * expandableHandleBytes) instead of allocating a segment per request, so the blocks held at the
 * peak (allocated or pending free) need at least their bytes, per stream and pool, in whole handles.
 * The allocator's own placement may need more: this is not a replay of it.
 */
export interface ExpandableBound {
  /** The least the held blocks' expandable segments map. */
  readonly bytes: number;
  /** reserved − bytes, or 0: the most expandable_segments could have given back at this peak. */
  readonly saving: number;
  /** The large pool's handle size on this model (20 MiB, or 1 GiB with page_size:1g). */
  readonly largeHandle: number;
}

/** The bound for the blocks held at a peak (see ExpandableBound). */
export function expandableBound(
  held: readonly Pick<ImportedBlock, 'size' | 'stream'>[],
  reserved: number,
  model: AllocatorModel,
): ExpandableBound {
  const giant = model.pageSize1g && model.profile.features.giantPages;
  const perPool = new Map<string, { small: boolean; bytes: number }>();
  for (const block of held) {
    const small = block.size <= SMALL_BLOCK_BYTES;
    const key = `${block.stream}/${small ? 's' : 'l'}`;
    const pool = perPool.get(key) ?? { small, bytes: 0 };
    pool.bytes += block.size;
    perPool.set(key, pool);
  }
  let bytes = 0;
  for (const { small, bytes: held } of perPool.values()) {
    const handle = expandableHandleBytes(small, giant && !small);
    bytes += Math.ceil(held / handle) * handle;
  }
  return { bytes, saving: Math.max(0, reserved - bytes), largeHandle: expandableHandleBytes(false, giant) };
}

/** The seq a block stops being allocated at (free requested or, failing that, completed). */
function allocatedUntil(index: BlockIndex, row: number): number | undefined {
  return index.freeRequestedSeq(row) ?? index.freeCompletedSeq(row);
}

/**
 * Seqs spanning more than this many per block are swept through a map of the seqs that change,
 * not an array of every seq: a session's seqs are dense (one per event), a hand-made index need not be.
 */
const SPAN_PER_BLOCK = 8;

/** The first seq after which the blocks' allocated bytes are highest, and those bytes. */
function allocatedPeak(index: BlockIndex, rows: Uint32Array): { seq: number; allocated: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const row of rows) {
    first = Math.min(first, index.allocSeq(row));
    last = Math.max(last, index.allocSeq(row), allocatedUntil(index, row) ?? 0);
  }
  const span = last - first + 1;
  const changes = span <= SPAN_PER_BLOCK * rows.length + 1024 ? new Float64Array(span) : new Map<number, number>();
  const add = (seq: number, bytes: number): void => {
    if (changes instanceof Float64Array) changes[seq - first] = (changes[seq - first] ?? 0) + bytes;
    else changes.set(seq, (changes.get(seq) ?? 0) + bytes);
  };
  for (const row of rows) {
    add(index.allocSeq(row), index.size(row));
    const until = allocatedUntil(index, row);
    if (until !== undefined) add(until, -index.size(row));
  }
  let allocated = 0;
  let peak = { seq: 0, allocated: -1 };
  // Allocated bytes change only at seqs that hold a change, so the first seq at the maximum is one of them.
  if (changes instanceof Float64Array)
    changes.forEach((change, offset) => {
      allocated += change;
      if (allocated > peak.allocated) peak = { seq: first + offset, allocated };
    });
  else
    for (const [seq, change] of [...changes].sort((a, b) => a[0] - b[0])) {
      allocated += change;
      if (allocated > peak.allocated) peak = { seq, allocated };
    }
  return peak;
}

/** When allocated bytes peaked on `device`, what was allocated then by top frame, and how much of the reserved memory was not. */
export function explainPeak(
  index: BlockIndex,
  device: number,
  reserved: readonly ReservedStep[],
  framesOf: FramesOf,
  model?: AllocatorModel,
): PeakExplanation | undefined {
  const rows = index.rows(device);
  if (rows.length === 0) return undefined;
  const peak = allocatedPeak(index, rows);
  const alive: ImportedBlock[] = [];
  const pending: ImportedBlock[] = [];
  let pendingFree = 0;
  for (const row of rows) {
    const state = index.stateAt(row, peak.seq);
    if (state === 'active_allocated') alive.push(index.block(row));
    else if (state === 'active_pending_free') {
      pendingFree += index.size(row);
      pending.push(index.block(row));
    }
  }
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
    expandable: model === undefined ? undefined : expandableBound([...alive, ...pending], reservedBytes, model),
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

/**
 * Blocks of `device` allocated after `from` and at or before `to` that are still allocated at `to`
 * (either order of the marks); with `matches`, only blocks whose stack it takes (stackMatcher).
 */
export function leaksBetween(index: BlockIndex, device: number, a: number, b: number, framesOf: FramesOf, matches?: StackMatch): Leaks {
  const from = Math.min(a, b);
  const to = Math.max(a, b);
  const leaked: ImportedBlock[] = [];
  for (const row of index.rows(device)) {
    const allocSeq = index.allocSeq(row);
    if (allocSeq <= from || allocSeq > to || index.stateAt(row, to) !== 'active_allocated') continue;
    if (matches === undefined || matches(index.stack(row))) leaked.push(index.block(row));
  }
  return {
    from,
    to,
    bytes: leaked.reduce((sum, block) => sum + block.size, 0),
    groups: groupByTopFrame(leaked, framesOf),
    blocks: leaked.sort((x, y) => y.size - x.size),
  };
}

/** Whether a stack (by id) holds some text: see stackMatcher. */
export type StackMatch = (stack: number) => boolean;

/** Whether any frame holds `needle` (lower case) in its name or file. */
const framesHold = (frames: readonly Frame[], needle: string): boolean =>
  frames.some((frame) => frame.name.toLowerCase().includes(needle) || frame.filename.toLowerCase().includes(needle));

/**
 * Whether a stack holds `text` (case-insensitive) in any frame's name or file, each distinct stack
 * looked at once however many blocks share it; undefined for an empty text (no filter).
 */
export function stackMatcher(text: string, framesOf: FramesOf): StackMatch | undefined {
  const needle = text.trim().toLowerCase();
  if (needle === '') return undefined;
  const seen = new Map<number, boolean>();
  return (stack) => {
    let holds = seen.get(stack);
    if (holds === undefined) {
      holds = framesHold(framesOf(stack), needle);
      seen.set(stack, holds);
    }
    return holds;
  };
}

/** Whether any frame of the block's stack holds `text` (case-insensitive) in its name or file; an empty text matches all. */
export function stackContains(block: ImportedBlock, text: string, framesOf: FramesOf): boolean {
  const needle = text.trim().toLowerCase();
  return needle === '' || framesHold(framesOf(block.stack), needle);
}

/** The blocks of `device` whose stack `matches` takes (all of them without one). */
export function countMatching(index: BlockIndex, device: number, matches: StackMatch | undefined): number {
  const rows = index.rows(device);
  if (matches === undefined) return rows.length;
  let count = 0;
  for (const row of rows) if (matches(index.stack(row))) count += 1;
  return count;
}

/**
 * The seqs of the calls (alloc, free_requested, free_completed) of every block, on any device, whose
 * stack `matches` takes: what the log keeps of an imported session under the stack filter.
 */
export function stackMatchSeqs(index: BlockIndex, matches: StackMatch): ReadonlySet<number> {
  const seqs = new Set<number>();
  for (let device = 0; device < index.devices; device += 1)
    for (const row of index.rows(device)) {
      if (!matches(index.stack(row))) continue;
      seqs.add(index.allocSeq(row));
      const requested = index.freeRequestedSeq(row);
      const completed = index.freeCompletedSeq(row);
      if (requested !== undefined) seqs.add(requested);
      if (completed !== undefined) seqs.add(completed);
    }
  return seqs;
}
