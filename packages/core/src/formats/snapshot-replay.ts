import type { MemorySnapshot, StackFrames } from './snapshot-types.ts';
import { bareEntry } from './trace-columns.ts';

/**
 * What was live on a device when its trace began. The trace is a ring buffer (formats.md): it may
 * start long after the process did, so the segments and blocks of that moment are inferred by
 * walking the trace backwards from the final state, undoing each entry: a segment_free means the
 * segment existed before it, a segment_alloc that it did not; likewise segment_unmap / segment_map
 * for the mapped ranges of expandable segments, and free_completed / alloc for blocks.
 */
export interface LiveBlock {
  readonly size: number;
  readonly stream: bigint;
  readonly frames: StackFrames;
  /** The stack's id when the trace holds it interned already (trace-columns.ts); `frames` are then not read. */
  readonly stack?: number | undefined;
  /** free_requested but not yet free_completed. */
  pending: boolean;
}

export interface LiveSets {
  /** Non-expandable segments: recorded address → total_size. */
  readonly segments: Map<bigint, number>;
  /** Mapped ranges of expandable segments, [start, end) sorted by start, disjoint. */
  readonly mapped: [bigint, bigint][];
  readonly blocks: Map<bigint, LiveBlock>;
}

/** Adds [start, end) to a sorted, disjoint list of ranges, joining what it touches. */
export function addRange(ranges: [bigint, bigint][], start: bigint, end: bigint): void {
  if (end <= start) return;
  let lo = start;
  let hi = end;
  const kept: [bigint, bigint][] = [];
  for (const [a, b] of ranges) {
    if (b < lo || a > hi) kept.push([a, b]);
    else {
      if (a < lo) lo = a;
      if (b > hi) hi = b;
    }
  }
  kept.push([lo, hi]);
  kept.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  ranges.splice(0, ranges.length, ...kept);
}

/** Removes [start, end) from a sorted, disjoint list of ranges, splitting what it cuts. */
export function removeRange(ranges: [bigint, bigint][], start: bigint, end: bigint): void {
  const kept: [bigint, bigint][] = [];
  for (const [a, b] of ranges) {
    if (b <= start || a >= end) {
      kept.push([a, b]);
      continue;
    }
    if (a < start) kept.push([a, start]);
    if (b > end) kept.push([end, b]);
  }
  ranges.splice(0, ranges.length, ...kept);
}

export function initialLiveSets(snapshot: MemorySnapshot, device: number): LiveSets {
  const segments = new Map<bigint, number>();
  const mapped: [bigint, bigint][] = [];
  const blocks = new Map<bigint, LiveBlock>();
  for (const segment of snapshot.segments) {
    if (segment.device !== device) continue;
    if (segment.isExpandable) addRange(mapped, segment.address, segment.address + BigInt(segment.totalSize));
    else segments.set(segment.address, segment.totalSize);
    for (const block of segment.blocks) {
      if (block.state === 'inactive') continue;
      blocks.set(block.address, {
        size: block.size,
        stream: segment.stream,
        frames: block.frames,
        pending: block.state === 'active_pending_free',
      });
    }
  }
  const trace = snapshot.deviceTraces[device] ?? [];
  for (let i = trace.length - 1; i >= 0; i -= 1) {
    const entry = bareEntry(trace, i);
    if (entry === undefined) continue;
    const end = entry.addr + BigInt(entry.size);
    switch (entry.action) {
      case 'segment_alloc':
        segments.delete(entry.addr);
        break;
      case 'segment_free':
        segments.set(entry.addr, entry.size);
        break;
      case 'segment_map':
        removeRange(mapped, entry.addr, end);
        break;
      case 'segment_unmap':
        addRange(mapped, entry.addr, end);
        break;
      case 'alloc':
        blocks.delete(entry.addr);
        break;
      case 'free_requested': {
        const block = blocks.get(entry.addr);
        if (block !== undefined) block.pending = false;
        break;
      }
      case 'free_completed':
        // The frames of this entry only (bareEntry leaves them out of the rest).
        blocks.set(entry.addr, { size: entry.size, stream: entry.stream, frames: trace.at(i)?.frames ?? [], pending: true });
        break;
      default:
        break;
    }
  }
  return { segments, mapped, blocks };
}
