import { FormatError } from './format-error.ts';
import { framesOf } from './frames.ts';
import type { PickleValue } from './pickle-values.ts';
import type { Frame, StackFrames } from './snapshot-types.ts';

/**
 * Stacks interned: each distinct frame once, each distinct stack once as a run of frame indices, in
 * typed arrays. A worker sends a table like this to the page instead of the stacks themselves:
 * cloning millions of frame references (tens of frames per block, shared through the pickle memo)
 * took seconds on the page's thread, the arrays transfer at no cost.
 *
 * Stack `s` is frame ids `starts[s] … starts[s + 1]`, innermost first, where frame id `i` is
 * `frameIds[i >> FRAME_ID_CHUNK_BITS][i & FRAME_ID_CHUNK_MASK]`: the ids stay in the fixed chunks
 * they were written in (4 MiB each), so the table is never copied whole to be cut to length.
 */
export interface StackTable {
  readonly frames: readonly Frame[];
  readonly starts: Int32Array;
  readonly frameIds: readonly Int32Array[];
}

export const FRAME_ID_CHUNK_BITS = 20;
const CHUNK = 1 << FRAME_ID_CHUNK_BITS;
const FRAME_ID_CHUNK_MASK = CHUNK - 1;

/** No stack recorded; a stack that is not a list of frames (framesOf refused it). */
export const NO_STACK = -1;
export const BAD_STACK = -2;

/**
 * A growing run of int32s in chunks of CHUNK (every one full but the last, so id `i` is in chunk
 * `i >> FRAME_ID_CHUNK_BITS`): a 1 M-event file's blocks hold ~19 M frame references.
 * Grown by doubling and cut to length, the run held a 128 MiB buffer and its 75 MB cut at once,
 * at the moment the import's heap was fullest (the renderer's peak).
 */
class IntRun {
  readonly #full: Int32Array<ArrayBuffer>[] = [];
  #chunk: Int32Array<ArrayBuffer> = new Int32Array(1024);
  #used = 0;

  get length(): number {
    return this.#full.length * CHUNK + this.#used;
  }

  /** The value at `i` (< length). */
  at(i: number): number {
    const inFull = this.#full.length * CHUNK;
    return (i < inFull ? this.#full[i >> FRAME_ID_CHUNK_BITS]?.[i & FRAME_ID_CHUNK_MASK] : this.#chunk[i - inFull]) ?? 0;
  }

  /** Forgets values from `length` on (only back to the start of the current chunk's run or later). */
  truncate(length: number): void {
    const chunks = Math.floor(length / CHUNK);
    while (this.#full.length > chunks) {
      const last = this.#full.pop();
      if (last !== undefined) this.#chunk = last;
    }
    this.#used = length - chunks * CHUNK;
  }

  push(value: number): void {
    if (this.#used === this.#chunk.length) {
      if (this.#chunk.length < CHUNK) {
        // The first chunk starts small and doubles up to CHUNK: a small file's table stays small.
        const grown = new Int32Array(this.#chunk.length * 2);
        grown.set(this.#chunk);
        this.#chunk = grown;
      } else {
        this.#full.push(this.#chunk);
        this.#chunk = new Int32Array(CHUNK);
        this.#used = 0;
      }
    }
    this.#chunk[this.#used] = value;
    this.#used += 1;
  }

  /** The chunks, the last cut to its length (a view: the chunk's buffer goes with it). */
  chunks(): Int32Array[] {
    return [...this.#full, this.#chunk.subarray(0, this.#used)];
  }

  /** One exact copy. */
  done(): Int32Array {
    const out = new Int32Array(this.length);
    this.#full.forEach((chunk, i) => {
      out.set(chunk, i * CHUNK);
    });
    out.set(this.#chunk.subarray(0, this.#used), this.#full.length * CHUNK);
    return out;
  }
}

/**
 * Stacks interned one at a time, as a session is built: each block keeps the id, so the stacks'
 * frame references never pile up beside the table. A frame is checked (framesOf) the first time it
 * is seen; after that its index is all that is looked up, since frames are shared objects (the
 * pickle memo) across a file's stacks.
 *
 * Stacks are kept once by content too: the pickler writes a new list for every entry's stack, but
 * a training loop allocates from the same few call sites step after step. The public CUDA snapshot
 * in test/formats/fixtures/public has 1,721 alloc entries and 43 distinct stacks (7,782 frame
 * references, 428 once each), so by identity alone the table would hold each stack some 40 times.
 */
export class StackInterner {
  // Weak: a frame the file no longer holds must not be kept alive by being looked up once. Stacks
  // are found by content, not by list: the pickler writes a new list for every entry.
  readonly #frameIndex = new WeakMap<object, number>();
  readonly #frames: Frame[] = [];
  readonly #starts = new IntRun();
  readonly #frameIds = new IntRun();
  /** A hash of each stack's frame ids → the stack (or stacks, when two hash alike) with them. */
  readonly #byContent = new Map<number, number | number[]>();
  /** The ids of the stack being added. */
  #scratch = new Int32Array(64);

  constructor() {
    this.#starts.push(0);
  }

  /** The stack's id, NO_STACK when it is empty, BAD_STACK when it is not a list of frames. */
  add(stack: StackFrames): number {
    if (stack.length === 0) return NO_STACK;
    if (this.#scratch.length < stack.length) this.#scratch = new Int32Array(stack.length * 2);
    const ids = this.#scratch;
    let hash = 0x811c9dc5 ^ stack.length;
    for (let i = 0; i < stack.length; i += 1) {
      const frame = stack[i];
      // A frame that is not an object fails framesOf below; only objects are remembered.
      const key = typeof frame === 'object' && frame !== null ? frame : undefined;
      let index = key === undefined ? undefined : this.#frameIndex.get(key);
      if (index === undefined) {
        index = this.#newFrame(frame ?? null, key);
        if (index === undefined) return BAD_STACK;
      }
      ids[i] = index;
      hash = Math.imul(hash ^ index, 0x01000193);
    }
    return this.#sameContent(ids, stack.length, hash) ?? this.#newStack(ids, stack.length, hash);
  }

  /** Checks a frame seen for the first time and gives it the next index; undefined when it is not a frame. */
  #newFrame(frame: PickleValue, key: object | undefined): number | undefined {
    let checked: Frame | undefined;
    try {
      checked = framesOf([frame])[0];
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
    }
    if (checked === undefined) return undefined;
    const index = this.#frames.length;
    const own = { filename: checked.filename, line: checked.line, name: checked.name };
    this.#frames.push(own);
    if (key !== undefined) this.#frameIndex.set(key, index);
    // The table's own frame is known too: a stack read back from it (stackFrames) interns to itself.
    this.#frameIndex.set(own, index);
    return index;
  }

  /** A new stack of the first `length` ids, noted under its hash. */
  #newStack(ids: Int32Array, length: number, hash: number): number {
    for (let i = 0; i < length; i += 1) this.#frameIds.push(ids[i] ?? 0);
    const id = this.#starts.length - 1;
    this.#starts.push(this.#frameIds.length);
    const known = this.#byContent.get(hash);
    if (known === undefined) this.#byContent.set(hash, id);
    else if (typeof known === 'number') this.#byContent.set(hash, [known, id]);
    else known.push(id);
    return id;
  }

  /** An earlier stack whose frame ids are the first `length` of `ids`; undefined when there is none. */
  #sameContent(ids: Int32Array, length: number, hash: number): number | undefined {
    const known = this.#byContent.get(hash);
    if (known === undefined) return undefined;
    for (const candidate of typeof known === 'number' ? [known] : known) {
      const from = this.#starts.at(candidate);
      if (this.#starts.at(candidate + 1) - from !== length) continue;
      let same = true;
      for (let i = 0; same && i < length; i += 1) same = this.#frameIds.at(from + i) === ids[i];
      if (same) return candidate;
    }
    return undefined;
  }

  /** The frames of stack `id` as the table holds them, innermost first; [] for NO_STACK, BAD_STACK or an unknown id. */
  frames(id: number): Frame[] {
    if (id < 0 || id + 1 >= this.#starts.length) return [];
    const frames: Frame[] = [];
    for (let i = this.#starts.at(id), end = this.#starts.at(id + 1); i < end; i += 1) {
      const frame = this.#frames[this.#frameIds.at(i)];
      if (frame !== undefined) frames.push(frame);
    }
    return frames;
  }

  /** The table of every stack added so far. */
  table(): StackTable {
    return { frames: [...this.#frames], starts: this.#starts.done(), frameIds: this.#frameIds.chunks() };
  }
}

/** The frames of stack `id`, innermost first; [] for NO_STACK, BAD_STACK or an id the table lacks. */
export function stackFrames(table: StackTable, id: number): Frame[] {
  if (id < 0 || id + 1 >= table.starts.length) return [];
  const from = table.starts[id] ?? 0;
  const to = table.starts[id + 1] ?? from;
  const frames: Frame[] = [];
  for (let i = from; i < to; i += 1) {
    const frame = table.frames[table.frameIds[i >> FRAME_ID_CHUNK_BITS]?.[i & FRAME_ID_CHUNK_MASK] ?? -1];
    if (frame !== undefined) frames.push(frame);
  }
  return frames;
}
