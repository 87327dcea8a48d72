import { ASCEND_910B2, createHostState, type FrameTable } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { DrawnFrames, sameSelection } from './drawn-frames.ts';
import type { MapSelection } from './selection.ts';

function table(): FrameTable {
  const frames = createHostState([ASCEND_910B2]).devices[0]?.frames;
  if (frames === undefined) throw new Error('no device');
  return frames;
}

describe('DrawnFrames', () => {
  it('knows nothing before the first draw', () => {
    expect(new DrawnFrames().same(table())).toBe(false);
  });

  it('is the same for an equal table (another object), and not once any field of any frame differs', () => {
    const drawn = new DrawnFrames();
    const first = table();
    first.kind[3] = 2;
    first.owner[3] = 41;
    drawn.remember(first);
    const again = table();
    again.kind[3] = 2;
    again.owner[3] = 41;
    expect(drawn.same(again)).toBe(true);
    const edits: ((t: FrameTable) => void)[] = [
      (t) => {
        t.kind[9] = 1;
      },
      (t) => {
        t.owner[3] = 42;
      },
      (t) => {
        t.used[3] = 7;
      },
      (t) => {
        t.pages.set(3, new Int32Array(512));
      },
    ];
    for (const edit of edits) {
      const changed = table();
      changed.kind[3] = 2;
      changed.owner[3] = 41;
      edit(changed);
      expect(drawn.same(changed)).toBe(false);
    }
  });

  it('compares the pages of split frames by value, and keeps its own copy', () => {
    const drawn = new DrawnFrames();
    const first = table();
    first.pages.set(
      5,
      Int32Array.from({ length: 512 }, (_, i) => (i < 10 ? 8 : 0)),
    );
    drawn.remember(first);
    const again = table();
    again.pages.set(
      5,
      Int32Array.from({ length: 512 }, (_, i) => (i < 10 ? 8 : 0)),
    );
    expect(drawn.same(again)).toBe(true);
    // The drawn table changing in place afterwards (a live state) does not change what was drawn.
    first.pages.get(5)?.fill(9);
    expect(drawn.same(first)).toBe(false);
    expect(drawn.same(again)).toBe(true);
    again.pages.get(5)?.set([0], 511);
    again.pages.get(5)?.set([3], 511);
    expect(drawn.same(again)).toBe(false);
  });
});

describe('sameSelection', () => {
  const selection = (owners: number[], frames: number[]): MapSelection => {
    const marks = new Uint8Array(8);
    for (const frame of frames) marks[frame] = 1;
    return { owners: new Set(owners), frames: marks, frameCount: frames.length, first: frames[0] ?? -1 };
  };
  it('matches by owners and frames, not by object', () => {
    expect(sameSelection(undefined, undefined)).toBe(true);
    expect(sameSelection(selection([1], [2, 3]), selection([1], [2, 3]))).toBe(true);
    expect(sameSelection(selection([1], [2, 3]), undefined)).toBe(false);
    expect(sameSelection(selection([1], [2, 3]), selection([2], [2, 3]))).toBe(false);
    expect(sameSelection(selection([1], [2, 3]), selection([1], [2, 4]))).toBe(false);
    expect(sameSelection(selection([1, 2], [2]), selection([1, 3], [2]))).toBe(false);
  });
});
