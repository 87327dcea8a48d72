import { type HostState, PAGE_CLASSES, type PageClass, type TlbGeometry } from '@pagelens/core';

/**
 * Whether an object's translations fit the class's TLB: all live objects of its class fit at
 * once ("together"), it fits only on its own ("alone"), or not even alone ("never"). Capacity
 * only (PT-3): set conflicts in a set-associative TLB can still evict earlier.
 */
export type Fit = 'together' | 'alone' | 'never';

export interface CoverageRow {
  readonly kind: 'allocation' | 'physical';
  readonly id: number;
  /** Device address of an allocation; the aclrtDrvMemHandle value of physical memory (undefined if none left). */
  readonly address: number | undefined;
  /** The ACL function that made it. */
  readonly fn: string;
  /** Bytes requested. */
  readonly size: number;
  readonly pageClass: PageClass;
  readonly pageSize: number;
  /** One leaf PTE per page (PT-1). */
  readonly ptes: number;
  /** PT-3 for this object alone: min(1, entries × pageSize ÷ pages × pageSize). */
  readonly coverage: number;
  readonly fit: Fit;
}

/**
 * Every live allocation and physical memory of `device`, with its PTEs and TLB fit under `geometry`.
 * Runs on every state change with up to 100,000 objects: two plain passes, one object per row
 * (no spreads, no per-row validation: reach is computed once per class).
 */
export function coverageRows(state: HostState, device: number, geometry: TlbGeometry): CoverageRow[] {
  const handleOf = new Map<number, number>();
  for (const handle of state.handles.values()) {
    if (handle.device === device && handle.importedFrom === undefined && !handleOf.has(handle.memory)) {
      handleOf.set(handle.memory, handle.handle);
    }
  }
  const classPtes: Record<PageClass, number> = { normal: 0, huge: 0, giant: 0 };
  for (const a of state.allocations.values()) if (a.device === device) classPtes[a.pageClass] += a.pages;
  for (const m of state.physical.values()) if (m.device === device) classPtes[m.pageClass] += m.pages;
  const row = (
    kind: CoverageRow['kind'],
    object: { id: number; size: number; pageClass: PageClass; pageSize: number; pages: number },
    address: number | undefined,
    fn: string,
  ): CoverageRow => {
    const { entries } = geometry[object.pageClass];
    const fit: Fit = classPtes[object.pageClass] <= entries ? 'together' : object.pages <= entries ? 'alone' : 'never';
    const held = object.pages * object.pageSize;
    // PT-3, as core's coverage(): min(1, entries × page size ÷ bytes), 1 for nothing held.
    const share = held === 0 ? 1 : Math.min(1, (entries * object.pageSize) / held);
    return {
      kind,
      id: object.id,
      address,
      fn,
      size: object.size,
      pageClass: object.pageClass,
      pageSize: object.pageSize,
      ptes: object.pages,
      coverage: share,
      fit,
    };
  };
  const rows: CoverageRow[] = [];
  for (const a of state.allocations.values()) if (a.device === device) rows.push(row('allocation', a, a.addr, a.fn));
  for (const m of state.physical.values())
    if (m.device === device) rows.push(row('physical', m, handleOf.get(m.id), 'aclrtMallocPhysical'));
  return rows;
}

export type SortKey = 'object' | 'size' | 'pageClass' | 'ptes' | 'coverage' | 'fit';
export type SortDirection = 'ascending' | 'descending';

const FIT_ORDER: Readonly<Record<Fit, number>> = { together: 0, alone: 1, never: 2 };

function compareBy(key: SortKey): (a: CoverageRow, b: CoverageRow) => number {
  switch (key) {
    case 'object':
      return (a, b) => (a.kind === b.kind ? a.id - b.id : a.kind === 'allocation' ? -1 : 1);
    case 'size':
      return (a, b) => a.size - b.size;
    case 'pageClass':
      return (a, b) => PAGE_CLASSES.indexOf(a.pageClass) - PAGE_CLASSES.indexOf(b.pageClass);
    case 'ptes':
      return (a, b) => a.ptes - b.ptes;
    case 'coverage':
      return (a, b) => a.coverage - b.coverage;
    case 'fit':
      return (a, b) => FIT_ORDER[a.fit] - FIT_ORDER[b.fit];
  }
}

/** A sorted copy; ties keep creation order (ids), so the order is stable across renders. */
export function sortRows(rows: readonly CoverageRow[], key: SortKey, direction: SortDirection): CoverageRow[] {
  const compare = compareBy(key);
  const byObject = compareBy('object');
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(a, b) || byObject(a, b));
}
