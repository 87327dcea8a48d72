/**
 * Virtual address ranges for the simulator: a segregated-fit allocator over [base, base + size).
 * Free holes are filed by size class (floor log2) so a fit is found in a few steps; neighbours
 * coalesce on release through start and end maps. Deterministic: the same calls give the same
 * addresses. Ranges are half-open [start, end) in bytes.
 */
export class RangeAllocator {
  readonly base: number;
  readonly limit: number;
  readonly #holeEnd = new Map<number, number>();
  readonly #holeStart = new Map<number, number>();
  /** Hole starts per size class, in insertion order (Sets keep it). */
  readonly #classes: Set<number>[] = [];
  /** Bytes currently handed out. */
  used = 0;

  constructor(base: number, size: number) {
    this.base = base;
    this.limit = base + size;
    this.#addHole(base, this.limit);
  }

  #classOf(size: number): number {
    return Math.floor(Math.log2(size));
  }

  #addHole(start: number, end: number): void {
    if (end <= start) return;
    this.#holeEnd.set(start, end);
    this.#holeStart.set(end, start);
    const c = this.#classOf(end - start);
    let set = this.#classes[c];
    if (set === undefined) {
      set = new Set();
      this.#classes[c] = set;
    }
    set.add(start);
  }

  #removeHole(start: number, end: number): void {
    this.#holeEnd.delete(start);
    this.#holeStart.delete(end);
    this.#classes[this.#classOf(end - start)]?.delete(start);
  }

  #fitIn(start: number, end: number, size: number, alignment: number): number | undefined {
    const aligned = Math.ceil(start / alignment) * alignment;
    return aligned + size <= end ? aligned : undefined;
  }

  /** Takes `size` bytes aligned to `alignment`; undefined when no hole fits. */
  take(size: number, alignment: number): number | undefined {
    if (size <= 0) return undefined;
    const first = this.#classOf(size);
    for (let c = first; c < this.#classes.length; c += 1) {
      const set = this.#classes[c];
      if (set === undefined || set.size === 0) continue;
      for (const start of set) {
        const end = this.#holeEnd.get(start) ?? start;
        const addr = this.#fitIn(start, end, size, alignment);
        if (addr === undefined) continue;
        this.#carve(start, end, addr, size);
        return addr;
      }
    }
    return undefined;
  }

  /** Takes exactly [addr, addr + size) if it is wholly free. */
  takeAt(addr: number, size: number): boolean {
    if (size <= 0 || addr < this.base || addr + size > this.limit) return false;
    for (const [start, end] of this.#holeEnd) {
      if (start <= addr && addr + size <= end) {
        this.#carve(start, end, addr, size);
        return true;
      }
    }
    return false;
  }

  #carve(start: number, end: number, addr: number, size: number): void {
    this.#removeHole(start, end);
    this.#addHole(start, addr);
    this.#addHole(addr + size, end);
    this.used += size;
  }

  /** Returns a range taken earlier, merging it with free neighbours. */
  release(addr: number, size: number): void {
    let start = addr;
    let end = addr + size;
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
    this.used -= size;
  }

  /** Free holes, lowest first (for tests and the address-space view). */
  holes(): [number, number][] {
    return [...this.#holeEnd].sort((a, b) => a[0] - b[0]);
  }
}
