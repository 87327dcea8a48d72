/**
 * PT-2, *modeled*: the SMMU is assumed to use ARMv8-style tables with a 4 KiB granule and a
 * 48-bit VA. Ascend does not publish its table format; the UI must label this view "modeled".
 *
 * VAs go up to 2^48, past the 32 bits JS bitwise operators keep, so every index is computed
 * with floor-division and remainder by powers of two, which are exact for safe integers.
 */
import { GIANT_PAGE, HUGE_PAGE, NORMAL_PAGE } from './page-size.ts';

export type WalkLevel = 0 | 1 | 2 | 3;

export interface WalkStep {
  readonly level: WalkLevel;
  /** Index into this level's 512-entry table: VA bits bitsHigh…bitsLow. */
  readonly index: number;
  readonly bitsHigh: number;
  readonly bitsLow: number;
  /** 'table' points to the next level; 'block' (levels 1–2) and 'page' (level 3) end the walk. */
  readonly entry: 'table' | 'block' | 'page';
}

export interface PageWalk {
  readonly va: number;
  readonly pageSize: number;
  /** From level 0 down to the leaf; 2 steps for 1 GiB, 3 for 2 MiB, 4 for 4 KiB. */
  readonly levels: readonly WalkStep[];
  /** Byte offset of `va` inside its page. */
  readonly offset: number;
  /** VA of the first byte of the page. */
  readonly pageBase: number;
}

export interface WalkRange {
  /** Start VA; must be aligned to `pageSize` (DM-12 for huge and giant pages). */
  readonly va: number;
  /** Rounded up to whole pages (DM-11). */
  readonly bytes: number;
  readonly pageSize: number;
}

/** Page-table pages (4 KiB, 512 entries each) needed per level, as the mapping-table view shows them. */
export interface WalkTableCount {
  readonly level0: number;
  readonly level1: number;
  readonly level2: number;
  readonly level3: number;
  readonly total: number;
  /** total × 4096: memory the tables themselves occupy. */
  readonly bytes: number;
}

/** Exclusive upper bound of a 48-bit VA. */
export const VA_LIMIT = 2 ** 48;
/** Entries per table: a 4 KiB table of 8-byte descriptors. */
const TABLE_ENTRIES = 512;
const TABLE_BYTES = 4096;
/** Lowest VA bit each level indexes; the level indexes the 9 bits above it. */
const LEVEL_SHIFT: readonly [number, number, number, number] = [39, 30, 21, 12];

/** PT-2 (modeled): the table walk that translates `va` mapped by a page of `pageSize` bytes. */
export function translationWalk(va: number, pageSize: number): PageWalk {
  assertVa(va);
  const leaf = leafLevel(pageSize);
  const levels: WalkStep[] = [];
  for (let level = 0; level <= leaf; level += 1) {
    const bitsLow = LEVEL_SHIFT[level] ?? 12;
    const index = Math.floor(va / 2 ** bitsLow) % TABLE_ENTRIES;
    const entry = level < leaf ? 'table' : level === 3 ? 'page' : 'block';
    levels.push({ level: asLevel(level), index, bitsHigh: bitsLow + 8, bitsLow, entry });
  }
  const offset = va % pageSize;
  return { va, pageSize, levels, offset, pageBase: va - offset };
}

/**
 * PT-2 (modeled): distinct tables per level that map all `ranges`. Level 0 is the single root;
 * a level-1 table exists per used level-0 entry (512 GiB of VA), a level-2 table per 1 GiB
 * region that is not a giant block, a level-3 table per 2 MiB region mapped with 4 KiB pages.
 * Ranges must not overlap (a VA maps once). No ranges → no tables, not even the root.
 */
export function walkTableCount(ranges: readonly WalkRange[]): WalkTableCount {
  const spans = ranges.map((range, i) => toSpan(range, i)).sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i += 1) {
    const previous = spans[i - 1];
    const current = spans[i];
    if (previous !== undefined && current !== undefined && current.start < previous.end) {
      throw new RangeError(`ranges[${current.index}] overlaps ranges[${previous.index}]: a VA can be mapped only once`);
    }
  }
  const level1 = distinctRegions(spans, 39, () => true);
  const level2 = distinctRegions(spans, 30, (s) => s.leaf >= 2);
  const level3 = distinctRegions(spans, 21, (s) => s.leaf === 3);
  const level0 = spans.length > 0 ? 1 : 0;
  const total = level0 + level1 + level2 + level3;
  return { level0, level1, level2, level3, total, bytes: total * TABLE_BYTES };
}

interface Span {
  readonly index: number;
  readonly start: number;
  /** Exclusive, page-rounded. */
  readonly end: number;
  readonly leaf: WalkLevel;
}

function toSpan(range: WalkRange, index: number): Span {
  const where = `ranges[${index}]`;
  const leaf = leafLevel(range.pageSize);
  if (!Number.isSafeInteger(range.va) || range.va < 0 || range.va % range.pageSize !== 0) {
    throw new RangeError(`${where}.va must be a non-negative integer aligned to its ${range.pageSize}-byte page, got ${range.va}`);
  }
  if (!Number.isSafeInteger(range.bytes) || range.bytes <= 0) {
    throw new RangeError(`${where}.bytes must be a positive safe integer, got ${range.bytes}`);
  }
  const end = range.va + Math.ceil(range.bytes / range.pageSize) * range.pageSize;
  if (end > VA_LIMIT) throw new RangeError(`${where} ends at ${end}, past the 48-bit VA limit 2^48`);
  return { index, start: range.va, end, leaf };
}

/** Distinct 2^shift-byte regions touched by the spans that `uses` selects; spans sorted by start. */
function distinctRegions(spans: readonly Span[], shift: number, uses: (span: Span) => boolean): number {
  const size = 2 ** shift;
  let count = 0;
  let lastRegion = -1;
  for (const span of spans) {
    if (!uses(span)) continue;
    const first = Math.max(Math.floor(span.start / size), lastRegion + 1);
    const last = Math.floor((span.end - 1) / size);
    if (last >= first) count += last - first + 1;
    lastRegion = Math.max(lastRegion, last);
  }
  return count;
}

/** Level whose entry maps the page: 1 GiB → level-1 block, 2 MiB → level-2 block, 4 KiB → level-3 page. */
function leafLevel(pageSize: number): WalkLevel {
  if (pageSize === NORMAL_PAGE) return 3;
  if (pageSize === HUGE_PAGE) return 2;
  if (pageSize === GIANT_PAGE) return 1;
  if (pageSize === 64 * 1024) {
    throw new RangeError('the 64 KiB granule walk is not modeled (PT-2 models the 4 KiB granule: 4 KiB, 2 MiB and 1 GiB pages)');
  }
  throw new RangeError(`pageSize ${pageSize} cannot be walked: the modeled 4 KiB granule maps 4096, 2097152 or 1073741824 bytes`);
}

function assertVa(va: number): void {
  if (!Number.isSafeInteger(va) || va < 0 || va >= VA_LIMIT) {
    throw new RangeError(`va must be an integer in [0, 2^48), got ${va}`);
  }
}

function asLevel(level: number): WalkLevel {
  if (level === 0 || level === 1 || level === 2 || level === 3) return level;
  throw new RangeError(`walk level ${level} out of 0..3`);
}
