import { FRAME_BYTES, formatInteger, type PageClass } from '@pagelens/core';
import type { Fact } from './fact.ts';

const SHOWN_RUNS = 3;

function range(start: number, count: number): string {
  return count <= 1 ? formatInteger(start) : `${formatInteger(start)}–${formatInteger(start + count - 1)}`;
}

/** "32,766–32,767" for runs [32766, 2]; past three runs, "…, +4 more" is left to the label. */
export function runText(runs: readonly number[]): { ranges: string; more: number } {
  const parts: string[] = [];
  let total = 0;
  for (let index = 0; index + 1 < runs.length; index += 2) {
    total += 1;
    if (parts.length < SHOWN_RUNS) parts.push(range(runs[index] ?? 0, runs[index + 1] ?? 0));
  }
  return { ranges: parts.join(', '), more: Math.max(0, total - SHOWN_RUNS) };
}

/**
 * Where the pages sit (DM-11): frames for huge and giant pages, global normal-page numbers and
 * the frames holding them for normal pages. *Modeled* on the simulator: the driver does not say,
 * so a real runtime's backend records no runs at all, and the fact says it is not observable.
 */
export function placementFact(pageClass: PageClass, pageSize: number, runs: readonly number[]): Fact {
  if (runs.length === 0) return { label: 'inspector.fact.placement', key: 'inspector.placement.unobserved' };
  const { ranges, more } = runText(runs);
  if (pageClass !== 'normal') {
    const key = more > 0 ? 'inspector.placement.framesMore' : 'inspector.placement.frames';
    return { label: 'inspector.fact.placement', key, params: { ranges, more }, provenance: 'modeled' };
  }
  const perFrame = FRAME_BYTES / pageSize;
  const frames: number[] = [];
  for (let index = 0; index + 1 < runs.length; index += 2) {
    const first = Math.floor((runs[index] ?? 0) / perFrame);
    const last = Math.floor(((runs[index] ?? 0) + (runs[index + 1] ?? 1) - 1) / perFrame);
    frames.push(first, last - first + 1);
  }
  return {
    label: 'inspector.fact.placement',
    key: more > 0 ? 'inspector.placement.pagesMore' : 'inspector.placement.pages',
    params: { ranges, more, frames: runText(frames).ranges },
    provenance: 'modeled',
  };
}
