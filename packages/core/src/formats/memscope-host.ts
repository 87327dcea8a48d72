import type { MemScopeEvent } from './ascend-csv.ts';
import { bareSegment, type Segment, type StackFrames, type TraceEntry, traceEntry } from './snapshot-types.ts';

const MiB = 1024 * 1024;

/** Why a HOST row was not placed (each one of memscope-session.ts MEMSCOPE_UNPLACED). */
export type HostUnplaced = 'host' | 'no-address' | 'no-size' | 'free-unknown';

/**
 * msMemScope's pinned host memory, row by row, as a snapshot's host trace and final host segments
 * (host-replay.ts makes them the model's pinned host buffers). msMemScope writes locked host memory
 * as Event Type HOST with `pinned:true` in Attr (it is the HAL pool's, on the CPU device); a CPU
 * tensor's data is HOST without it (Ascend/msmemscope `csrc/analysis/dump.cpp` DumpMemoryEvent, at
 * 7807ecf). The output spec also names an Event Type HOST_PINNED for pinned memory (docs/zh
 * output_file_spec.md, same commit): both are read.
 */
export class PinnedHostRows {
  /** Entries with times in ns after the first row until `finish`. */
  readonly #trace: TraceEntry[] = [];
  /** Live allocations: address → size. */
  readonly #live = new Map<bigint, number>();
  /** Rows placed. */
  rows = 0;

  /** A HOST or HOST_PINNED row at `ns`; `frames` gives a MALLOC's stack when it is placed. */
  place(event: MemScopeEvent, address: bigint | undefined, ns: number, frames: () => StackFrames): HostUnplaced | undefined {
    // A FREE of a pinned allocation is the allocation's, whether or not its own Attr says pinned.
    const freesPinned = event.event === 'FREE' && address !== undefined && this.#live.has(address);
    const pinned = event.eventType === 'HOST_PINNED' || event.attr.pinned?.trim() === 'true';
    if (!pinned && !freesPinned) return 'host';
    if (address === undefined) return 'no-address';
    if (event.event === 'MALLOC') {
      if (event.size === undefined) return 'no-size';
      this.#live.set(address, event.size);
      this.#trace.push(traceEntry('segment_alloc', address, event.size, ns, frames()));
    } else {
      const size = this.#live.get(address);
      if (size === undefined) return 'free-unknown';
      this.#live.delete(address);
      this.#trace.push(traceEntry('segment_free', address, size, ns, NO_FRAMES));
    }
    this.rows += 1;
    return undefined;
  }

  /**
   * The host trace, each time through `retime` (ns → the snapshot's µs), and the allocations live
   * after the last row as the final host segments, by address; both undefined when no row was placed.
   */
  finish(retime: (ns: number) => number): { hostSegments: Segment[] | undefined; hostTraces: TraceEntry[] | undefined } {
    if (this.#trace.length === 0) return { hostSegments: undefined, hostTraces: undefined };
    return {
      hostTraces: this.#trace.map((item) => ({ ...item, timeUs: retime(item.timeUs ?? 0) })),
      hostSegments: [...this.#live]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([address, size]) => bareSegment(-1, address, size, { segmentType: size > MiB ? 'large' : 'small' })),
    };
  }
}

/** A FREE gives back what its MALLOC took: the entry has no stack of its own. */
export const NO_FRAMES: StackFrames = Object.freeze([]);
