import { byAddress, type MappingRow } from './table-rows.ts';

export type SortKey = 'address' | 'size';
export type SortDirection = 'asc' | 'desc';

export interface TableQuery {
  readonly sort: SortKey;
  readonly direction: SortDirection;
  /** Free text: every word must appear in the row (kind, #id, addresses in hex and decimal, fn, handle). */
  readonly filter: string;
}

export const DEFAULT_QUERY: TableQuery = { sort: 'address', direction: 'asc', filter: '' };

const searchText = new WeakMap<MappingRow, string>();

/** What a row can be found by, lower case; built once per row, on first filtering. */
export function rowSearchText(row: MappingRow): string {
  const cached = searchText.get(row);
  if (cached !== undefined) return cached;
  const end = row.start + row.size;
  const parts: (string | number)[] = [row.kind, `#${row.id}`, `0x${row.start.toString(16)}`, `0x${end.toString(16)}`, row.start, end];
  if (row.kind === 'allocation') parts.push(row.fn, row.pageClass);
  if (row.kind === 'mapping') {
    parts.push('aclrtMapMem', `handle #${row.handleId}`, row.pageClass ?? '');
    if (row.handleValue !== undefined) parts.push(`0x${row.handleValue.toString(16)}`);
  }
  if (row.kind === 'reservation') parts.push('aclrtReserveMemAddress');
  if (row.kind === 'ipcImport') parts.push('aclrtIpcMemImportByKey', `alloc #${row.source}`, row.key, row.pageClass ?? '');
  const text = parts.join(' ').toLowerCase();
  searchText.set(row, text);
  return text;
}

/** Words of a filter; "0x1000_0020" matches as "0x10000020" (underscores group digits). */
export function filterWords(filter: string): string[] {
  return filter
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replaceAll('_', ''))
    .filter((word) => word !== '');
}

/** The rows to show: filtered, then sorted. `rows` must be in address order (as buildRows gives them). */
export function applyQuery(rows: readonly MappingRow[], query: TableQuery): readonly MappingRow[] {
  const words = filterWords(query.filter);
  const kept = words.length === 0 ? rows : rows.filter((row) => words.every((word) => rowSearchText(row).includes(word)));
  const sign = query.direction === 'asc' ? 1 : -1;
  if (query.sort === 'address') return sign === 1 ? kept : [...kept].reverse();
  return [...kept].sort((a, b) => sign * (a.size - b.size) || byAddress(a, b));
}

/** Next query after clicking a column heading: the same column flips direction; a new one starts ascending. */
export function toggleSort(query: TableQuery, key: SortKey): TableQuery {
  if (query.sort === key) return { ...query, direction: query.direction === 'asc' ? 'desc' : 'asc' };
  return { ...query, sort: key, direction: key === 'size' ? 'desc' : 'asc' };
}

export interface VirtualWindow {
  /** First row to render. */
  readonly first: number;
  /** One past the last row to render. */
  readonly last: number;
  /** Pixels from the top of the scrolled content to the first rendered row. */
  readonly offset: number;
  /** Height of the whole (virtual) list in pixels. */
  readonly total: number;
}

/** Rows that intersect the viewport, plus `overscan` rows each side. Fixed row height. */
export function virtualWindow(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 6): VirtualWindow {
  const total = count * rowHeight;
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, total - viewport)));
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((top + viewport) / rowHeight) + overscan);
  return { first, last, offset: first * rowHeight, total };
}

/** Keyboard movement in the table: which row becomes active. */
export function moveActive(key: string, active: number, count: number, pageRows: number): number | undefined {
  if (count === 0) return undefined;
  const clamp = (value: number): number => Math.max(0, Math.min(count - 1, value));
  switch (key) {
    case 'ArrowDown':
      return clamp(active + 1);
    case 'ArrowUp':
      return clamp(active - 1);
    case 'PageDown':
      return clamp(active + Math.max(1, pageRows));
    case 'PageUp':
      return clamp(active - Math.max(1, pageRows));
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
