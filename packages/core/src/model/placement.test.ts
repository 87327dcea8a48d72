import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimFrames, claimPages, createFrameTable, FrameKind, type FrameTable, releaseFrames, releasePages } from './frames.ts';
import { findHugeFrames, findNormalPages, freeNormalPages, mergeRuns } from './placement.ts';

/**
 * The placement searches walk stretches of free frames a word at a time. These references take
 * one frame at a time and sort their pieces, as the searches first did: both must choose the same
 * pages in every state, or replaying an old session would place memory differently.
 */
function referenceHuge(table: FrameTable, count: number): number[] | undefined {
  if (count > table.free.count) return undefined;
  const runs: number[] = [];
  let frame = table.free.highest();
  for (let taken = 0; taken < count; taken += 1) {
    const last = runs.length - 2;
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

function sortAndJoin(pieces: readonly number[]): number[] {
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

function freePieces(table: FrameTable, frame: number, wanted: number): { pieces: number[]; taken: number } {
  const ppf = table.pagesPerFrame;
  const owners = table.pages.get(frame);
  const pieces: number[] = [];
  let needed = wanted;
  if (owners === undefined) return { pieces, taken: 0 };
  for (let index = 0; index < ppf && needed > 0; index += 1) {
    if (owners[index] !== 0) continue;
    let end = index;
    while (end < ppf && owners[end] === 0 && end - index < needed) end += 1;
    pieces.push(frame * ppf + index, end - index);
    needed -= end - index;
    index = end;
  }
  return { pieces, taken: wanted - needed };
}

function referenceNormal(table: FrameTable, count: number): number[] | undefined {
  if (count > freeNormalPages(table)) return undefined;
  const ppf = table.pagesPerFrame;
  const fill = (): number[] | undefined => {
    const pieces: number[] = [];
    let needed = count;
    for (let frame = table.partial.lowest(); frame !== -1 && needed > 0; frame = table.partial.lowest(frame + 1)) {
      const got = freePieces(table, frame, needed);
      pieces.push(...got.pieces);
      needed -= got.taken;
    }
    for (let frame = table.free.lowest(); frame !== -1 && needed > 0; frame = table.free.lowest(frame + 1)) {
      pieces.push(frame * ppf, Math.min(ppf, needed));
      needed -= Math.min(ppf, needed);
    }
    return needed === 0 ? sortAndJoin(pieces) : undefined;
  };
  const pieces: number[] = [];
  const whole = Math.floor(count / ppf);
  const remainder = count - whole * ppf;
  let frame = -1;
  for (let taken = 0; taken < whole; taken += 1) {
    frame = table.free.lowest(frame + 1);
    if (frame === -1) return fill();
    pieces.push(frame * ppf, ppf);
  }
  if (remainder === 0) return sortAndJoin(pieces);
  for (let partial = table.partial.lowest(); partial !== -1; partial = table.partial.lowest(partial + 1)) {
    if (ppf - (table.used[partial] ?? 0) < remainder || !table.pages.has(partial)) continue;
    return sortAndJoin([...freePieces(table, partial, remainder).pieces, ...pieces]);
  }
  const next = table.free.lowest(frame + 1);
  if (next === -1) return fill();
  return sortAndJoin([...pieces, next * ppf, remainder]);
}

type Step = { readonly huge: boolean; readonly size: number; readonly release: number };

/** Drives a small frame table through claims and releases, comparing every search with its reference. */
function replay(frames: number, ppf: number, steps: readonly Step[]): void {
  const table = createFrameTable(frames, ppf);
  const live: { runs: number[]; huge: boolean }[] = [];
  let owner = 1;
  for (const step of steps) {
    if (step.release > 0 && live.length > 0) {
      const [victim] = live.splice(step.release % live.length, 1);
      if (victim?.huge) releaseFrames(table, victim.runs);
      else if (victim !== undefined) releasePages(table, victim.runs);
      continue;
    }
    const count = step.huge ? 1 + (step.size % 6) : 1 + (step.size % (ppf * 5));
    const found = step.huge ? findHugeFrames(table, count) : findNormalPages(table, count);
    expect(found).toEqual(step.huge ? referenceHuge(table, count) : referenceNormal(table, count));
    if (found === undefined) continue;
    if (step.huge) claimFrames(table, found, FrameKind.huge, owner);
    else claimPages(table, found, owner);
    owner += 1;
    live.push({ runs: found, huge: step.huge });
  }
  // `paged` mirrors the keys of `pages` exactly (frames.ts tests it instead of looking the frame up).
  const paged: number[] = [];
  for (let frame = table.paged.lowest(); frame !== -1; frame = table.paged.lowest(frame + 1)) paged.push(frame);
  expect(paged).toEqual([...table.pages.keys()].sort((a, b) => a - b));
}

describe('placement searches', () => {
  it('choose exactly the pages the frame-by-frame references choose (property)', () => {
    const step = fc.record({ huge: fc.boolean(), size: fc.nat(), release: fc.oneof(fc.constant(0), fc.nat()) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.constantFrom(4, 8, 32), fc.array(step, { maxLength: 120 }), (frames, ppf, steps) =>
        replay(frames, ppf, steps),
      ),
      { numRuns: 400 },
    );
  });

  it('takes a whole stretch of free frames at once, and the partial frame below it in page order', () => {
    const table = createFrameTable(64, 8);
    claimPages(table, [0, 6], 1);
    // Frames 1–3 whole, and the last two pages of frame 0, which touch them: one run.
    expect(findNormalPages(table, 8 * 3 + 2)).toEqual([6, 2 + 8 * 3]);
    claimFrames(table, [60, 4], FrameKind.huge, 2);
    expect(findHugeFrames(table, 10)).toEqual([50, 10]);
  });

  it('merges two sorted run lists, joining runs that touch', () => {
    expect(mergeRuns([0, 2, 10, 2], [2, 3, 20, 1])).toEqual([0, 5, 10, 2, 20, 1]);
    expect(mergeRuns([], [4, 1])).toEqual([4, 1]);
    expect(mergeRuns([5, 5], [])).toEqual([5, 5]);
  });
});
