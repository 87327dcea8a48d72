import type { PageClass } from './events.ts';
import { FRAMES_PER_GIANT, type FrameTable } from './frames.ts';

/**
 * Where new pages go (modeled; the driver does not say). Huge pages take the highest free frames,
 * giant pages the highest wholly free 1 GiB-aligned blocks, normal pages fill partly used split
 * frames first and then split the lowest free frames. Pure searches over the frame table: nothing
 * changes until the resulting event is reduced. Runs are [start, count] pairs.
 */

/** `count` huge pages from the top, or undefined when fewer frames are free. */
export function findHugeFrames(table: FrameTable, count: number): number[] | undefined {
  if (count > table.free.count) return undefined;
  const runs: number[] = [];
  let remaining = count;
  let top = table.free.highest();
  // One run per stretch of consecutive free frames, highest first; each run starts at its lowest frame.
  while (remaining > 0 && top !== -1) {
    const length = Math.min(remaining, top - table.free.highestAbsent(top));
    runs.push(top - length + 1, length);
    remaining -= length;
    top = table.free.highest(top - length);
  }
  return runs;
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
  const runs: number[] = [];
  let found = 0;
  for (let block = table.freeInBlock.length - 1; block >= 0 && found < count; block -= 1) {
    if (table.freeInBlock[block] !== FRAMES_PER_GIANT || (block + 1) * FRAMES_PER_GIANT > table.count) continue;
    runs.push(block * FRAMES_PER_GIANT, FRAMES_PER_GIANT);
    found += 1;
  }
  return found === count ? runs : undefined;
}

/** Normal pages available: free pages of split frames plus every page of every free frame. */
export function freeNormalPages(table: FrameTable): number {
  return table.splitFrames * table.pagesPerFrame - table.normalPagesUsed + table.free.count * table.pagesPerFrame;
}

/** Appends [page, length] to sorted runs, joining it to the last run when they touch. */
function pushRun(runs: number[], page: number, length: number): void {
  const last = runs.length - 2;
  if (last >= 0 && (runs[last] ?? 0) + (runs[last + 1] ?? 0) === page) runs[last + 1] = (runs[last + 1] ?? 0) + length;
  else runs.push(page, length);
}

/**
 * `count` normal pages as runs of global page numbers, or undefined when not enough are free.
 * Whole frames come from the bottom of the free frames; the remainder (less than one frame) goes
 * into the first partly used frame with room for it, else into the next free frame. Modeled: the
 * driver's page placement is not published.
 */
export function findNormalPages(table: FrameTable, count: number): number[] | undefined {
  if (count > freeNormalPages(table)) return undefined;
  const ppf = table.pagesPerFrame;
  const runs: number[] = [];
  const whole = Math.floor(count / ppf);
  const remainder = count - whole * ppf;
  let frame = -1;
  // The lowest `whole` free frames, a stretch of consecutive free frames at a time.
  for (let taken = 0; taken < whole; ) {
    const first = table.free.lowest(frame + 1);
    if (first === -1) return fillPartial(table, count, ppf);
    const end = Math.min(table.free.lowestAbsent(first), first + whole - taken);
    pushRun(runs, first * ppf, (end - first) * ppf);
    taken += end - first;
    frame = end - 1;
  }
  if (remainder === 0) return runs;
  for (let partial = table.partial.lowest(); partial !== -1; partial = table.partial.lowest(partial + 1)) {
    if (ppf - (table.used[partial] ?? 0) < remainder) continue;
    const owners = table.pages.get(partial);
    if (owners === undefined) continue;
    const pieces: number[] = [];
    freePieces(owners, ppf, partial * ppf, remainder, pieces);
    // Keep runs sorted by page: this frame may lie below the whole frames taken above.
    return mergeRuns(pieces, runs);
  }
  const next = table.free.lowest(frame + 1);
  if (next === -1) return fillPartial(table, count, ppf);
  pushRun(runs, next * ppf, remainder);
  return runs;
}

/**
 * Appends up to `wanted` free pages (owner 0) of one split frame to `pieces` as [page, count] runs,
 * lowest first, and returns how many it found. Frames fill from the bottom, so the free pages
 * usually lie past a long stretch of used ones: `indexOf` skips those natively.
 */
function freePieces(owners: Int32Array, ppf: number, firstPage: number, wanted: number, pieces: number[]): number {
  let needed = wanted;
  let index = owners.indexOf(0);
  while (needed > 0 && index !== -1 && index < ppf) {
    let end = index + 1;
    while (end < ppf && owners[end] === 0 && end - index < needed) end += 1;
    pieces.push(firstPage + index, end - index);
    needed -= end - index;
    // Past the run, owners[end] is in use (or the request is met): look beyond it.
    if (needed > 0 && end < ppf) index = owners.indexOf(0, end + 1);
    else break;
  }
  return wanted - needed;
}

/** When free frames run short, gather free pages from every partly used frame as well (slow path, a full device). */
function fillPartial(table: FrameTable, count: number, ppf: number): number[] | undefined {
  const pieces: number[] = [];
  let needed = count;
  for (let frame = table.partial.lowest(); frame !== -1 && needed > 0; frame = table.partial.lowest(frame + 1)) {
    const owners = table.pages.get(frame);
    if (owners === undefined) continue;
    needed -= freePieces(owners, ppf, frame * ppf, needed, pieces);
  }
  const wholeFrames: number[] = [];
  for (let frame = table.free.lowest(); frame !== -1 && needed > 0; frame = table.free.lowest(frame + 1)) {
    const length = Math.min(ppf, needed);
    wholeFrames.push(frame * ppf, length);
    needed -= length;
  }
  return needed === 0 ? mergeRuns(pieces, wholeFrames) : undefined;
}

/**
 * Merges two lists of [start, count] runs, each sorted by start and disjoint from the other, into
 * one sorted list, joining runs that touch. (Both callers build their lists in page order, so a
 * merge does what sorting all the runs would, without the sort.)
 */
export function mergeRuns(a: readonly number[], b: readonly number[]): number[] {
  const runs: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const fromA = j >= b.length || (i < a.length && (a[i] ?? 0) < (b[j] ?? 0));
    if (fromA) {
      pushRun(runs, a[i] ?? 0, a[i + 1] ?? 0);
      i += 2;
    } else {
      pushRun(runs, b[j] ?? 0, b[j + 1] ?? 0);
      j += 2;
    }
  }
  return runs;
}

/** Runs for `pages` pages of `pageClass`, or undefined when the device cannot supply them. */
export function findPages(table: FrameTable, pageClass: PageClass, pages: number): number[] | undefined {
  return exactCopy(findPagesOf(table, pageClass, pages));
}

function findPagesOf(table: FrameTable, pageClass: PageClass, pages: number): number[] | undefined {
  switch (pageClass) {
    case 'normal':
      return findNormalPages(table, pages);
    case 'huge':
      return findHugeFrames(table, pages);
    case 'giant':
      return findGiantBlocks(table, pages);
  }
}

/**
 * Runs live as long as their allocation. An array grown by push keeps room for ~19 numbers; a copy
 * is exactly as long, which keeps the long-lived heap (and every scavenge that copies it) small.
 */
function exactCopy(runs: number[] | undefined): number[] | undefined {
  return runs?.slice();
}
