import { isPowerOfTwo, NORMAL_PAGE, PAGE_CLASSES, type PageClass, pageSizeOf } from './page-size.ts';
import { assertTlbGeometry, type TlbGeometry } from './tlb-sim.ts';

/** Bytes of working set per page class. */
export type WorkingSetByClass = Readonly<Record<PageClass, number>>;

export interface ClassCoverage {
  /** Working-set bytes in this class. */
  readonly bytes: number;
  /** Page size of the class in bytes. */
  readonly pageSize: number;
  /** Whole pages that hold `bytes` (DM-11: partial pages count). */
  readonly pages: number;
  /** Leaf page-table entries that map them (PT-1). */
  readonly ptes: number;
  /** Bytes the class's TLB can translate without a walk. */
  readonly reach: number;
  /** PT-3: min(1, reach ÷ bytes); 1 when `bytes` is 0. */
  readonly coverage: number;
}

export interface CombinedCoverage {
  readonly bytes: number;
  readonly pages: number;
  readonly ptes: number;
  /** Sum of the per-class reaches, in bytes. */
  readonly reach: number;
  /** Σ min(bytes, reach) over the classes: working-set bytes whose translations fit at once. */
  readonly coveredBytes: number;
  /** coveredBytes ÷ bytes; 1 when the working set is empty. */
  readonly coverage: number;
}

export interface CoverageReport {
  readonly byClass: Readonly<Record<PageClass, ClassCoverage>>;
  readonly combined: CombinedCoverage;
}

/** Whole pages of `pageSize` bytes needed to hold `bytes` (DM-11: a partial page is a whole page). */
export function pagesFor(bytes: number, pageSize: number): number {
  assertByteCount('bytes', bytes);
  assertPageSize(pageSize);
  // Division by a power of two is exact in binary floating point, so floor/ceil need no correction.
  return Math.ceil(bytes / pageSize);
}

/** PT-1: leaf entries (level-3 pages or level-2/level-1 blocks) that map `bytes`, one per page. */
export function ptesFor(bytes: number, pageSize: number): number {
  return pagesFor(bytes, pageSize);
}

/** Bytes a TLB of `entries` entries translates when every entry holds a `pageSize` page. */
export function tlbReach(entries: number, pageSize: number): number {
  assertByteCount('entries', entries);
  assertPageSize(pageSize);
  const reach = entries * pageSize;
  if (!Number.isSafeInteger(reach)) {
    throw new RangeError(`TLB reach ${entries} × ${pageSize} B exceeds 2^53 bytes; sizes must be safe integers`);
  }
  return reach;
}

/** PT-3: min(1, entries × pageSize ÷ workingSetBytes); an empty working set is fully covered. */
export function coverage(entries: number, pageSize: number, workingSetBytes: number): number {
  const reach = tlbReach(entries, pageSize);
  assertByteCount('workingSetBytes', workingSetBytes);
  if (workingSetBytes === 0) return 1;
  return Math.min(1, reach / workingSetBytes);
}

/**
 * PT-3 per page class, assuming one TLB per class (the simulator's model): a class's entries
 * hold only pages of that class, so reach does not spill from one class to another. The
 * combined figure is the fraction of the whole working set whose translations all fit at once:
 * Σ min(bytes, reach) ÷ Σ bytes. It is a byte-weighted mean of the per-class coverages.
 */
export function coverageByClass(workingSet: WorkingSetByClass, tlb: TlbGeometry, normalPageSize: number = NORMAL_PAGE): CoverageReport {
  assertTlbGeometry(tlb);
  const entry = (pageClass: PageClass): ClassCoverage => {
    const bytes = workingSet[pageClass];
    const pageSize = pageSizeOf(pageClass, normalPageSize);
    const entries = tlb[pageClass].entries;
    const pages = pagesFor(bytes, pageSize);
    return { bytes, pageSize, pages, ptes: pages, reach: tlbReach(entries, pageSize), coverage: coverage(entries, pageSize, bytes) };
  };
  const byClass = { normal: entry('normal'), huge: entry('huge'), giant: entry('giant') };
  let bytes = 0;
  let pages = 0;
  let reach = 0;
  let coveredBytes = 0;
  for (const pageClass of PAGE_CLASSES) {
    const c = byClass[pageClass];
    bytes += c.bytes;
    pages += c.pages;
    reach += c.reach;
    coveredBytes += Math.min(c.bytes, c.reach);
  }
  if (!Number.isSafeInteger(bytes) || !Number.isSafeInteger(reach)) {
    throw new RangeError('total working set or TLB reach exceeds 2^53 bytes; sizes must be safe integers');
  }
  const combined = { bytes, pages, ptes: pages, reach, coveredBytes, coverage: bytes === 0 ? 1 : coveredBytes / bytes };
  return { byClass, combined };
}

function assertByteCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer, got ${value}`);
  }
}

function assertPageSize(pageSize: number): void {
  if (!isPowerOfTwo(pageSize)) {
    throw new RangeError(`pageSize must be a power of two in bytes (4096, 65536, 2097152, 1073741824, …), got ${pageSize}`);
  }
}
