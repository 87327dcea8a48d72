import {
  type CoverageReport,
  coverageByClass,
  GIANT_PAGE,
  type HostState,
  HUGE_PAGE,
  PAGE_CLASSES,
  type PageClass,
  ptesFor,
  type TlbGeometry,
} from '@pagelens/core';

/** One page class of the live working set against its (assumed) TLB. */
export interface ClassRow {
  readonly pageClass: PageClass;
  readonly pageSize: number;
  /** Bytes held in whole pages of this class (DM-11). */
  readonly bytes: number;
  /** Leaf PTEs that map them (PT-1). */
  readonly ptes: number;
  readonly entries: number;
  readonly ways: number;
  /** entries × pageSize, in bytes. */
  readonly reach: number;
  /** PT-3: min(1, reach ÷ bytes); 1 for an empty class. */
  readonly coverage: number;
}

export interface WorkingSetSummary {
  readonly rows: readonly ClassRow[];
  readonly combined: CoverageReport['combined'];
}

export function classRows(
  workingSet: Readonly<Record<PageClass, number>>,
  geometry: TlbGeometry,
  normalPageSize: number,
): WorkingSetSummary {
  const report = coverageByClass(workingSet, geometry, normalPageSize);
  const rows = PAGE_CLASSES.map((pageClass): ClassRow => {
    const c = report.byClass[pageClass];
    return {
      pageClass,
      pageSize: c.pageSize,
      bytes: c.bytes,
      ptes: c.ptes,
      entries: geometry[pageClass].entries,
      ways: geometry[pageClass].ways,
      reach: c.reach,
      coverage: c.coverage,
    };
  });
  return { rows, combined: report.combined };
}

/** PT-1: the same bytes mapped with one page size throughout. */
export interface PageSizeRow {
  readonly pageSize: number;
  /** PTEs for the bytes the working set holds (whole pages, as allocated). */
  readonly heldPtes: number;
  /** PTEs for the bytes the program asked for. */
  readonly requestedPtes: number;
}

/** The normal page of the profile (4 KiB, or 64 KiB on such kernels), 2 MiB and 1 GiB. */
export function samePageSizes(heldBytes: number, requestedBytes: number, normalPageSize: number): PageSizeRow[] {
  return [normalPageSize, HUGE_PAGE, GIANT_PAGE].map((pageSize) => ({
    pageSize,
    heldPtes: ptesFor(heldBytes, pageSize),
    requestedPtes: ptesFor(requestedBytes, pageSize),
  }));
}

/** Bytes the program asked for on `device`: aclrtMalloc* sizes plus aclrtMallocPhysical sizes. */
export function requestedBytes(state: HostState, device: number): number {
  let total = 0;
  for (const allocation of state.allocations.values()) if (allocation.device === device) total += allocation.size;
  for (const memory of state.physical.values()) if (memory.device === device) total += memory.size;
  return total;
}
