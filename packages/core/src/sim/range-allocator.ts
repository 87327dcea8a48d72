/**
 * Virtual address ranges for the simulator: a segregated-fit allocator over [base, base + size).
 * Internally it counts in `unit`s from `base` (4 KiB for device windows), so positions stay small
 * integers that Maps hash quickly; sizes round up to whole units.
 * Free holes are filed by size class (floor log2) so a fit is found in a few steps; neighbours
 * coalesce on release through start and end maps. Deterministic: the same calls give the same
 * addresses. Ranges are half-open [start, end) in bytes.
 */
export class RangeAllocator {
  readonly base: number;
  readonly limit: number;
  readonly unit: number;
  readonly #holeEnd = new Map<number, number>();
  readonly #holeStart = new Map<number, number>();
  /** Hole starts per size class, in insertion order; removal swaps with the last (deterministic). */
  readonly #classes: number[][] = [];
  /** Where each hole start sits in its class list. */
  readonly #slot = new Map<number, number>();
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
    this.#holeEnd.set(start, end);
    this.#holeStart.set(end, start);
    const c = this.#classOf(end - start);
    let list = this.#classes[c];
    if (list === undefined) {
      list = [];
      this.#classes[c] = list;
    }
    this.#slot.set(start, list.length);
    list.push(start);
  }

  #removeHole(start: number, end: number): void {
    this.#holeEnd.delete(start);
    this.#holeStart.delete(end);
    const list = this.#classes[this.#classOf(end - start)];
    const index = this.#slot.get(start);
    if (list === undefined || index === undefined) return;
    const last = list.pop();
    if (last !== undefined && index < list.length) {
      list[index] = last;
      this.#slot.set(last, index);
    }
    this.#slot.delete(start);
  }

  #fitIn(start: number, end: number, size: number, alignment: number): number | undefined {
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
      for (let i = 0; i < list.length; i += 1) {
        const start = list[i] ?? 0;
        const end = this.#holeEnd.get(start) ?? start;
        const addr = this.#fitIn(start, end, size, alignment);
        if (addr === undefined) continue;
        this.#carve(start, end, addr, size);
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
    for (const [start, end] of this.#holeEnd) {
      if (start <= addr && addr + size <= end) {
        this.#carve(start, end, addr, size);
        this.used += size * this.unit;
        return true;
      }
    }
    return false;
  }

  #carve(start: number, end: number, addr: number, size: number): void {
    this.#removeHole(start, end);
    this.#addHole(start, addr);
    this.#addHole(addr + size, end);
  }

  /** Returns a range taken earlier, merging it with free neighbours. */
  release(addrBytes: number, sizeBytes: number): void {
    const size = Math.ceil(sizeBytes / this.unit);
    let start = (addrBytes - this.base) / this.unit;
    let end = start + size;
    const before = this.#holeStart.get(start);
    if (before !== undefined) {
      this.#removeHole(before, start);
      start = before;
    }
    const after = this.#holeEnd.get(end);
    if (after !== undefined) {
      this.#removeHole(end, after);
      end = after;
    }
    this.#addHole(start, end);
    this.used -= size * this.unit;
  }

  /** Free holes, lowest first (for tests and the address-space view). */
  holes(): [number, number][] {
    return [...this.#holeEnd]
      .sort((a, b) => a[0] - b[0])
      .map(([start, end]) => [this.base + start * this.unit, this.base + end * this.unit]);
  }
}
