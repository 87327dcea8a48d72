import { FrameKind, type FrameTable } from '@pagelens/core';
import { frameAt, type PageMapLayout, pageAt } from './layout.ts';
import { type DetailLevel, toWorld, type View } from './viewport.ts';

/** What the pointer is over: a frame, and at page zoom the page inside a split or free frame. */
export interface Hit {
  readonly frame: number;
  /** Page index inside the frame; absent at frame zoom and for huge/giant frames (one page each). */
  readonly page?: number;
}

export function hitTest(layout: PageMapLayout, view: View, table: FrameTable, level: DetailLevel, sx: number, sy: number): Hit | undefined {
  const [wx, wy] = toWorld(view, sx, sy);
  const frame = frameAt(layout, wx, wy);
  if (frame < 0 || frame >= table.count) return undefined;
  const kind = table.kind[frame];
  if (level === 'frames' || kind === FrameKind.huge || kind === FrameKind.giant) return { frame };
  const page = pageAt(layout, frame, wx, wy);
  return page < 0 ? { frame } : { frame, page };
}

export function sameHit(a: Hit | undefined, b: Hit | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.frame === b.frame && a.page === b.page;
}
