import type { PickleValue } from './pickle-values.ts';

/**
 * The reader's memo. Each entry is its value and a number describing it, side by side in one
 * array, so that a reference reads one cache line: with 200,000 frame dicts the memo outgrows the
 * cache, and with value and facts in separate arrays each reference to a frame cost two misses
 * (the reader never reads the frame dict itself, a third). The number packs
 * (slot + 1) · 2^20 + depth · 2 + container: the stack slot of a container while it is fresh on
 * the stack (else -1), its nesting depth (bits 1–19, hence MAX_DEPTH_LIMIT), and 1 for a list,
 * dict or bytes (a value that is shared, not copied, when referenced).
 */
const SLOT_UNIT = 2 ** 20;
export const MAX_DEPTH_LIMIT = 2 ** 19 - 1;

export function packMeta(slot: number, depth: number, container: number): number {
  return (slot + 1) * SLOT_UNIT + depth * 2 + container;
}

export function metaSlot(meta: number): number {
  return Math.floor(meta / SLOT_UNIT) - 1;
}

export function metaDepth(meta: number): number {
  return (meta & (SLOT_UNIT - 1)) >>> 1;
}

export function metaShared(meta: number): boolean {
  return (meta & 1) === 1;
}

/**
 * What a memo entry consumed by trace streaming (pickle-trace-stream.ts) reads as: an empty list
 * that may not be changed (closed, depth 1, shared), so a sink that meets one where it expected a
 * dict says so.
 */
export const CONSUMED: PickleValue[] = Object.freeze([]) as unknown as PickleValue[];
const CONSUMED_META = packMeta(-1, 1, 1);

/** Memo entries per chunk. */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const OFFSET = CHUNK - 1;

/**
 * A chunk of the memo that trace streaming has passed: which of its entries were consumed (a bit
 * each), and the others — frame dicts and texts first seen inside the trace — by offset with their
 * values and facts. A 10 M-entry trace memoizes some 20 M entry dicts and frames lists; held as they
 * were stored, their cells alone outgrew a worker's heap, while settled they take 2 bits each.
 */
class SettledChunk {
  readonly consumed = new Uint32Array(CHUNK / 32);
  readonly offsets: Uint16Array;
  readonly cells: (PickleValue | number)[] = [];

  constructor(dense: readonly (PickleValue | number | undefined)[]) {
    const offsets: number[] = [];
    for (let offset = 0; offset < CHUNK; offset += 1) {
      const value = dense[2 * offset];
      if (value === undefined) continue;
      if (value === CONSUMED) {
        this.consumed[offset >>> 5] = (this.consumed[offset >>> 5] ?? 0) | (1 << (offset & 31));
        continue;
      }
      offsets.push(offset);
      this.cells.push(value, dense[2 * offset + 1] ?? 0);
    }
    this.offsets = Uint16Array.from(offsets);
  }

  isConsumed(offset: number): boolean {
    return ((this.consumed[offset >>> 5] ?? 0) & (1 << (offset & 31))) !== 0;
  }

  /** The position of `offset` among the kept entries, or -1. */
  find(offset: number): number {
    const offsets = this.offsets;
    let low = 0;
    let high = offsets.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = offsets[mid] ?? 0;
      if (at === offset) return mid;
      if (at < offset) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** The chunk as stored cells again (a data pickle never stores into a chunk the trace has passed; a hostile one may). */
  dense(): (PickleValue | number)[] {
    const cells: (PickleValue | number)[] = [];
    for (let offset = 0; offset < CHUNK; offset += 1) {
      if (!this.isConsumed(offset)) continue;
      cells[2 * offset] = CONSUMED;
      cells[2 * offset + 1] = CONSUMED_META;
    }
    this.offsets.forEach((offset, k) => {
      cells[2 * offset] = this.cells[2 * k] ?? null;
      cells[2 * offset + 1] = this.cells[2 * k + 1] ?? 0;
    });
    return cells;
  }
}

/**
 * The memo in chunks of CHUNK entries, each a value and its facts side by side. A chunk from which
 * trace streaming consumed entries is settled once the stream has passed it (`settle`): its
 * consumed entries become bits, so the memo grows with what the file keeps, not with its trace.
 */
export class Memo {
  /** Per chunk, its cells while stored as they came (undefined once settled or never stored). */
  private readonly stored: ((PickleValue | number)[] | undefined)[] = [];
  private readonly settled: (SettledChunk | undefined)[] = [];
  /** Per chunk, how many of its entries were consumed. */
  private readonly consumedIn: number[] = [];
  /** Chunks below this one have been looked at by `settle` (and are not looked at again). */
  private settledBelow = 0;
  /** One past the highest index stored: where MEMOIZE stores next. */
  length = 0;

  /** How many chunks are held settled (what a test of the memo's size looks at). */
  get settledChunks(): number {
    return this.settled.reduce((count, chunk) => count + (chunk === undefined ? 0 : 1), 0);
  }

  /** The value at `index`, or undefined when none was stored. */
  value(index: number): PickleValue | undefined {
    const chunk = Math.floor(index / CHUNK);
    const cells = this.stored[chunk];
    if (cells !== undefined) return cells[2 * (index & OFFSET)] as PickleValue | undefined;
    const settled = this.settled[chunk];
    if (settled === undefined) return undefined;
    const offset = index & OFFSET;
    if (settled.isConsumed(offset)) return CONSUMED;
    const at = settled.find(offset);
    return at < 0 ? undefined : (settled.cells[2 * at] as PickleValue);
  }

  meta(index: number): number {
    const chunk = Math.floor(index / CHUNK);
    const cells = this.stored[chunk];
    if (cells !== undefined) return (cells[2 * (index & OFFSET) + 1] as number | undefined) ?? 0;
    const settled = this.settled[chunk];
    if (settled === undefined) return 0;
    const offset = index & OFFSET;
    if (settled.isConsumed(offset)) return CONSUMED_META;
    const at = settled.find(offset);
    return at < 0 ? 0 : ((settled.cells[2 * at + 1] as number | undefined) ?? 0);
  }

  put(index: number, value: PickleValue, meta: number): void {
    const cells = this.cellsOf(Math.floor(index / CHUNK));
    const offset = index & OFFSET;
    cells[2 * offset] = value;
    cells[2 * offset + 1] = meta;
    if (index >= this.length) this.length = index + 1;
  }

  /** The entry at `index` was consumed by trace streaming: it reads as the consumed value from now on. */
  consume(index: number): void {
    const chunk = Math.floor(index / CHUNK);
    const cells = this.cellsOf(chunk);
    const offset = index & OFFSET;
    if (cells[2 * offset] === CONSUMED) return;
    cells[2 * offset] = CONSUMED;
    cells[2 * offset + 1] = CONSUMED_META;
    this.consumedIn[chunk] = (this.consumedIn[chunk] ?? 0) + 1;
  }

  /**
   * Settles every whole chunk below `length` that has consumed entries, once: trace streaming calls
   * this after a batch, when nothing memoized so far is waiting to be consumed.
   */
  settle(): void {
    const whole = Math.floor(this.length / CHUNK);
    for (; this.settledBelow < whole; this.settledBelow += 1) {
      const chunk = this.settledBelow;
      const cells = this.stored[chunk];
      if (cells === undefined || (this.consumedIn[chunk] ?? 0) === 0) continue;
      this.settled[chunk] = new SettledChunk(cells);
      this.stored[chunk] = undefined;
    }
  }

  /** The entry of a container once it sits inside another: no longer open on the stack. */
  close(index: number): void {
    const meta = this.meta(index);
    this.setMeta(index, packMeta(-1, metaDepth(meta), meta & 1));
  }

  deepen(index: number, depth: number): void {
    const meta = this.meta(index);
    this.setMeta(index, packMeta(metaSlot(meta), depth, meta & 1));
  }

  private setMeta(index: number, meta: number): void {
    const cells = this.cellsOf(Math.floor(index / CHUNK));
    cells[2 * (index & OFFSET) + 1] = meta;
  }

  /** A chunk's stored cells, made again from its settled form if it had one. */
  private cellsOf(chunk: number): (PickleValue | number)[] {
    const cells = this.stored[chunk];
    if (cells !== undefined) return cells;
    const settled = this.settled[chunk];
    const made = settled === undefined ? [] : settled.dense();
    this.settled[chunk] = undefined;
    this.stored[chunk] = made;
    return made;
  }
}
