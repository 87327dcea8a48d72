import { DEVICE_VA_WINDOW, deviceWindowBase, type HostState, type PageClass } from '@pagelens/core';

/** What a filled range on the strip is. Reservations are kept apart: they are outlines, not fills. */
export const RangeKind = { allocation: 0, mapping: 1, reservation: 2, ipcImport: 3 } as const;
export type RangeKind = (typeof RangeKind)[keyof typeof RangeKind];

export const PAGE_CLASS_CODE: Readonly<Record<PageClass, number>> = { normal: 0, huge: 1, giant: 2 };

/**
 * Ranges of one process in one device window, as typed arrays sorted by start. Half-open
 * [start, end) in bytes of device VA. Within one set ranges never overlap, so the ends are sorted
 * too, which lets culling find the first visible range by binary search.
 */
export interface RangeSet {
  readonly count: number;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly kind: Uint8Array;
  /** Object id (allocation, mapping or reservation id; for an IPC import, the exported allocation it reaches). */
  readonly id: Int32Array;
  /** Colour key: the allocation's id, or the physical memory id behind a mapping (as on the page map). */
  readonly color: Int32Array;
  /** PAGE_CLASS_CODE of the pages; 255 for reservations. */
  readonly pageClass: Uint8Array;
  /** Page size in bytes; 0 for reservations. */
  readonly pageSize: Float64Array;
}

export interface StripModel {
  readonly device: number;
  readonly pid: number;
  /** The device's 128 GiB window, widened when an object lies outside it (observed addresses). */
  readonly domainStart: number;
  readonly domainEnd: number;
  /** Allocations, mappings and IPC imports: filled. */
  readonly blocks: RangeSet;
  /** VMM reservations: outlined, with their mappings drawn inside. */
  readonly reservations: RangeSet;
}

interface Draft {
  start: number;
  end: number;
  kind: RangeKind;
  id: number;
  color: number;
  pageClass: number;
  pageSize: number;
}

function toRangeSet(drafts: Draft[]): RangeSet {
  drafts.sort((a, b) => a.start - b.start || a.end - b.end);
  const count = drafts.length;
  const set: RangeSet = {
    count,
    start: new Float64Array(count),
    end: new Float64Array(count),
    kind: new Uint8Array(count),
    id: new Int32Array(count),
    color: new Int32Array(count),
    pageClass: new Uint8Array(count),
    pageSize: new Float64Array(count),
  };
  drafts.forEach((draft, i) => {
    set.start[i] = draft.start;
    set.end[i] = draft.end;
    set.kind[i] = draft.kind;
    set.id[i] = draft.id;
    set.color[i] = draft.color;
    set.pageClass[i] = draft.pageClass;
    set.pageSize[i] = draft.pageSize;
  });
  return set;
}

/** The ranges `pid` holds in device `device`'s VA window. */
export function buildStripModel(state: HostState, device: number, pid: number): StripModel {
  const blocks: Draft[] = [];
  const reservations: Draft[] = [];
  let domainStart = deviceWindowBase(device);
  let domainEnd = domainStart + DEVICE_VA_WINDOW;
  const widen = (start: number, end: number): void => {
    domainStart = Math.min(domainStart, start);
    domainEnd = Math.max(domainEnd, end);
  };
  for (const a of state.allocations.values()) {
    if (a.device !== device || a.pid !== pid) continue;
    // The VA an allocation takes is its whole pages (DM-11), not just the bytes asked for.
    const end = a.addr + a.pages * a.pageSize;
    widen(a.addr, end);
    blocks.push({
      start: a.addr,
      end,
      kind: RangeKind.allocation,
      id: a.id,
      color: a.id,
      pageClass: PAGE_CLASS_CODE[a.pageClass],
      pageSize: a.pageSize,
    });
  }
  const windowOf = new Map<number, number>();
  for (const r of state.reservations.values()) {
    windowOf.set(r.id, r.device);
    if (r.device !== device || r.pid !== pid) continue;
    widen(r.addr, r.addr + r.size);
    reservations.push({
      start: r.addr,
      end: r.addr + r.size,
      kind: RangeKind.reservation,
      id: r.id,
      color: r.id,
      pageClass: 255,
      pageSize: 0,
    });
  }
  for (const m of state.mappings.values()) {
    // A mapping shows in the window of its reservation, whichever device its memory is on.
    if (m.pid !== pid || windowOf.get(m.reservation) !== device) continue;
    const memory = state.physical.get(state.handles.get(m.handle)?.memory ?? -1);
    blocks.push({
      start: m.addr,
      end: m.addr + m.size,
      kind: RangeKind.mapping,
      id: m.id,
      color: memory?.id ?? m.handle,
      pageClass: PAGE_CLASS_CODE[memory?.pageClass ?? 'huge'],
      pageSize: memory?.pageSize ?? 0,
    });
  }
  // IP-3: an import is a range of the importer's VA for the exporter's pages (it holds none of its own):
  // drawn in the exported allocation's colour, with its pages, and it selects that allocation.
  const windowBase = deviceWindowBase(device);
  for (const item of state.ipcImports.values()) {
    if (item.pid !== pid) continue;
    const inWindow = item.addr >= windowBase && item.addr < windowBase + DEVICE_VA_WINDOW;
    if (!inWindow && item.device !== device) continue;
    const source = state.allocations.get(item.source);
    widen(item.addr, item.addr + item.size);
    blocks.push({
      start: item.addr,
      end: item.addr + item.size,
      kind: RangeKind.ipcImport,
      id: item.source,
      color: item.source,
      pageClass: PAGE_CLASS_CODE[source?.pageClass ?? 'huge'],
      pageSize: source?.pageSize ?? 0,
    });
  }
  return { device, pid, domainStart, domainEnd, blocks: toRangeSet(blocks), reservations: toRangeSet(reservations) };
}

export interface ProcessChoice {
  readonly pid: number;
  readonly name: string;
  /** Objects it holds on the device (allocations, reservations, IPC imports of its memory). */
  readonly objects: number;
}

/** The processes of the host, with how much each holds on `device`; the session's own (lowest pid) first. */
export function processChoices(state: HostState, device: number): ProcessChoice[] {
  const objects = new Map<number, number>();
  const bump = (pid: number): void => {
    objects.set(pid, (objects.get(pid) ?? 0) + 1);
  };
  for (const a of state.allocations.values()) if (a.device === device) bump(a.pid);
  for (const r of state.reservations.values()) if (r.device === device) bump(r.pid);
  for (const item of state.ipcImports.values()) if (item.device === device) bump(item.pid);
  const pids = new Set([...state.processes.keys(), ...objects.keys()]);
  return [...pids]
    .sort((a, b) => a - b)
    .map((pid) => ({ pid, name: state.processes.get(pid)?.name ?? '', objects: objects.get(pid) ?? 0 }));
}

/** The pid to show: the chosen one while it exists, else the first that holds something here, else the first. */
export function pickProcess(choices: readonly ProcessChoice[], chosen: number | undefined): number | undefined {
  if (chosen !== undefined && choices.some((c) => c.pid === chosen)) return chosen;
  return (choices.find((c) => c.objects > 0) ?? choices[0])?.pid;
}

/** Index of the first range whose end lies after `va` (binary search; ends are sorted). */
export function firstEndingAfter(set: RangeSet, va: number): number {
  let lo = 0;
  let hi = set.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((set.end[mid] ?? 0) <= va) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The range of `set` holding `va`, or -1. */
export function rangeAt(set: RangeSet, va: number): number {
  const i = firstEndingAfter(set, va);
  return i < set.count && (set.start[i] ?? Number.POSITIVE_INFINITY) <= va ? i : -1;
}

/** The index of object (kind, id) in `set`, or -1. Linear, for selection changes only. */
export function indexOfObject(set: RangeSet, kind: RangeKind, id: number): number {
  for (let i = 0; i < set.count; i += 1) if (set.kind[i] === kind && set.id[i] === id) return i;
  return -1;
}

/** The VA span holding every range of the model, or undefined when it holds none. */
export function usedExtent(model: StripModel): { start: number; end: number } | undefined {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const set of [model.blocks, model.reservations]) {
    if (set.count === 0) continue;
    start = Math.min(start, set.start[0] ?? start);
    // Ends are sorted within a set, so the last range ends last.
    end = Math.max(end, set.end[set.count - 1] ?? end);
  }
  return start < end ? { start, end } : undefined;
}
