import { Bitset } from './bitset.ts';
import { fillRange } from './fill-range.ts';

/**
 * The physical memory of one device as 2 MiB frames (DM-11). A frame is free, one whole huge
 * page, one of the 512 frames of a 1 GiB giant page, or split into normal pages (512 × 4 KiB, or
 * 32 × 64 KiB) with an owner per page. Which frames back an allocation is *modeled*: the driver
 * does not tell. Huge and giant pages are taken from the top, normal pages from the bottom, so
 * fragmentation arises as it does on a device.
 */
export const FrameKind = { free: 0, huge: 1, giant: 2, split: 3 } as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

/** Frames per 1 GiB giant page. */
export const FRAMES_PER_GIANT = 512;

/** At most this many spare page-owner arrays are kept (2 KiB each for 4 KiB pages). */
const MAX_SPARE_OWNERS = 256;

export interface FrameTable {
  readonly count: number;
  /** Normal pages per frame: 512 for 4 KiB pages, 32 for 64 KiB pages. */
  readonly pagesPerFrame: number;
  kind: Uint8Array;
  /** Owning object id of a huge or giant frame, or of a split frame wholly held by one allocation; 0 otherwise. */
  owner: Int32Array;
  /** Normal pages in use in a split frame. */
  used: Uint16Array;
  /** Owner of each normal page of a split frame that is shared or partly free (0 = free page). */
  pages: Map<number, Int32Array>;
  /** The frames that have an entry in `pages`: a bit test where a Map lookup per frame cost more than the claim. */
  paged: Bitset;
  free: Bitset;
  /** Split frames that still have a free page. */
  partial: Bitset;
  /** Free frames in each 1 GiB-aligned block of 512 frames. */
  freeInBlock: Uint16Array;
  /**
   * Page-owner arrays of split frames that became free again, kept for the next split: a fresh
   * typed array per split frame cost more than the rest of the claim. Scratch, not state: never
   * read except to be reused, and not part of a snapshot or a clone.
   */
  readonly spareOwners: Int32Array[];
  /**
   * Set when a clone shares this table's arrays, on both tables: the first write to either copies
   * them (see `own`). The arrays above are therefore replaced, not only edited, by a write; read
   * them from the table each time rather than keeping one across a change.
   */
  sharesArrays: boolean;
  hugeFrames: number;
  giantFrames: number;
  splitFrames: number;
  normalPagesUsed: number;
}

export function createFrameTable(count: number, pagesPerFrame: number): FrameTable {
  const free = new Bitset(count);
  for (let frame = 0; frame < count; frame += 1) free.add(frame);
  const blocks = Math.ceil(count / FRAMES_PER_GIANT);
  const freeInBlock = new Uint16Array(blocks);
  for (let block = 0; block < blocks; block += 1) {
    freeInBlock[block] = Math.min(FRAMES_PER_GIANT, count - block * FRAMES_PER_GIANT);
  }
  return {
    count,
    pagesPerFrame,
    kind: new Uint8Array(count),
    owner: new Int32Array(count),
    used: new Uint16Array(count),
    pages: new Map(),
    paged: new Bitset(count),
    free,
    partial: new Bitset(count),
    freeInBlock,
    spareOwners: [],
    sharesArrays: false,
    hugeFrames: 0,
    giantFrames: 0,
    splitFrames: 0,
    normalPagesUsed: 0,
  };
}

/**
 * A copy that shares the arrays until either table is written (copy on write): a time-travel
 * checkpoint is cloned for every step back, and most steps through a recorded job (blocks inside
 * segments) write no frame at all, so the copy of some 250 KB per device is made only when needed.
 */
export function cloneFrameTable(table: FrameTable): FrameTable {
  table.sharesArrays = true;
  return { ...table, spareOwners: [], sharesArrays: true };
}

/** Gives `table` arrays of its own before a write, when a clone shares them. */
function own(table: FrameTable): void {
  if (!table.sharesArrays) return;
  const pages = new Map<number, Int32Array>();
  for (const [frame, owners] of table.pages) pages.set(frame, owners.slice());
  table.kind = table.kind.slice();
  table.owner = table.owner.slice();
  table.used = table.used.slice();
  table.pages = pages;
  table.paged = Bitset.copyOf(table.paged);
  table.free = Bitset.copyOf(table.free);
  table.partial = Bitset.copyOf(table.partial);
  table.freeInBlock = table.freeInBlock.slice();
  table.sharesArrays = false;
}

function takeFrame(table: FrameTable, frame: number): void {
  table.free.delete(frame);
  const block = frame >>> 9;
  table.freeInBlock[block] = (table.freeInBlock[block] ?? 0) - 1;
}

function returnFrame(table: FrameTable, frame: number): void {
  table.kind[frame] = FrameKind.free;
  table.owner[frame] = 0;
  table.free.add(frame);
  const block = frame >>> 9;
  table.freeInBlock[block] = (table.freeInBlock[block] ?? 0) + 1;
}

/** Moves the frames [start, end) out of (delta −1) or back into (delta +1) the free set, a word and a block at a time. */
function shiftFree(table: FrameTable, start: number, end: number, delta: 1 | -1): void {
  if (delta > 0) table.free.addRange(start, end - start);
  else table.free.deleteRange(start, end - start);
  for (let frame = start; frame < end; ) {
    const block = frame >>> 9;
    const stop = Math.min(end, (block + 1) * FRAMES_PER_GIANT);
    table.freeInBlock[block] = (table.freeInBlock[block] ?? 0) + delta * (stop - frame);
    frame = stop;
  }
}

/** Marks whole frames (runs of [start, count]) as huge or giant pages of `owner`. */
export function claimFrames(
  table: FrameTable,
  runs: readonly number[],
  kind: typeof FrameKind.huge | typeof FrameKind.giant,
  owner: number,
): void {
  own(table);
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r] ?? 0;
    const end = start + (runs[r + 1] ?? 0);
    shiftFree(table, start, end, -1);
    fillRange(table.kind, kind, start, end);
    fillRange(table.owner, owner, start, end);
    if (kind === FrameKind.huge) table.hugeFrames += end - start;
    else table.giantFrames += end - start;
  }
}

export function releaseFrames(table: FrameTable, runs: readonly number[]): void {
  own(table);
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r] ?? 0;
    const end = start + (runs[r + 1] ?? 0);
    // Every frame of a run has the kind of its first.
    if (table.kind[start] === FrameKind.huge) table.hugeFrames -= end - start;
    else if (table.kind[start] === FrameKind.giant) table.giantFrames -= end - start;
    shiftFree(table, start, end, 1);
    fillRange(table.kind, FrameKind.free, start, end);
    fillRange(table.owner, 0, start, end);
  }
}

/**
 * Marks normal pages (runs of [globalPage, count], page = frame × pagesPerFrame + index) as
 * `owner`'s. A free frame claimed whole by one allocation keeps its owner in `owner[]` and needs
 * no per-page array; only frames shared between allocations (or partly used) carry one. Work is
 * proportional to frames touched, not pages.
 */
export function claimPages(table: FrameTable, runs: readonly number[], owner: number): void {
  own(table);
  const ppf = table.pagesPerFrame;
  for (let r = 0; r < runs.length; r += 2) {
    let page = runs[r] ?? 0;
    const end = page + (runs[r + 1] ?? 0);
    while (page < end) {
      const frame = Math.floor(page / ppf);
      const first = page - frame * ppf;
      const stop = Math.min(end, (frame + 1) * ppf);
      const count = stop - page;
      table.normalPagesUsed += count;
      if (count === ppf && table.kind[frame] === FrameKind.free) {
        // A stretch of whole free frames: claim them together.
        let last = frame + 1;
        while ((last + 1) * ppf <= end && table.kind[last] === FrameKind.free) last += 1;
        shiftFree(table, frame, last, -1);
        fillRange(table.kind, FrameKind.split, frame, last);
        fillRange(table.owner, owner, frame, last);
        fillRange(table.used, ppf, frame, last);
        table.splitFrames += last - frame;
        table.normalPagesUsed += (last - frame - 1) * ppf;
        page = last * ppf;
        continue;
      }
      let owners = table.paged.has(frame) ? table.pages.get(frame) : undefined;
      if (owners === undefined) {
        owners = table.spareOwners.pop()?.fill(0) ?? new Int32Array(ppf);
        table.pages.set(frame, owners);
        table.paged.add(frame);
        takeFrame(table, frame);
        table.kind[frame] = FrameKind.split;
        table.splitFrames += 1;
        table.partial.add(frame);
      }
      fillRange(owners, owner, first, first + count);
      const used = (table.used[frame] ?? 0) + count;
      table.used[frame] = used;
      if (used === ppf) table.partial.delete(frame);
      page = stop;
    }
  }
}

/** Frees normal pages; a split frame whose last page is freed becomes a free frame again. */
export function releasePages(table: FrameTable, runs: readonly number[]): void {
  own(table);
  const ppf = table.pagesPerFrame;
  for (let r = 0; r < runs.length; r += 2) {
    let page = runs[r] ?? 0;
    const end = page + (runs[r + 1] ?? 0);
    while (page < end) {
      const frame = Math.floor(page / ppf);
      const first = page - frame * ppf;
      const stop = Math.min(end, (frame + 1) * ppf);
      const count = stop - page;
      table.normalPagesUsed -= count;
      const owners = table.paged.has(frame) ? table.pages.get(frame) : undefined;
      if (owners === undefined && count === ppf) {
        // Whole frames held by one allocation: return the stretch together.
        let last = frame + 1;
        while ((last + 1) * ppf <= end && !table.paged.has(last) && table.kind[last] === FrameKind.split) last += 1;
        fillRange(table.used, 0, frame, last);
        table.splitFrames -= last - frame;
        table.normalPagesUsed -= (last - frame - 1) * ppf;
        shiftFree(table, frame, last, 1);
        fillRange(table.kind, FrameKind.free, frame, last);
        fillRange(table.owner, 0, frame, last);
        page = last * ppf;
        continue;
      }
      const used = (table.used[frame] ?? 0) - count;
      table.used[frame] = used;
      if (used === 0) {
        if (owners !== undefined) {
          table.pages.delete(frame);
          table.paged.delete(frame);
          if (table.spareOwners.length < MAX_SPARE_OWNERS) table.spareOwners.push(owners);
        }
        table.partial.delete(frame);
        table.splitFrames -= 1;
        returnFrame(table, frame);
      } else {
        if (owners !== undefined) fillRange(owners, 0, first, first + count);
        table.partial.add(frame);
      }
      page = stop;
    }
  }
}

/** The owner of one normal page of a split frame (0 = free). */
export function pageOwner(table: FrameTable, frame: number, index: number): number {
  const owners = table.pages.get(frame);
  if (owners !== undefined) return owners[index] ?? 0;
  return table.kind[frame] === FrameKind.split ? (table.owner[frame] ?? 0) : 0;
}

/** Free normal pages inside split frames (not counting wholly free frames). */
export function freePagesInSplitFrames(table: FrameTable): number {
  return table.splitFrames * table.pagesPerFrame - table.normalPagesUsed;
}
