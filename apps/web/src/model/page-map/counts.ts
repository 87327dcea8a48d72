import { type FrameTable, largestFreeRun } from '@pagelens/core';

/** The legend's figures for one device. */
export interface MapCounts {
  readonly total: number;
  readonly free: number;
  readonly huge: number;
  readonly giant: number;
  readonly split: number;
  /** Split frames holding pages of more than one owner or with free pages. */
  readonly shared: number;
  readonly normalPagesUsed: number;
  /** Free normal pages inside split frames. */
  readonly normalPagesFree: number;
  readonly largestFreeRun: number;
}

export function mapCounts(table: FrameTable): MapCounts {
  return {
    total: table.count,
    free: table.free.count,
    huge: table.hugeFrames,
    giant: table.giantFrames,
    split: table.splitFrames,
    shared: table.pages.size,
    normalPagesUsed: table.normalPagesUsed,
    normalPagesFree: table.splitFrames * table.pagesPerFrame - table.normalPagesUsed,
    largestFreeRun: largestFreeRun(table),
  };
}
