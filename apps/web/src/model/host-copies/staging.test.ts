import { describe, expect, it } from 'vitest';
import { MIN_STAGE_PX, stageEdges } from './staging.ts';

describe('staging segmentation (HM-1)', () => {
  it('cuts a pageable bar into its staging chunks: stages − 1 edges, evenly spaced', () => {
    expect(stageEdges(0, 320, 32)).toEqual(Array.from({ length: 31 }, (_, i) => (i + 1) * 10));
    expect(stageEdges(100, 130, 3)).toEqual([110, 120]);
  });

  it('draws no edges for one chunk, an empty bar, or chunks too narrow to tell apart', () => {
    expect(stageEdges(0, 100, 1)).toEqual([]);
    expect(stageEdges(0, 100, 0)).toEqual([]);
    expect(stageEdges(50, 50, 8)).toEqual([]);
    expect(stageEdges(0, 32 * (MIN_STAGE_PX - 0.5), 32)).toEqual([]);
    expect(stageEdges(0, 32 * MIN_STAGE_PX, 32)).toHaveLength(31);
  });

  it('returns only the edges inside the clip range, so a zoomed bar of many chunks stays cheap', () => {
    // 10,000 chunks of 10 px: only the handful on screen are returned.
    const edges = stageEdges(-50_000, 50_000, 10_000, 0, 40);
    expect(edges).toEqual([0, 10, 20, 30, 40]);
  });
});
