import type { Frame, StackFrames, TraceAction, TraceEntry, TraceList } from './snapshot-types.ts';
import { TRACE_ACTIONS } from './snapshot-types.ts';
import { BAD_STACK, NO_STACK, type StackInterner } from './stack-table.ts';
import { intern } from './trace-calls.ts';

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;
const U64_END = 1n << 64n;
const NO_FRAMES: StackFrames = Object.freeze([]);

/** Checked frames are plain {filename, line, name} dicts: a stack as the file held it. */
const framesAsRead = (frames: readonly Frame[]): StackFrames => frames as unknown as StackFrames;

/** 37 bytes an entry: a 10 M-entry trace in 370 MB of typed arrays, outside the JS heap. */
class Chunk {
  readonly action = new Uint8Array(CHUNK);
  readonly addr = new BigUint64Array(CHUNK);
  readonly size = new Float64Array(CHUNK);
  /** Index into the streams seen. */
  readonly stream = new Uint32Array(CHUNK);
  /** µs, NaN when not recorded. */
  readonly timeUs = new Float64Array(CHUNK);
  /** 0 for none, else 1 + index into the pool ids seen. */
  readonly pool = new Uint32Array(CHUNK);
  /** Id in the list's StackInterner, or NO_STACK / BAD_STACK. */
  readonly stack = new Int32Array(CHUNK);
}

/**
 * A trace kept as columns, in chunks of 65,536 entries that are never copied to grow. As objects
 * (TraceEntry, two bigints and a frames list each) a streamed 1 M-entry trace held some 340 MB
 * of a worker's heap, and 10 M could not be kept at all; here an entry is 37 bytes and its stack an
 * id in a StackInterner the loader shares between devices (stacks repeat: stack-table.ts).
 *
 * An entry the columns cannot hold exactly (an address or stream outside 64 bits, an `oom`'s
 * device_free, a stack that is not a list of frames) is kept as itself beside them. `at` makes the
 * entry again each time it is asked. A trace's first chunk is taken whole (2.4 MB), however short.
 */
export class TraceColumns implements TraceList {
  /** A chunk is undefined once released (releaseBefore). */
  readonly #chunks: (Chunk | undefined)[] = [];
  /** Chunks released from the front so far. */
  #released = 0;
  #length = 0;
  readonly #streams: bigint[] = [];
  readonly #streamIndex = new Map<bigint, number>();
  readonly #pools: string[] = [];
  readonly #poolIndex = new Map<string, number>();
  /** Entries kept whole, by index. */
  readonly #whole = new Map<number, TraceEntry>();

  constructor(readonly stacks: StackInterner) {}

  get length(): number {
    return this.#length;
  }

  /** Appends `entry`; its stack is interned when `keepStack`, else dropped. */
  push(entry: TraceEntry, keepStack: boolean): void {
    this.#put(entry, keepStack ? this.stacks.add(entry.frames) : NO_STACK, keepStack);
  }

  /**
   * Appends `entry` whose stack the caller has interned in `stacks` already (`stack`, or NO_STACK):
   * a reader that meets one stack text row after row interns it once.
   */
  pushInterned(entry: TraceEntry, stack: number): void {
    this.#put(entry, stack, true);
  }

  #put(entry: TraceEntry, stack: number, keepFrames: boolean): void {
    const i = this.#length;
    const offset = i & MASK;
    if (offset === 0) this.#chunks.push(new Chunk());
    const chunk = this.#chunks[i >> CHUNK_BITS] as Chunk;
    this.#length += 1;
    chunk.stack[offset] = stack;
    const action = TRACE_ACTIONS.indexOf(entry.action);
    const exact = action >= 0 && entry.addr >= 0n && entry.addr < U64_END && entry.stream >= 0n && entry.stream < U64_END;
    // A stack that is not a list of frames stays as the file wrote it, for the reader to say so (perfetto.ts stackText).
    if (!exact || entry.deviceFree !== undefined || stack === BAD_STACK) {
      this.#whole.set(i, keepFrames ? entry : { ...entry, frames: NO_FRAMES });
      return;
    }
    chunk.action[offset] = action;
    chunk.addr[offset] = entry.addr;
    chunk.size[offset] = entry.size;
    chunk.stream[offset] = intern(this.#streams, this.#streamIndex, entry.stream);
    chunk.timeUs[offset] = entry.timeUs ?? Number.NaN;
    chunk.pool[offset] = entry.poolId === undefined ? 0 : 1 + intern(this.#pools, this.#poolIndex, entry.poolId);
  }

  /** The entry's stack id in `stacks` (NO_STACK when it kept none). */
  stackAt(index: number): number {
    return this.#chunks[index >> CHUNK_BITS]?.stack[index & MASK] ?? NO_STACK;
  }

  /** The entry without its frames (a reader that takes the stack by `stackAt`). */
  bareAt(index: number): TraceEntry | undefined {
    if (index < 0 || index >= this.#length) return undefined;
    const whole = this.#whole.get(index);
    if (whole !== undefined) return whole.frames.length === 0 ? whole : { ...whole, frames: NO_FRAMES };
    const chunk = this.#chunks[index >> CHUNK_BITS];
    if (chunk === undefined) throw new Error(`TraceColumns: entry ${index} was released`);
    const offset = index & MASK;
    const time = chunk.timeUs[offset] ?? Number.NaN;
    const pool = chunk.pool[offset] ?? 0;
    return {
      action: TRACE_ACTIONS[chunk.action[offset] ?? 0] as TraceAction,
      addr: chunk.addr[offset] ?? 0n,
      size: chunk.size[offset] ?? 0,
      stream: this.#streams[chunk.stream[offset] ?? 0] ?? 0n,
      timeUs: Number.isNaN(time) ? undefined : time,
      poolId: pool === 0 ? undefined : this.#pools[pool - 1],
      deviceFree: undefined,
      frames: NO_FRAMES,
    };
  }

  at(index: number): TraceEntry | undefined {
    const whole = this.#whole.get(index);
    if (whole !== undefined) return whole;
    const entry = this.bareAt(index);
    if (entry === undefined) return undefined;
    const stack = this.stackAt(index);
    return stack < 0 ? entry : { ...entry, frames: framesAsRead(this.stacks.frames(stack)) };
  }

  /** Entry `index`'s time_us, read without making the entry; undefined when it has none. */
  timeUsAt(index: number): number | undefined {
    const whole = this.#whole.get(index);
    if (whole !== undefined) return whole.timeUs;
    const time = this.#chunks[index >> CHUNK_BITS]?.timeUs[index & MASK];
    return time === undefined || Number.isNaN(time) ? undefined : time;
  }

  /** The action of entry `index`, read without making the entry. */
  actionAt(index: number): TraceAction | undefined {
    if (index < 0 || index >= this.#length) return undefined;
    const whole = this.#whole.get(index);
    if (whole !== undefined) return whole.action;
    return TRACE_ACTIONS[this.#chunks[index >> CHUNK_BITS]?.action[index & MASK] ?? 0];
  }

  /**
   * Every entry's time_us becomes `to(time_us)` (an entry without one keeps none): for a reader
   * that learns its time origin only at the end of the file (memscope-session.ts).
   */
  retime(to: (timeUs: number) => number): void {
    for (let c = 0; c < this.#chunks.length; c += 1) {
      const times = this.#chunks[c]?.timeUs;
      if (times === undefined) continue;
      const used = Math.min(CHUNK, this.#length - c * CHUNK);
      for (let k = 0; k < used; k += 1) {
        const time = times[k] ?? Number.NaN;
        if (!Number.isNaN(time)) times[k] = to(time);
      }
    }
    for (const [index, entry] of this.#whole) {
      if (entry.timeUs !== undefined) this.#whole.set(index, { ...entry, timeUs: to(entry.timeUs) });
    }
  }

  /**
   * Lets go of the chunks wholly before entry `index`: a consumed import (ImportOptions.consume)
   * reads each device's entries in order, so the file's columns shrink as the session's grow. At
   * 10 M entries they are 370 MB, which the worker held beside the whole session at its fullest.
   */
  releaseBefore(index: number): void {
    const before = Math.min(index >> CHUNK_BITS, this.#chunks.length);
    if (before <= this.#released) return;
    for (let c = this.#released; c < before; c += 1) this.#chunks[c] = undefined;
    // Entries are put in index order, so the map's first keys are the lowest.
    for (const at of this.#whole.keys()) {
      if (at >= before * CHUNK) break;
      this.#whole.delete(at);
    }
    this.#released = before;
  }

  /** Lets go of the columns (a consumed import: ImportOptions.consume). */
  release(): void {
    this.#released = 0;
    this.#chunks.length = 0;
    this.#whole.clear();
    this.#length = 0;
  }

  *[Symbol.iterator](): Iterator<TraceEntry> {
    for (let i = 0; i < this.#length; i += 1) {
      const entry = this.at(i);
      if (entry !== undefined) yield entry;
    }
  }
}

/** Entry `index` of `trace`; from columns without its frames (bareAt), which costs no stack. */
export function bareEntry(trace: TraceList, index: number): TraceEntry | undefined {
  return trace instanceof TraceColumns ? trace.bareAt(index) : trace.at(index);
}

/** Entry `index`'s action. */
export function actionAt(trace: TraceList, index: number): TraceAction | undefined {
  return trace instanceof TraceColumns ? trace.actionAt(index) : trace.at(index)?.action;
}

/** Entry `index`'s time_us. */
export function timeUsAt(trace: TraceList, index: number): number | undefined {
  return trace instanceof TraceColumns ? trace.timeUsAt(index) : trace.at(index)?.timeUs;
}

/** Whether any entry of `trace` records time_us. */
export function isTimed(trace: TraceList): boolean {
  for (let i = 0; i < trace.length; i += 1) if (timeUsAt(trace, i) !== undefined) return true;
  return false;
}

/** The interner of a snapshot's streamed traces (they share one), if its traces are columns. */
export function tracesInterner(traces: readonly TraceList[]): StackInterner | undefined {
  for (const trace of traces) if (trace instanceof TraceColumns) return trace.stacks;
  return undefined;
}
