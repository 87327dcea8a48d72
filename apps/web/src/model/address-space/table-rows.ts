import { DEVICE_VA_WINDOW, type DeviceAllocation, deviceWindowBase, type HostState, type PageClass } from '@pagelens/core';

/** One row of the mapping table: a VA range and what backs it. */
export type MappingRow = AllocationRow | VmmMappingRow | ReservationRow | IpcImportRow;

interface RowBase {
  /** Object id; (kind, id) is unique. */
  readonly id: number;
  readonly start: number;
  /** Bytes of VA the row covers. */
  readonly size: number;
  /** Colour key (as on the strip). */
  readonly color: number;
}

export interface AllocationRow extends RowBase {
  readonly kind: 'allocation';
  readonly device: number;
  readonly fn: string;
  readonly pageClass: PageClass;
  readonly pageSize: number;
  readonly pages: number;
  /** Physical placement (modeled): the allocation's runs, turned into frames by frameRuns when shown. */
  readonly runs: readonly number[];
  readonly pagesPerFrame: number;
}

export interface VmmMappingRow extends RowBase {
  readonly kind: 'mapping';
  readonly reservation: number;
  /** The PhysicalHandle id and the aclrtDrvMemHandle value the process holds. */
  readonly handleId: number;
  readonly handleValue: number | undefined;
  /** The device of the physical memory. */
  readonly device: number;
  readonly pageClass: PageClass | undefined;
  readonly pageSize: number | undefined;
  /** Grants from aclrtMemSetAccess; empty before any call (then VM-7's own-device access applies). */
  readonly access: readonly { readonly device: number; readonly flags: number }[];
}

export interface ReservationRow extends RowBase {
  readonly kind: 'reservation';
  readonly device: number;
  readonly mapped: number;
  readonly mappings: number;
  /** Bytes of the reservation that no mapping covers. */
  readonly unmapped: number;
}

/** IP-3: another process's allocation reached at an address of this one; the pages are the exporter's. */
export interface IpcImportRow extends RowBase {
  readonly kind: 'ipcImport';
  /** The exported allocation (what selecting the row selects) and its process. */
  readonly source: number;
  readonly exporter: number | undefined;
  readonly key: string;
  /** The device of the exported memory. */
  readonly device: number;
  readonly pageClass: PageClass | undefined;
  readonly pageSize: number | undefined;
}

/** Frame runs of an allocation: runs are [start, count] in frames (huge/giant) or global normal pages. */
export function frameRuns(allocation: Pick<DeviceAllocation, 'runs' | 'pageClass'>, pagesPerFrame: number): [number, number][] {
  const out: [number, number][] = [];
  const perFrame = allocation.pageClass === 'normal' ? Math.max(1, pagesPerFrame) : 1;
  for (let r = 0; r + 1 < allocation.runs.length; r += 2) {
    const start = allocation.runs[r] ?? 0;
    const count = allocation.runs[r + 1] ?? 0;
    if (count <= 0) continue;
    const first = Math.floor(start / perFrame);
    const last = Math.floor((start + count - 1) / perFrame);
    const previous = out.at(-1);
    // Neighbouring page runs often share a frame: join them.
    if (previous !== undefined && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else out.push([first, last]);
  }
  return out;
}

/** Every row of `pid` in device window `device`, in address order (a reservation before its mappings). */
export function buildRows(state: HostState, device: number, pid: number): MappingRow[] {
  const rows: MappingRow[] = [];
  const pagesPerFrame = state.devices[device]?.frames.pagesPerFrame ?? 512;
  for (const a of state.allocations.values()) {
    if (a.device !== device || a.pid !== pid) continue;
    rows.push({
      kind: 'allocation',
      id: a.id,
      start: a.addr,
      size: a.pages * a.pageSize,
      color: a.id,
      device: a.device,
      fn: a.fn,
      pageClass: a.pageClass,
      pageSize: a.pageSize,
      pages: a.pages,
      runs: a.runs,
      pagesPerFrame,
    });
  }
  const mappedIn = new Map<number, { bytes: number; count: number }>();
  const mine = new Set<number>();
  for (const r of state.reservations.values()) if (r.device === device && r.pid === pid) mine.add(r.id);
  for (const m of state.mappings.values()) {
    if (m.pid !== pid || !mine.has(m.reservation)) continue;
    const handle = state.handles.get(m.handle);
    const memory = handle === undefined ? undefined : state.physical.get(handle.memory);
    const sum = mappedIn.get(m.reservation) ?? { bytes: 0, count: 0 };
    mappedIn.set(m.reservation, { bytes: sum.bytes + m.size, count: sum.count + 1 });
    rows.push({
      kind: 'mapping',
      id: m.id,
      start: m.addr,
      size: m.size,
      color: memory?.id ?? m.handle,
      reservation: m.reservation,
      handleId: m.handle,
      handleValue: handle?.handle,
      device: m.device,
      pageClass: memory?.pageClass,
      pageSize: memory?.pageSize,
      access: m.access,
    });
  }
  for (const r of state.reservations.values()) {
    if (!mine.has(r.id)) continue;
    const mapped = mappedIn.get(r.id) ?? { bytes: 0, count: 0 };
    rows.push({
      kind: 'reservation',
      id: r.id,
      start: r.addr,
      size: r.size,
      color: r.id,
      device: r.device,
      mapped: mapped.bytes,
      mappings: mapped.count,
      unmapped: Math.max(0, r.size - mapped.bytes),
    });
  }
  const base = deviceWindowBase(device);
  for (const item of state.ipcImports.values()) {
    if (item.pid !== pid) continue;
    // In this window (the device current at the import), or, for an address outside every window, its memory's device.
    if (!(item.addr >= base && item.addr < base + DEVICE_VA_WINDOW) && item.device !== device) continue;
    const source = state.allocations.get(item.source);
    rows.push({
      kind: 'ipcImport',
      id: item.id,
      start: item.addr,
      size: item.size,
      color: item.source,
      source: item.source,
      exporter: source?.pid,
      key: item.key,
      device: item.device,
      pageClass: source?.pageClass,
      pageSize: source?.pageSize,
    });
  }
  return rows.sort(byAddress);
}

/** What selecting a row selects: the row's object, or for an IPC import the allocation it reaches (IP-3). */
export function rowTarget(row: MappingRow): { readonly kind: 'allocation' | 'mapping' | 'reservation'; readonly id: number } {
  return row.kind === 'ipcImport' ? { kind: 'allocation', id: row.source } : { kind: row.kind, id: row.id };
}

const KIND_ORDER: Readonly<Record<MappingRow['kind'], number>> = { reservation: 0, mapping: 1, allocation: 2, ipcImport: 3 };

/** Address order; at the same start a reservation comes before the mapping inside it. */
export function byAddress(a: MappingRow, b: MappingRow): number {
  return a.start - b.start || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.id - b.id;
}
