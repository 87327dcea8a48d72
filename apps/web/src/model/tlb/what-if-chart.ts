import { PAGE_CLASSES, type PageClass } from '@pagelens/core';
import { scaleLinear, scaleSymlog } from 'd3-scale';
import type { WhatIfTotals } from './what-if.ts';

/** A value bar with its label: the label sits after the bar, or inside its end when the bar is long. */
export interface ValueBar {
  readonly x: number;
  readonly width: number;
  readonly value: number;
  readonly text: string;
  readonly labelX: number;
  readonly inside: boolean;
}

export interface PteBar extends ValueBar {
  /** The bar split by page class in proportion to the pages of each class. */
  readonly segments: readonly { readonly pageClass: PageClass; readonly x: number; readonly width: number }[];
}

export interface WhatIfChartRow {
  readonly key: string;
  readonly y: number;
  readonly refused: number;
  readonly ptes: PteBar;
  readonly waste: ValueBar;
}

export interface WhatIfChart {
  readonly width: number;
  readonly height: number;
  readonly rowHeight: number;
  readonly barHeight: number;
  readonly labelWidth: number;
  readonly panels: { readonly ptes: { x: number; width: number }; readonly waste: { x: number; width: number } };
  readonly rows: readonly WhatIfChartRow[];
}

export interface WhatIfChartOptions {
  readonly width: number;
  readonly formatCount: (value: number) => string;
  readonly formatBytes: (value: number) => string;
  readonly labelWidth?: number;
  readonly rowHeight?: number;
  readonly top?: number;
}

/** Approximate width of a label in the chart's 11 px font: enough to decide inside or outside. */
const CHAR_WIDTH = 6.6;
const GAP = 16;

/**
 * Horizontal bars, one row per policy (the live allocations first if given), two panels: PTEs on a
 * symlog scale (the policies differ by orders of magnitude: 262,144 vs 1 for 1 GiB, PT-1) split by
 * page class, and waste on a linear scale (DM-11: pages × page size − requested).
 */
export function whatIfChart(rows: readonly WhatIfTotals[], options: WhatIfChartOptions): WhatIfChart {
  const { width, formatCount, formatBytes } = options;
  const labelWidth = options.labelWidth ?? 118;
  const rowHeight = options.rowHeight ?? 34;
  const top = options.top ?? 22;
  const barHeight = 14;
  const panelWidth = Math.max(40, (width - labelWidth - 2 * GAP) / 2);
  const ptesX = labelWidth + GAP;
  const wasteX = ptesX + panelWidth + GAP;
  const maxPtes = Math.max(1, ...rows.map((row) => row.ptes));
  const maxWaste = Math.max(1, ...rows.map((row) => row.waste));
  const ptesScale = scaleSymlog().domain([0, maxPtes]).range([0, panelWidth]);
  const wasteScale = scaleLinear().domain([0, maxWaste]).range([0, panelWidth]);
  const bar = (x: number, value: number, length: number, text: string): ValueBar => {
    const room = panelWidth - length;
    const inside = text.length * CHAR_WIDTH + 8 > room;
    return { x, width: length, value, text, labelX: inside ? x + length - 4 : x + length + 4, inside };
  };
  const chartRows = rows.map((row, index): WhatIfChartRow => {
    const ptesLength = Math.max(0, ptesScale(row.ptes));
    let at = ptesX;
    const segments = PAGE_CLASSES.filter((pageClass) => row.pages[pageClass] > 0).map((pageClass) => {
      const segment = { pageClass, x: at, width: row.ptes === 0 ? 0 : (ptesLength * row.pages[pageClass]) / row.ptes };
      at += segment.width;
      return segment;
    });
    return {
      key: row.key,
      y: top + index * rowHeight,
      refused: row.refused,
      ptes: { ...bar(ptesX, row.ptes, ptesLength, formatCount(row.ptes)), segments },
      waste: bar(wasteX, row.waste, Math.max(0, wasteScale(row.waste)), formatBytes(row.waste)),
    };
  });
  return {
    width,
    height: top + rows.length * rowHeight,
    rowHeight,
    barHeight,
    labelWidth,
    panels: { ptes: { x: ptesX, width: panelWidth }, waste: { x: wasteX, width: panelWidth } },
    rows: chartRows,
  };
}
