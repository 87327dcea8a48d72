/**
 * A set-associative LRU TLB simulator with one TLB per page class (PT-3: geometry is an
 * *assumed*, user-editable profile setting). Built for ≥ 20,000,000 accesses/s (DESIGN.md
 * "Scale targets"): typed arrays, offsets generated on the fly, no allocation per access, and
 * a hot loop whose state lives in locals (see runBlock), not in object fields.
 * Page numbers can pass 2^32, so they are never put through 32-bit bitwise operators.
 */
import { isPowerOfTwo, NORMAL_PAGE, PAGE_CLASSES, type PageClass, pageClassOf } from './page-size.ts';

/** `entries % ways === 0`; sets = entries ÷ ways, a power of two is not required. */
export interface TlbClassGeometry {
  readonly entries: number;
  readonly ways: number;
}

export interface TlbGeometry {
  readonly normal: TlbClassGeometry;
  readonly huge: TlbClassGeometry;
  readonly giant: TlbClassGeometry;
}

/** One piece of a buffer mapped with one page size; a buffer's segments are contiguous and sorted. */
export interface BufferSegment {
  readonly va: number;
  readonly bytes: number;
  readonly pageSize: number;
}

/** Offsets are bytes from the start of the buffer. */
export type AccessPattern =
  /** `stride` bytes between accesses, over the whole buffer `passes` times. */
  | { readonly kind: 'sequential'; readonly stride: number; readonly passes: number }
  /** Access i at (i × stride) mod buffer bytes. */
  | { readonly kind: 'strided'; readonly stride: number; readonly count: number }
  /** Uniform offsets from a mulberry32 generator seeded with the low 32 bits of `seed`. */
  | { readonly kind: 'random'; readonly count: number; readonly seed: number }
  | { readonly kind: 'explicit'; readonly offsets: ArrayLike<number> };

export interface TlbClassResult {
  readonly accesses: number;
  readonly hits: number;
  readonly misses: number;
  /** One page walk per miss; equals `misses`, kept because the UI speaks of walks. */
  readonly walks: number;
  /** Misses that replaced a valid entry (the rest filled an empty one). */
  readonly evictions: number;
  readonly distinctPages: number;
}

export interface TlbResult {
  readonly accesses: number;
  readonly hits: number;
  readonly misses: number;
  readonly walks: number;
  readonly byClass: Readonly<Record<PageClass, TlbClassResult>>;
  /** hits ÷ accesses; 1 when there were no accesses (nothing missed). */
  readonly hitRate: number;
}

/** Per class. Real L1/L2 TLBs hold tens to a few thousand entries; this only stops runaway allocations. */
export const MAX_TLB_ENTRIES = 2 ** 20;
/** Pages one buffer may span (1 TiB of 4 KiB pages): the distinct-page bitmap is 1 bit per page. */
export const MAX_BUFFER_PAGES = 2 ** 28;

export function assertTlbGeometry(geometry: TlbGeometry): void {
  for (const pageClass of PAGE_CLASSES) {
    const { entries, ways } = geometry[pageClass];
    if (!Number.isSafeInteger(entries) || entries < 1 || entries > MAX_TLB_ENTRIES) {
      throw new RangeError(`${pageClass} TLB entries must be an integer from 1 to ${MAX_TLB_ENTRIES}, got ${entries}`);
    }
    if (!Number.isSafeInteger(ways) || ways < 1 || entries % ways !== 0) {
      throw new RangeError(`${pageClass} TLB ways must be a positive integer dividing its ${entries} entries, got ${ways}`);
    }
  }
}

/** Accesses `pattern` makes over a buffer of `bufferBytes`, so a caller can refuse a run that is too long. */
export function patternAccessCount(pattern: AccessPattern, bufferBytes: number): number {
  switch (pattern.kind) {
    case 'sequential':
      return pattern.passes * Math.ceil(bufferBytes / pattern.stride);
    case 'strided':
    case 'random':
      return pattern.count;
    case 'explicit':
      return pattern.offsets.length;
  }
}

export function simulateTlb(
  segments: readonly BufferSegment[],
  pattern: AccessPattern,
  geometry: TlbGeometry,
  normalPageSize: number = NORMAL_PAGE,
): TlbResult {
  assertTlbGeometry(geometry);
  const layout = layOut(segments, normalPageSize);
  return run(layout, geometry, toSource(pattern, layout.bytes));
}

/** A validated buffer. Offsets are bytes from its start; page ordinals number its pages 0, 1, …. */
interface Layout {
  readonly bytes: number;
  readonly pages: number;
  /** Per segment: start offset, class index into PAGE_CLASSES, page size in bytes. */
  readonly start: Float64Array;
  readonly pageClass: Uint8Array;
  readonly pageSize: Float64Array;
  /** Per segment: virtual page number and ordinal of its first page, and how far into that page it starts. */
  readonly firstPage: Float64Array;
  readonly firstOrdinal: Float64Array;
  readonly skew: Float64Array;
}

function layOut(segments: readonly BufferSegment[], normalPageSize: number): Layout {
  const first = segments[0];
  if (first === undefined) throw new RangeError('a buffer needs at least one segment');
  const n = segments.length;
  const layout = {
    start: new Float64Array(n),
    pageClass: new Uint8Array(n),
    pageSize: new Float64Array(n),
    firstPage: new Float64Array(n),
    firstOrdinal: new Float64Array(n),
    skew: new Float64Array(n),
  };
  let end = first.va;
  let pages = 0;
  segments.forEach(({ va, bytes, pageSize }, i) => {
    const pageClass = pageClassOf(pageSize, normalPageSize);
    if (!Number.isSafeInteger(va) || va < 0) throw new RangeError(`segments[${i}].va must be a non-negative safe integer, got ${va}`);
    if (!Number.isSafeInteger(bytes) || bytes < 1)
      throw new RangeError(`segments[${i}].bytes must be a positive safe integer, got ${bytes}`);
    if (va !== end) {
      throw new RangeError(`segments[${i}] starts at ${va} but the buffer so far ends at ${end}: segments must be contiguous and sorted`);
    }
    // A page belongs to one segment: inner boundaries sit on page boundaries of both sides.
    const prior = segments[i - 1];
    if (prior !== undefined && (va % pageSize !== 0 || va % prior.pageSize !== 0)) {
      throw new RangeError(`segments[${i}] starts at ${va}, not on a page boundary of it and segments[${i - 1}]`);
    }
    end = va + bytes;
    if (!Number.isSafeInteger(end)) throw new RangeError(`segments[${i}] ends past 2^53 bytes`);
    const firstPage = Math.floor(va / pageSize);
    layout.start[i] = va - first.va;
    layout.pageClass[i] = PAGE_CLASSES.indexOf(pageClass);
    layout.pageSize[i] = pageSize;
    layout.firstPage[i] = firstPage;
    layout.firstOrdinal[i] = pages;
    layout.skew[i] = va - firstPage * pageSize;
    pages += Math.floor((end - 1) / pageSize) - firstPage + 1;
  });
  if (pages > MAX_BUFFER_PAGES) throw new RangeError(`the buffer spans ${pages} pages; at most ${MAX_BUFFER_PAGES} are simulated`);
  return { ...layout, bytes: end - first.va, pages };
}

const SEQUENTIAL = 0;
const STRIDED = 1;
const RANDOM = 2;
const EXPLICIT = 3;

/** A validated pattern as plain numbers the hot loop can branch on without touching strings. */
interface Source {
  readonly kind: number;
  readonly count: number;
  /** Bytes between consecutive offsets (strided: already reduced mod buffer bytes). */
  readonly step: number;
  readonly seed: number;
  readonly offsets: ArrayLike<number>;
}

function toSource(pattern: AccessPattern, bytes: number): Source {
  const none = { step: 0, seed: 0, offsets: [] };
  switch (pattern.kind) {
    case 'sequential':
      assertCount('passes', pattern.passes);
      return { ...none, kind: SEQUENTIAL, step: assertStride(pattern.stride), count: patternAccessCount(pattern, bytes) };
    case 'strided':
      return { ...none, kind: STRIDED, step: assertStride(pattern.stride) % bytes, count: assertCount('count', pattern.count) };
    case 'random':
      if (!Number.isSafeInteger(pattern.seed)) throw new RangeError(`seed must be a safe integer, got ${pattern.seed}`);
      return { ...none, kind: RANDOM, seed: pattern.seed >>> 0, count: assertCount('count', pattern.count) };
    case 'explicit':
      return { ...none, kind: EXPLICIT, offsets: pattern.offsets, count: pattern.offsets.length };
  }
}

/** Accesses per call of runBlock. */
const BLOCK = 1 << 14;

/**
 * The simulation. Slots of all three classes share `tags`: class c owns a run of `entries`
 * slots, set s of it the `ways` slots from s × ways. A page's set is its virtual page number
 * mod sets; its tag is its ordinal in the buffer (unique like the page number, but < 2^28, so
 * int32 holds it), −1 marks an empty slot. Each set is a ring in recency order: `heads` holds
 * the way of its MRU entry, and the way before it (circularly) the LRU entry. A miss replaces
 * the LRU entry and moves the head onto it in O(1); a hit rotates only the entries newer than
 * it; no ages are compared (an age scan costs unpredictable branches on random patterns).
 */
function run(layout: Layout, geometry: TlbGeometry, source: Source): TlbResult {
  const ways = PAGE_CLASSES.map((pageClass) => geometry[pageClass].ways);
  const sets = PAGE_CLASSES.map((pageClass, c) => geometry[pageClass].entries / (ways[c] ?? 1));
  const slotBase = [0, geometry.normal.entries, geometry.normal.entries + geometry.huge.entries];
  const ringBase = [0, sets[0] ?? 0, (sets[0] ?? 0) + (sets[1] ?? 0)];
  const r: Run = {
    layout,
    source,
    tags: new Int32Array((slotBase[2] ?? 0) + geometry.giant.entries).fill(-1),
    heads: new Int32Array((ringBase[2] ?? 0) + (sets[2] ?? 0)),
    seen: new Uint8Array(Math.ceil(layout.pages / 8)),
    sets,
    ways,
    slotBase,
    ringBase,
    counts: { hits: [0, 0, 0], misses: [0, 0, 0], evictions: [0, 0, 0], distinct: [0, 0, 0] },
    next: 0,
    state: source.seed,
  };
  for (let from = 0; from < source.count; from += BLOCK) runBlock(r, from, Math.min(source.count, from + BLOCK));
  return toResult(r.counts);
}

interface Run {
  readonly layout: Layout;
  readonly source: Source;
  readonly tags: Int32Array;
  readonly heads: Int32Array;
  /** One bit per page ordinal: touched yet? */
  readonly seen: Uint8Array;
  /** Per class: sets, ways, first slot in `tags`, first ring in `heads`. */
  readonly sets: readonly number[];
  readonly ways: readonly number[];
  readonly slotBase: readonly number[];
  readonly ringBase: readonly number[];
  readonly counts: Counts;
  /** Generator cursor kept between blocks: next sequential/strided offset, mulberry32 state. */
  next: number;
  state: number;
}

/**
 * Accesses [from, to). A module-level function called per block, so V8 optimises it whole
 * (OSR code for one long loop ran up to 40% slower) and every hot value is a local, not an
 * object field or closure slot. A block starts with no segment and no last page.
 */
function runBlock(r: Run, from: number, to: number): void {
  const { layout, tags, heads, seen, counts } = r;
  const { bytes } = layout;
  const { kind, step, offsets } = r.source;
  const wide = bytes > 2 ** 32;
  let { next, state } = r;
  // The segment in use, [segLo, segHi) in buffer offsets, and its class's geometry, copied to
  // locals; hits, misses… count for class c until the segment changes.
  let segLo = 0;
  let segHi = 0;
  let c = 0;
  let pageSize = 1;
  let pageInverse = 1;
  /** Buffer offset where the segment's first page begins (before segLo if the buffer starts mid-page). */
  let pageZero = 0;
  let firstOrdinal = 0;
  let sets = 1;
  /** sets − 1 when sets is a power of two, else −1. */
  let setMask = -1;
  /** The first page's virtual page number mod sets. */
  let setSkew = 0;
  let ways = 1;
  let slotBase = 0;
  let ringBase = 0;
  let hits = 0;
  let misses = 0;
  let evictions = 0;
  let distinct = 0;
  // The page used last, [lastLo, lastHi) in buffer offsets: the MRU entry of its set, so
  // touching it again is a hit that changes no LRU order.
  let lastLo = 0;
  let lastHi = 0;
  for (let i = from; i < to; i += 1) {
    let offset: number;
    if (kind === SEQUENTIAL) {
      offset = next;
      next += step;
      if (next >= bytes) next = 0;
    } else if (kind === STRIDED) {
      // (i × stride) mod bytes, kept incrementally so i × stride never leaves the safe integers.
      offset = next;
      next += step;
      if (next >= bytes) next -= bytes;
    } else if (kind === RANDOM) {
      state = (state + MULBERRY_STEP) | 0;
      if (wide) {
        // 53 random bits, 32 from one draw and 21 from the next, so buffers past 4 GiB stay uniform.
        const high = mulberry32(state);
        state = (state + MULBERRY_STEP) | 0;
        offset = Math.min(bytes - 1, Math.floor(((high * 2 ** 21 + (mulberry32(state) >>> 11)) / 2 ** 53) * bytes));
      } else {
        offset = Math.floor((mulberry32(state) / 2 ** 32) * bytes);
      }
    } else {
      offset = offsets[i] ?? Number.NaN;
      if (!Number.isSafeInteger(offset) || offset < 0 || offset >= bytes) {
        throw new RangeError(`offsets[${i}] = ${offset} is outside the buffer: offsets must be integers in [0, ${bytes})`);
      }
    }
    if (offset >= lastLo && offset < lastHi) {
      hits += 1;
      continue;
    }
    if (offset < segLo || offset >= segHi) {
      flush(counts, c, hits, misses, evictions, distinct);
      hits = misses = evictions = distinct = 0;
      const s = segmentAt(layout.start, offset);
      segLo = layout.start[s] ?? 0;
      segHi = layout.start[s + 1] ?? bytes;
      c = layout.pageClass[s] ?? 0;
      pageSize = layout.pageSize[s] ?? 1;
      // Exact: page sizes are powers of two, and a multiply is cheaper than a divide.
      pageInverse = 1 / pageSize;
      pageZero = segLo - (layout.skew[s] ?? 0);
      firstOrdinal = layout.firstOrdinal[s] ?? 0;
      sets = r.sets[c] ?? 1;
      setMask = isPowerOfTwo(sets) ? sets - 1 : -1;
      setSkew = (layout.firstPage[s] ?? 0) % sets;
      ways = r.ways[c] ?? 1;
      slotBase = r.slotBase[c] ?? 0;
      ringBase = r.ringBase[c] ?? 0;
    }
    // Page index within the segment and page ordinal within the buffer are < MAX_BUFFER_PAGES
    // = 2^28, and set, slot and ring numbers < 3 × MAX_TLB_ENTRIES = 3 × 2^20: all exact in int32.
    const index = Math.floor((offset - pageZero) * pageInverse) | 0;
    const tag = (firstOrdinal + index) | 0;
    lastLo = pageZero + index * pageSize;
    lastHi = lastLo + pageSize;
    const skewed = (setSkew + index) | 0;
    const set = setMask >= 0 ? skewed & setMask : skewed % sets;
    const first = (slotBase + set * ways) | 0;
    const last = (first + ways - 1) | 0;
    const ring = (ringBase + set) | 0;
    const mru = first + (heads[ring] ?? 0);
    let slot = first;
    while (slot <= last && tags[slot] !== tag) slot += 1;
    if (slot <= last) {
      hits += 1;
      // Entries from the MRU down to this one each move one place older; this one becomes MRU.
      while (slot !== mru) {
        const newer = slot === first ? last : slot - 1;
        tags[slot] = tags[newer] ?? -1;
        slot = newer;
      }
      tags[mru] = tag;
      continue;
    }
    const lru = mru === first ? last : mru - 1;
    misses += 1;
    if (tags[lru] !== -1) evictions += 1;
    tags[lru] = tag;
    heads[ring] = lru - first;
    // Every first touch of a page misses, so distinct pages need counting on the miss path only.
    const bit = 1 << (tag & 7);
    const seenByte = seen[tag >>> 3] ?? 0;
    if ((seenByte & bit) === 0) {
      seen[tag >>> 3] = seenByte | bit;
      distinct += 1;
    }
  }
  flush(counts, c, hits, misses, evictions, distinct);
  r.next = next;
  r.state = state;
}

interface Counts {
  readonly hits: number[];
  readonly misses: number[];
  readonly evictions: number[];
  readonly distinct: number[];
}

function flush(counts: Counts, c: number, hits: number, misses: number, evictions: number, distinct: number): void {
  counts.hits[c] = (counts.hits[c] ?? 0) + hits;
  counts.misses[c] = (counts.misses[c] ?? 0) + misses;
  counts.evictions[c] = (counts.evictions[c] ?? 0) + evictions;
  counts.distinct[c] = (counts.distinct[c] ?? 0) + distinct;
}

function toResult(counts: Counts): TlbResult {
  const entry = (c: number): TlbClassResult => {
    const hits = counts.hits[c] ?? 0;
    const misses = counts.misses[c] ?? 0;
    return {
      accesses: hits + misses,
      hits,
      misses,
      walks: misses,
      evictions: counts.evictions[c] ?? 0,
      distinctPages: counts.distinct[c] ?? 0,
    };
  };
  const byClass = { normal: entry(0), huge: entry(1), giant: entry(2) };
  const hits = byClass.normal.hits + byClass.huge.hits + byClass.giant.hits;
  const misses = byClass.normal.misses + byClass.huge.misses + byClass.giant.misses;
  const accesses = hits + misses;
  return { accesses, hits, misses, walks: misses, byClass, hitRate: accesses === 0 ? 1 : hits / accesses };
}

/** Index of the last segment starting at or before `offset`: binary search, direct for one segment. */
function segmentAt(starts: Float64Array, offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** mulberry32 (public domain, Tommy Ettinger): the state advances by this constant per draw. */
const MULBERRY_STEP = 0x6d2b79f5;

/** mulberry32's output for an already advanced state: a uniform integer in [0, 2^32). */
function mulberry32(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return (t ^ (t >>> 14)) >>> 0;
}

function assertStride(stride: number): number {
  if (!Number.isSafeInteger(stride) || stride <= 0)
    throw new RangeError(`stride must be a positive integer number of bytes, got ${stride}`);
  return stride;
}

function assertCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}
