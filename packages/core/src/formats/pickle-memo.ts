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

export class Memo {
  private readonly cells: (PickleValue | number)[] = [];
  /** One past the highest index stored: where MEMOIZE stores next. */
  length = 0;

  /** The value at `index`, or undefined when none was stored. */
  value(index: number): PickleValue | undefined {
    return this.cells[2 * index] as PickleValue | undefined;
  }

  meta(index: number): number {
    return (this.cells[2 * index + 1] as number | undefined) ?? 0;
  }

  put(index: number, value: PickleValue, meta: number): void {
    this.cells[2 * index] = value;
    this.cells[2 * index + 1] = meta;
    if (index >= this.length) this.length = index + 1;
  }

  /** Puts another value at `index`, keeping what is known of it (trace streaming lets go of consumed entries). */
  replace(index: number, value: PickleValue): void {
    this.cells[2 * index] = value;
  }

  /** The entry of a container once it sits inside another: no longer open on the stack. */
  close(index: number): void {
    const meta = this.meta(index);
    this.cells[2 * index + 1] = packMeta(-1, metaDepth(meta), meta & 1);
  }

  deepen(index: number, depth: number): void {
    const meta = this.meta(index);
    this.cells[2 * index + 1] = packMeta(metaSlot(meta), depth, meta & 1);
  }
}
