/*
 * The program's real host addresses and the simulator's host addresses for the same memory. The
 * simulator places pinned memory in its own window (layout.ts) and knows pageable memory only from
 * `malloc`, while a program under `pagelens run` hands real pointers: pinned memory the interposer
 * mapped for it, or any buffer of its own (stack, heap, std::vector). Each range here is one such
 * buffer; pageable ranges are made on first sight with the extent the call gives, page offsets kept
 * so that 4 KiB alignment checks (HM-5) judge the real address.
 */

export type HostRangeKind = 'pinned' | 'pageable';

export interface HostRange {
  readonly real: number;
  readonly sim: number;
  /** Bytes. */
  readonly size: number;
  readonly kind: HostRangeKind;
}

export const HOST_PAGE = 4096;

export class HostMap {
  /** Newest first: a buffer the program reused at the same address is found before its stale range. */
  readonly #ranges: HostRange[] = [];

  add(range: HostRange): void {
    this.#ranges.unshift(range);
  }

  remove(real: number, kind: HostRangeKind): HostRange | undefined {
    const index = this.#ranges.findIndex((range) => range.real === real && range.kind === kind);
    if (index < 0) return undefined;
    return this.#ranges.splice(index, 1)[0];
  }

  /** The range holding [real, real + length), pinned before pageable. */
  find(real: number, length = 1): HostRange | undefined {
    const holds = (range: HostRange) => range.real <= real && real + Math.max(length, 1) <= range.real + range.size;
    return this.#ranges.find((range) => range.kind === 'pinned' && holds(range)) ?? this.#ranges.find(holds);
  }

  toSim(real: number, length = 1): number | undefined {
    const range = this.find(real, length);
    return range === undefined ? undefined : range.sim + (real - range.real);
  }

  toReal(sim: number): number | undefined {
    const range = this.#ranges.find((item) => item.sim <= sim && sim < item.sim + item.size);
    return range === undefined ? undefined : range.real + (sim - range.sim);
  }

  pinned(): HostRange[] {
    return this.#ranges.filter((range) => range.kind === 'pinned');
  }
}
