/**
 * Windowing for a list of fixed-height rows: only the rows in view (plus a few either side) are
 * rendered, with padding above and below standing in for the rest. All sizes in CSS pixels.
 */
export interface RowWindow {
  /** First rendered row. */
  readonly start: number;
  /** One past the last rendered row. */
  readonly end: number;
  readonly padTop: number;
  readonly padBottom: number;
  readonly total: number;
  /**
   * The most rows a window of this viewport holds: `index % slots` differs for every row of a
   * window, so a row keyed by it keeps its DOM node while it stays in view and hands it to a new
   * row when it leaves (a log following 2,000 calls per frame then updates nodes instead of
   * replacing them all).
   */
  readonly slots: number;
}

export interface WindowInput {
  readonly scrollTop: number;
  readonly viewport: number;
  readonly rowHeight: number;
  readonly count: number;
  /** Extra rows rendered above and below the visible ones. */
  readonly overscan?: number;
}

export function rowWindow({ scrollTop, viewport, rowHeight, count, overscan = 8 }: WindowInput): RowWindow {
  const total = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0, total: 0, slots: 1 };
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, total - viewport));
  const first = Math.floor(top / rowHeight);
  const visible = Math.ceil(Math.max(viewport, rowHeight) / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight, total, slots: visible + 2 * overscan };
}

/** The scrollTop that brings row `index` fully into view, moving as little as possible. */
export function scrollToRow(index: number, scrollTop: number, viewport: number, rowHeight: number): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewport) return Math.max(0, bottom - viewport);
  return scrollTop;
}

/** True when the list is scrolled to (within `slack` px of) its end: the log then follows new calls. */
export function atBottom(scrollTop: number, viewport: number, total: number, slack = 4): boolean {
  return scrollTop + viewport >= total - slack;
}

/** The row a navigation key moves to; undefined for keys that do not navigate. */
export function navigate(key: string, current: number | undefined, count: number, pageRows: number): number | undefined {
  if (count === 0) return undefined;
  const last = count - 1;
  const from = current ?? last;
  switch (key) {
    case 'ArrowDown':
      return current === undefined ? last : Math.min(last, from + 1);
    case 'ArrowUp':
      return current === undefined ? last : Math.max(0, from - 1);
    case 'PageDown':
      return Math.min(last, from + Math.max(1, pageRows));
    case 'PageUp':
      return Math.max(0, from - Math.max(1, pageRows));
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return undefined;
  }
}
