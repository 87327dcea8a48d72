import { IntMap } from './int-map.ts';

/** A free range [start, end) in units, and where it is filed: its size class and its index in that class's list. */
interface Hole {
  start: number;
  end: number;
  sizeClass: number;
  slot: number;
}

/**
 * Virtual address ranges for the simulator: a segregated-fit allocator over [base, base + size).
 * Internally it counts in `unit`s from `base` (4 KiB for device windows), so positions stay small
 * integers; sizes round up to whole units.
 * Free holes are filed by size class (floor log2) so a fit is found in a few steps; neighbours
 * coalesce on release through maps from a hole's start and end to the hole. Deterministic: the
 * same calls give the same addresses. Ranges are half-open [start, end) in bytes.
 */
export class RangeAllocator {
  readonly base: number;
  readonly limit: number;
  readonly unit: number;
  /** Holes by their start and by their end, for coalescing on release. */
  readonly #byStart = new IntMap<Hole>();
  readonly #byEnd = new IntMap<Hole>();
  /** Holes per size class, in insertion order; removal swaps with the last (deterministic). */
  readonly #classes: Hole[][] = [];
  /** Bytes currently handed out. */
  used = 0;

  constructor(base: number, size: number, unit = 1) {
    this.base = base;
    this.limit = base + size;
    this.unit = unit;
    this.#addHole(0, Math.floor(size / unit));
  }

  #classOf(size: number): number {
    return size < 0x8000_0000 ? 31 - Math.clz32(size) : Math.floor(Math.log2(size));
  }

  #addHole(start: number, end: number): void {
    if (end <= start) return;
    const hole: Hole = { start, end, sizeClass: 0, slot: 0 };
    this.#byStart.set(start, hole);
    this.#byEnd.set(end, hole);
    this.#file(hole);
  }

  /** Appends a hole to the list of its size class. */
  #file(hole: Hole): void {
    const c = this.#classOf(hole.end - hole.start);
    let list = this.#classes[c];
    if (list === undefined) {
      list = [];
      this.#classes[c] = list;
    }
    hole.sizeClass = c;
    hole.slot = list.length;
    list.push(hole);
  }

  /** Takes a hole out of its class list: the last one of the list moves into its place. */
  #unfile(hole: Hole): void {
    const list = this.#classes[hole.sizeClass];
    if (list === undefined) return;
    const last = list.pop();
    if (last !== undefined && last !== hole) {
      list[hole.slot] = last;
      last.slot = hole.slot;
    }
  }

  #fitIn(start: number, end: number, size: number, alignment: number): number | undefined {
    // A hole smaller than the request cannot fit at any alignment: skip the division.
    if (end - start < size) return undefined;
    const aligned = Math.ceil(start / alignment) * alignment;
    return aligned + size <= end ? aligned : undefined;
  }

  /** Takes `size` bytes aligned to `alignment`; undefined when no hole fits. */
  take(sizeBytes: number, alignmentBytes: number): number | undefined {
    if (sizeBytes <= 0) return undefined;
    const size = Math.ceil(sizeBytes / this.unit);
    const alignment = Math.max(1, Math.ceil(alignmentBytes / this.unit));
    for (let c = this.#classOf(size); c < this.#classes.length; c += 1) {
      const list = this.#classes[c];
      if (list === undefined) continue;
      for (const hole of list) {
        const addr = this.#fitIn(hole.start, hole.end, size, alignment);
        if (addr === undefined) continue;
        this.#carve(hole, addr, size);
        this.used += size * this.unit;
        return this.base + addr * this.unit;
      }
    }
    return undefined;
  }

  /** Takes exactly [addr, addr + size) if it is wholly free. */
  takeAt(addrBytes: number, sizeBytes: number): boolean {
    if (sizeBytes <= 0 || addrBytes < this.base || addrBytes + sizeBytes > this.limit || (addrBytes - this.base) % this.unit !== 0)
      return false;
    const addr = (addrBytes - this.base) / this.unit;
    const size = Math.ceil(sizeBytes / this.unit);
    for (const hole of this.#byStart.values()) {
      if (hole.start <= addr && addr + size <= hole.end) {
        this.#carve(hole, addr, size);
        this.used += size * this.unit;
        return true;
      }
    }
    return false;
  }

  /**
   * Cuts [addr, addr + size) out of a hole. The class lists see exactly "remove the hole, add its
   * left remnant, add its right remnant" (that order decides future fits, so addresses stay as they
   * were); the map entries that stay true are kept rather than deleted and set again, because
   * every new key uses up room in a Map's table and a full table is rebuilt.
   */
  #carve(hole: Hole, addr: number, size: number): void {
    const { start, end } = hole;
    const stop = addr + size;
    this.#unfile(hole);
    if (start < addr) {
      // The hole keeps its start and becomes the left remnant; a right remnant takes over its end.
      hole.end = addr;
      this.#byEnd.set(addr, hole);
      this.#file(hole);
      if (stop < end) this.#addHole(stop, end);
      else this.#byEnd.delete(end);
    } else if (stop < end) {
      // Only a right remnant: the hole keeps its end.
      this.#byStart.delete(start);
      hole.start = stop;
      this.#byStart.set(stop, hole);
      this.#file(hole);
    } else {
      this.#byStart.delete(start);
      this.#byEnd.delete(end);
    }
  }

  /**
   * Returns a range taken earlier, merging it with free neighbours: as if both neighbours were
   * removed and the merged hole added (the class lists see exactly that), reusing a neighbour's
   * hole and map entries where they stay true (see #carve).
   */
  release(addrBytes: number, sizeBytes: number): void {
    const size = Math.ceil(sizeBytes / this.unit);
    const start = (addrBytes - this.base) / this.unit;
    const end = start + size;
    const before = this.#byEnd.get(start);
    const after = this.#byStart.get(end);
    if (before !== undefined) this.#unfile(before);
    if (after !== undefined) this.#unfile(after);
    if (before !== undefined && after !== undefined) {
      this.#byEnd.delete(start);
      this.#byStart.delete(end);
      before.end = after.end;
      this.#byEnd.set(after.end, before);
      this.#file(before);
    } else if (before !== undefined) {
      this.#byEnd.delete(start);
      before.end = end;
      this.#byEnd.set(end, before);
      this.#file(before);
    } else if (after !== undefined) {
      this.#byStart.delete(end);
      after.start = start;
      this.#byStart.set(start, after);
      this.#file(after);
    } else {
      this.#addHole(start, end);
    }
    this.used -= size * this.unit;
  }

  /** Free holes, lowest first (for tests and the address-space view). */
  holes(): [number, number][] {
    return [...this.#byStart.values()]
      .sort((a, b) => a.start - b.start)
      .map((hole) => [this.base + hole.start * this.unit, this.base + hole.end * this.unit]);
  }
}
