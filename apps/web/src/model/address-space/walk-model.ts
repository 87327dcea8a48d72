import {
  GIANT_PAGE,
  type HostState,
  HUGE_PAGE,
  NORMAL_PAGE,
  type PageClass,
  type PageWalk,
  translationWalk,
  walkTableCount,
} from '@pagelens/core';
import { type PhysicalPlace, physicalPlace } from './physical-frame.ts';

/** What translates an address of a process: the object whose range holds it, or nothing. */
export type Backing =
  | {
      readonly kind: 'allocation';
      readonly id: number;
      readonly fn: string;
      readonly start: number;
      readonly end: number;
      readonly pageClass: PageClass;
      readonly pageSize: number;
    }
  | {
      readonly kind: 'mapping';
      readonly id: number;
      readonly reservation: number;
      readonly handleId: number;
      readonly handleValue: number | undefined;
      readonly start: number;
      readonly end: number;
      readonly pageClass: PageClass | undefined;
      readonly pageSize: number;
    }
  /** IP-3: an IPC import, translated to the exported allocation's pages (`id`, of process `exporter`). */
  | {
      readonly kind: 'ipcImport';
      readonly id: number;
      readonly exporter: number | undefined;
      readonly start: number;
      readonly end: number;
      readonly pageClass: PageClass | undefined;
      readonly pageSize: number;
    }
  /** Inside a reservation, but no mapping covers it: reserved VA without memory (VM-1). */
  | { readonly kind: 'reserved'; readonly id: number; readonly start: number; readonly end: number }
  | { readonly kind: 'hole' };

export function backingAt(state: HostState, pid: number, va: number): Backing {
  for (const a of state.allocations.values()) {
    if (a.pid === pid && a.addr <= va && va < a.addr + a.pages * a.pageSize) {
      return {
        kind: 'allocation',
        id: a.id,
        fn: a.fn,
        start: a.addr,
        end: a.addr + a.pages * a.pageSize,
        pageClass: a.pageClass,
        pageSize: a.pageSize,
      };
    }
  }
  for (const m of state.mappings.values()) {
    if (m.pid !== pid || va < m.addr || va >= m.addr + m.size) continue;
    const handle = state.handles.get(m.handle);
    const memory = handle === undefined ? undefined : state.physical.get(handle.memory);
    return {
      kind: 'mapping',
      id: m.id,
      reservation: m.reservation,
      handleId: m.handle,
      handleValue: handle?.handle,
      start: m.addr,
      end: m.addr + m.size,
      pageClass: memory?.pageClass,
      pageSize: memory?.pageSize ?? HUGE_PAGE,
    };
  }
  for (const item of state.ipcImports.values()) {
    if (item.pid !== pid || va < item.addr || va >= item.addr + item.size) continue;
    const source = state.allocations.get(item.source);
    return {
      kind: 'ipcImport',
      id: item.source,
      exporter: source?.pid,
      start: item.addr,
      end: item.addr + item.size,
      pageClass: source?.pageClass,
      pageSize: source?.pageSize ?? HUGE_PAGE,
    };
  }
  for (const r of state.reservations.values()) {
    if (r.pid === pid && r.addr <= va && va < r.addr + r.size) return { kind: 'reserved', id: r.id, start: r.addr, end: r.addr + r.size };
  }
  return { kind: 'hole' };
}

/** One step as the panel shows it: the core's entry kinds, plus the invalid entry where an unmapped walk stops. */
export interface ShownStep {
  readonly level: number;
  readonly index: number;
  readonly bitsHigh: number;
  readonly bitsLow: number;
  readonly entry: 'table' | 'block' | 'page' | 'invalid';
}

export interface WalkPanelData {
  readonly va: number;
  readonly backing: Backing;
  /** True when an entry maps the address (an allocation or a mapping holds it). */
  readonly mapped: boolean;
  /**
   * The walk: with the backing's page size when mapped; for an unmapped address the 4 KiB walk
   * down to the first entry that the process's mappings leave invalid. Undefined when the page
   * size cannot be walked in the modeled 4 KiB granule (64 KiB kernel pages).
   */
  readonly walk: PageWalk | undefined;
  readonly steps: readonly ShownStep[];
  /** Why there is no walk (the core's message). */
  readonly walkError: string | undefined;
  /** Where the walk ends in physical memory (modeled), for a mapped address. */
  readonly place?: PhysicalPlace;
}

export interface WalkRange {
  readonly va: number;
  readonly bytes: number;
  readonly pageSize: number;
}

/** Bytes of VA one entry covers at each level: 512 GiB, 1 GiB, 2 MiB, 4 KiB (PT-2). */
const ENTRY_SPAN = [2 ** 39, 2 ** 30, 2 ** 21, 2 ** 12] as const;

/**
 * PT-2 (modeled): the level at which the walk for an unmapped `va` meets an invalid entry. An
 * entry is valid when some mapped range overlaps the VA it covers (then a next-level table, or a
 * block, exists there); for an unmapped address the first level without one is where it faults.
 */
export function faultLevel(ranges: readonly WalkRange[], va: number): number {
  for (let level = 0; level < ENTRY_SPAN.length; level += 1) {
    const span = ENTRY_SPAN[level] ?? 4096;
    const from = Math.floor(va / span) * span;
    const to = from + span;
    if (!ranges.some((r) => r.va < to && from < r.va + r.bytes)) return level;
  }
  return ENTRY_SPAN.length - 1;
}

export function walkPanelData(state: HostState, pid: number, va: number, ranges: readonly WalkRange[]): WalkPanelData {
  const backing = backingAt(state, pid, va);
  const mapped = backing.kind === 'allocation' || backing.kind === 'mapping' || backing.kind === 'ipcImport';
  try {
    if (mapped) {
      const walk = translationWalk(va, backing.pageSize);
      const place = physicalPlace(state, backing, va);
      return { va, backing, mapped, walk, steps: walk.levels, walkError: undefined, ...(place === undefined ? {} : { place }) };
    }
    const walk = translationWalk(va, NORMAL_PAGE);
    const stop = faultLevel(ranges, va);
    const steps = walk.levels.slice(0, stop + 1).map((step, i): ShownStep => (i === stop ? { ...step, entry: 'invalid' } : step));
    return { va, backing, mapped, walk, steps, walkError: undefined };
  } catch (error) {
    return { va, backing, mapped, walk: undefined, steps: [], walkError: error instanceof Error ? error.message : String(error) };
  }
}

/** The largest walkable page (1 GiB, 2 MiB, 4 KiB) not above `pageSize` that `va` is aligned to. */
export function walkablePage(va: number, pageSize: number): number | undefined {
  for (const size of [GIANT_PAGE, HUGE_PAGE, NORMAL_PAGE]) if (size <= pageSize && va % size === 0) return size;
  return undefined;
}

export interface ProcessRanges {
  readonly ranges: readonly WalkRange[];
  /** Ranges left out: page sizes the 4 KiB-granule model cannot walk (64 KiB kernel pages). */
  readonly skipped: number;
}

/** Everything `pid` has mapped, in every device window: its allocations, its VMM mappings and its IPC imports (IP-3). */
export function processRanges(state: HostState, pid: number): ProcessRanges {
  const ranges: WalkRange[] = [];
  let skipped = 0;
  const add = (va: number, bytes: number, pageSize: number): void => {
    const page = walkablePage(va, pageSize);
    if (page === undefined || (pageSize !== NORMAL_PAGE && pageSize !== HUGE_PAGE && pageSize !== GIANT_PAGE)) skipped += 1;
    else ranges.push({ va, bytes, pageSize: page });
  };
  for (const a of state.allocations.values()) if (a.pid === pid) add(a.addr, a.pages * a.pageSize, a.pageSize);
  for (const m of state.mappings.values()) {
    if (m.pid !== pid) continue;
    const memory = state.physical.get(state.handles.get(m.handle)?.memory ?? -1);
    add(m.addr, m.size, memory?.pageSize ?? HUGE_PAGE);
  }
  for (const item of state.ipcImports.values()) {
    if (item.pid === pid) add(item.addr, item.size, state.allocations.get(item.source)?.pageSize ?? HUGE_PAGE);
  }
  return { ranges, skipped };
}

/** Tables per level (the core's result type). */
export type WalkTableCount = ReturnType<typeof walkTableCount>;

export interface TableFigure {
  readonly count: WalkTableCount | undefined;
  /** The core's message when the ranges could not be counted (they overlap). */
  readonly error: string | undefined;
  readonly skipped: number;
  readonly ranges: number;
}

/** PT-2 (modeled): translation-table pages the process needs for everything it has mapped. */
export function tableFigure(ranges: ProcessRanges): TableFigure {
  const base = { skipped: ranges.skipped, ranges: ranges.ranges.length };
  try {
    return { ...base, count: walkTableCount(ranges.ranges), error: undefined };
  } catch (error) {
    return { ...base, count: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}
