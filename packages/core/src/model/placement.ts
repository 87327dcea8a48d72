import type { PageClass } from './events.ts';
import { FRAMES_PER_GIANT, type FrameTable } from './frames.ts';

/**
 * Where new pages go (modeled; the driver does not say). Huge pages take the highest free frames,
 * giant pages the highest wholly free 1 GiB-aligned blocks, normal pages fill partly used split
 * frames first and then split the lowest free frames. Pure searches over the frame table: nothing
 * changes until the resulting event is reduced. Runs are [start, count] pairs.
 */

/**
 * A list of [start, count] runs being built: a buffer that is reused from search to search, and its
 * length. Every aclrtMalloc searches, and an array grown by push (then copied to its exact length,
 * see `findPages`) cost more garbage than the rest of the call; a search now writes here and only
 * the exact copy is allocated. Scratch, never state: searches are synchronous and copy out at once.
 */
class RunList {
  readonly items: number[] = [];
  length = 0;

  clear(): this {
    this.length = 0;
    return this;
  }

  /** Appends [start, count] (no joining). */
  add(start: number, count: number): void {
    this.items[this.length] = start;
    this.items[this.length + 1] = count;
    this.length += 2;
  }

  /** Appends [start, count], joining it to the last run when they touch (runs are built in page order). */
  join(start: number, count: number): void {
    const last = this.length - 2;
    if (last >= 0 && (this.items[last] ?? 0) + (this.items[last + 1] ?? 0) === start)
      this.items[last + 1] = (this.items[last + 1] ?? 0) + count;
    else this.add(start, count);
  }

  /** A fresh array exactly as long as the list (runs live as long as their allocation: no spare room). */
  toArray(): number[] {
    return this.items.slice(0, this.length);
  }
}

const RESULT = new RunList();
const WHOLE = new RunList();
const PIECES = new RunList();

/** `count` huge pages from the top, or undefined when fewer frames are free. */
export function findHugeFrames(table: FrameTable, count: number): number[] | undefined {
  return hugeFramesInto(table, count, RESULT.clear()) ? RESULT.toArray() : undefined;
}

function hugeFramesInto(table: FrameTable, count: number, runs: RunList): boolean {
  if (count > table.free.count) return false;
  let remaining = count;
  let top = table.free.highest();
  // One run per stretch of consecutive free frames, highest first; each run starts at its lowest frame.
  while (remaining > 0 && top !== -1) {
    const length = Math.min(remaining, top - table.free.highestAbsent(top));
    runs.add(top - length + 1, length);
    remaining -= length;
    top = table.free.highest(top - length);
  }
  return true;
}

/** Wholly free, 1 GiB-aligned blocks of 512 frames. */
export function freeGiantBlocks(table: FrameTable): number {
  let blocks = 0;
  for (let block = 0; block < table.freeInBlock.length; block += 1) {
    if (table.freeInBlock[block] === FRAMES_PER_GIANT && (block + 1) * FRAMES_PER_GIANT <= table.count) blocks += 1;
  }
  return blocks;
}

/** `count` giant pages from the top, or undefined when fewer aligned blocks are wholly free. */
export function findGiantBlocks(table: FrameTable, count: number): number[] | undefined {
  return giantBlocksInto(table, count, RESULT.clear()) ? RESULT.toArray() : undefined;
}

function giantBlocksInto(table: FrameTable, count: number, runs: RunList): boolean {
  let found = 0;
  for (let block = table.freeInBlock.length - 1; block >= 0 && found < count; block -= 1) {
    if (table.freeInBlock[block] !== FRAMES_PER_GIANT || (block + 1) * FRAMES_PER_GIANT > table.count) continue;
    runs.add(block * FRAMES_PER_GIANT, FRAMES_PER_GIANT);
    found += 1;
  }
  return found === count;
}

/** Normal pages available: free pages of split frames plus every page of every free frame. */
export function freeNormalPages(table: FrameTable): number {
  return table.splitFrames * table.pagesPerFrame - table.normalPagesUsed + table.free.count * table.pagesPerFrame;
}

/**
 * `count` normal pages as runs of global page numbers, or undefined when not enough are free.
 * Whole frames come from the bottom of the free frames; the remainder (less than one frame) goes
 * into the first partly used frame with room for it, else into the next free frame. Modeled: the
 * driver's page placement is not published.
 */
export function findNormalPages(table: FrameTable, count: number): number[] | undefined {
  return normalPagesInto(table, count, RESULT.clear()) ? RESULT.toArray() : undefined;
}

function normalPagesInto(table: FrameTable, count: number, runs: RunList): boolean {
  if (count > freeNormalPages(table)) return false;
  const ppf = table.pagesPerFrame;
  const whole = WHOLE.clear();
  const wholeFrames = Math.floor(count / ppf);
  const remainder = count - wholeFrames * ppf;
  let frame = -1;
  // The lowest `wholeFrames` free frames, a stretch of consecutive free frames at a time.
  for (let taken = 0; taken < wholeFrames; ) {
    const first = table.free.lowest(frame + 1);
    if (first === -1) return fillPartial(table, count, ppf, runs);
    const end = Math.min(table.free.lowestAbsent(first), first + wholeFrames - taken);
    whole.join(first * ppf, (end - first) * ppf);
    taken += end - first;
    frame = end - 1;
  }
  if (remainder === 0) {
    mergeInto(whole, PIECES.clear(), runs);
    return true;
  }
  for (let partial = table.partial.lowest(); partial !== -1; partial = table.partial.lowest(partial + 1)) {
    if (ppf - (table.used[partial] ?? 0) < remainder) continue;
    const owners = table.pages.get(partial);
    if (owners === undefined) continue;
    const pieces = PIECES.clear();
    freePieces(owners, ppf, partial * ppf, remainder, pieces);
    // Keep runs sorted by page: this frame may lie below the whole frames taken above.
    mergeInto(pieces, whole, runs);
    return true;
  }
  const next = table.free.lowest(frame + 1);
  if (next === -1) return fillPartial(table, count, ppf, runs);
  whole.join(next * ppf, remainder);
  mergeInto(whole, PIECES.clear(), runs);
  return true;
}

/**
 * Appends up to `wanted` free pages (owner 0) of one split frame to `pieces` as [page, count] runs,
 * lowest first, and returns how many it found. Frames fill from the bottom, so the free pages
 * usually lie past a long stretch of used ones: `indexOf` skips those natively.
 */
function freePieces(owners: Int32Array, ppf: number, firstPage: number, wanted: number, pieces: RunList): number {
  let needed = wanted;
  let index = owners.indexOf(0);
  while (needed > 0 && index !== -1 && index < ppf) {
    let end = index + 1;
    while (end < ppf && owners[end] === 0 && end - index < needed) end += 1;
    pieces.add(firstPage + index, end - index);
    needed -= end - index;
    // Past the run, owners[end] is in use (or the request is met): look beyond it.
    if (needed > 0 && end < ppf) index = owners.indexOf(0, end + 1);
    else break;
  }
  return wanted - needed;
}

/** When free frames run short, gather free pages from every partly used frame as well (slow path, a full device). */
function fillPartial(table: FrameTable, count: number, ppf: number, runs: RunList): boolean {
  const pieces = PIECES.clear();
  let needed = count;
  for (let frame = table.partial.lowest(); frame !== -1 && needed > 0; frame = table.partial.lowest(frame + 1)) {
    const owners = table.pages.get(frame);
    if (owners === undefined) continue;
    needed -= freePieces(owners, ppf, frame * ppf, needed, pieces);
  }
  const wholeFrames = WHOLE.clear();
  for (let frame = table.free.lowest(); frame !== -1 && needed > 0; frame = table.free.lowest(frame + 1)) {
    const length = Math.min(ppf, needed);
    wholeFrames.add(frame * ppf, length);
    needed -= length;
  }
  if (needed !== 0) return false;
  mergeInto(pieces, wholeFrames, runs);
  return true;
}

/**
 * Merges two lists of [start, count] runs, each sorted by start and disjoint from the other, into
 * one sorted list, joining runs that touch. (Both callers build their lists in page order, so a
 * merge does what sorting all the runs would, without the sort.)
 */
export function mergeRuns(a: readonly number[], b: readonly number[]): number[] {
  const first = new RunList();
  for (let i = 0; i < a.length; i += 2) first.add(a[i] ?? 0, a[i + 1] ?? 0);
  const second = new RunList();
  for (let i = 0; i < b.length; i += 2) second.add(b[i] ?? 0, b[i + 1] ?? 0);
  const runs = new RunList();
  mergeInto(first, second, runs);
  return runs.toArray();
}

function mergeInto(a: RunList, b: RunList, runs: RunList): void {
  const x = a.items;
  const y = b.items;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const fromA = j >= b.length || (i < a.length && (x[i] ?? 0) < (y[j] ?? 0));
    if (fromA) {
      runs.join(x[i] ?? 0, x[i + 1] ?? 0);
      i += 2;
    } else {
      runs.join(y[j] ?? 0, y[j + 1] ?? 0);
      j += 2;
    }
  }
}

/** Runs for `pages` pages of `pageClass`, or undefined when the device cannot supply them. */
export function findPages(table: FrameTable, pageClass: PageClass, pages: number): number[] | undefined {
  const runs = RESULT.clear();
  let found: boolean;
  switch (pageClass) {
    case 'normal':
      found = normalPagesInto(table, pages, runs);
      break;
    case 'huge':
      found = hugeFramesInto(table, pages, runs);
      break;
    case 'giant':
      found = giantBlocksInto(table, pages, runs);
      break;
  }
  return found ? runs.toArray() : undefined;
}
