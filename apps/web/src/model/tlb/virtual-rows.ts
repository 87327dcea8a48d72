/** The slice of a fixed-row-height list a scroll box shows, with `overscan` extra rows each side. */
export interface RowWindow {
  readonly start: number;
  /** One past the last row drawn. */
  readonly end: number;
  /** Pixels of rows skipped above and below, kept as spacers so the scroll bar stays true. */
  readonly before: number;
  readonly after: number;
}

export function visibleRows(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 8): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.min(count, first + Math.ceil(viewport / rowHeight) + overscan);
  const clampedStart = Math.min(start, end);
  return { start: clampedStart, end, before: clampedStart * rowHeight, after: (count - end) * rowHeight };
}

/** The scrollTop that brings row `index` into view, or undefined when it already is (rows below a `header` px sticky header). */
export function scrollToRow(index: number, scrollTop: number, viewport: number, rowHeight: number, header = 0): number | undefined {
  const top = index * rowHeight;
  const visibleTop = scrollTop;
  const visibleBottom = scrollTop + viewport - header;
  if (top >= visibleTop && top + rowHeight <= visibleBottom) return undefined;
  return Math.max(0, top - Math.floor((viewport - header) / 2));
}
