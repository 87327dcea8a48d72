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
  let frame = table.free.highest();
  for (let taken = 0; taken < count; taken += 1) {
    const last = runs.length - 2;
    // Frames come in descending order: extend the current run downwards when contiguous.
    if (last >= 0 && runs[last] === frame + 1) {
      runs[last] = frame;
      runs[last + 1] = (runs[last + 1] ?? 0) + 1;
    } else {
      runs.push(frame, 1);
    }
    frame = table.free.highest(frame - 1);
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
  const push = (page: number, length: number): void => {
    const last = runs.length - 2;
    if (last >= 0 && (runs[last] ?? 0) + (runs[last + 1] ?? 0) === page) runs[last + 1] = (runs[last + 1] ?? 0) + length;
    else runs.push(page, length);
  };
  const whole = Math.floor(count / ppf);
  let remainder = count - whole * ppf;
  let frame = -1;
  for (let taken = 0; taken < whole; taken += 1) {
    frame = table.free.lowest(frame + 1);
    if (frame === -1) return fillPartial(table, count, ppf);
    push(frame * ppf, ppf);
  }
  if (remainder === 0) return runs;
  for (let partial = table.partial.lowest(); partial !== -1; partial = table.partial.lowest(partial + 1)) {
    if (ppf - (table.used[partial] ?? 0) < remainder) continue;
    const owners = table.pages.get(partial);
    if (owners === undefined) continue;
    const pieces: number[] = [];
    for (let index = 0; index < ppf && remainder > 0; index += 1) {
      if (owners[index] !== 0) continue;
      let end = index;
      while (end < ppf && owners[end] === 0 && end - index < remainder) end += 1;
      pieces.push(partial * ppf + index, end - index);
      remainder -= end - index;
      index = end;
    }
    // Keep runs sorted by page: this frame may lie below the whole frames taken above.
    return mergeRuns([...pieces, ...runs]);
  }
  const next = table.free.lowest(frame + 1);
  if (next === -1) return fillPartial(table, count, ppf);
  push(next * ppf, remainder);
  return runs;
}

/** When free frames run short, gather free pages from every partly used frame as well (slow path, a full device). */
function fillPartial(table: FrameTable, count: number, ppf: number): number[] | undefined {
  const pieces: number[] = [];
  let needed = count;
  for (let frame = table.partial.lowest(); frame !== -1 && needed > 0; frame = table.partial.lowest(frame + 1)) {
    const owners = table.pages.get(frame);
    if (owners === undefined) continue;
    for (let index = 0; index < ppf && needed > 0; index += 1) {
      if (owners[index] !== 0) continue;
      let end = index;
      while (end < ppf && owners[end] === 0 && end - index < needed) end += 1;
      pieces.push(frame * ppf + index, end - index);
      needed -= end - index;
      index = end;
    }
  }
  for (let frame = table.free.lowest(); frame !== -1 && needed > 0; frame = table.free.lowest(frame + 1)) {
    const length = Math.min(ppf, needed);
    pieces.push(frame * ppf, length);
    needed -= length;
  }
  return needed === 0 ? mergeRuns(pieces) : undefined;
}

/** Sorts [start, count] runs by start and joins touching ones. */
function mergeRuns(pieces: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < pieces.length; i += 2) pairs.push([pieces[i] ?? 0, pieces[i + 1] ?? 0]);
  pairs.sort((a, b) => a[0] - b[0]);
  const runs: number[] = [];
  for (const [start, length] of pairs) {
    const last = runs.length - 2;
    if (last >= 0 && (runs[last] ?? 0) + (runs[last + 1] ?? 0) === start) runs[last + 1] = (runs[last + 1] ?? 0) + length;
    else runs.push(start, length);
  }
  return runs;
}

/** Runs for `pages` pages of `pageClass`, or undefined when the device cannot supply them. */
export function findPages(table: FrameTable, pageClass: PageClass, pages: number): number[] | undefined {
  switch (pageClass) {
    case 'normal':
      return findNormalPages(table, pages);
    case 'huge':
      return findHugeFrames(table, pages);
    case 'giant':
      return findGiantBlocks(table, pages);
  }
}
