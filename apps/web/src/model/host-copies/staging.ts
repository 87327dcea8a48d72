/** Chunk edges narrower than this (CSS px) are not drawn: the hatch alone says "staged". */
export const MIN_STAGE_PX = 3;

/**
 * The x positions of the edges between staging chunks of a pageable copy drawn from x0 to x1
 * (HM-1: the bytes pass through the bounce buffer one chunk at a time; chunks are drawn equal,
 * the last real one may be shorter). Only edges inside
 * [clip0, clip1] are returned, so a zoomed-in bar of thousands of chunks stays cheap.
 * Empty when the chunks would be too narrow to tell apart.
 */
export function stageEdges(
  x0: number,
  x1: number,
  stages: number,
  clip0 = Number.NEGATIVE_INFINITY,
  clip1 = Number.POSITIVE_INFINITY,
): number[] {
  if (stages < 2 || !(x1 > x0)) return [];
  const width = (x1 - x0) / stages;
  if (width < MIN_STAGE_PX) return [];
  const first = Math.max(1, Math.ceil((clip0 - x0) / width));
  const last = Math.min(stages - 1, Math.floor((clip1 - x0) / width));
  const edges: number[] = [];
  for (let i = first; i <= last; i += 1) edges.push(x0 + i * width);
  return edges;
}
