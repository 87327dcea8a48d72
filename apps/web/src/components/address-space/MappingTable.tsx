import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type MappingRow, rowTarget } from '../../model/address-space/table-rows.ts';
import {
  applyQuery,
  DEFAULT_QUERY,
  moveActive,
  type SortKey,
  type TableQuery,
  toggleSort,
  virtualWindow,
} from '../../model/address-space/table-view.ts';
import { scrollToRow } from '../../model/log/windowing.ts';
import { useFormat } from '../../store/hooks.ts';
import { type ObjectRef, sameRef } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { MappingTableRow, rowDomId } from './MappingTableRow.tsx';
import './mapping-table.css';

/** Fixed row height in CSS pixels (the virtual window math relies on it; address-space.css matches). */
export const ROW_HEIGHT = 40;
const HEADER_HEIGHT = 28;

export interface MappingTableProps {
  /** In address order, as buildRows gives them. */
  readonly rows: readonly MappingRow[];
  readonly device: number;
  readonly selection: ObjectRef | undefined;
  readonly onChoose: (row: MappingRow) => void;
}

/**
 * The mapping table: one row per allocation, VMM mapping and reservation, sortable and filterable,
 * virtualised (only the rows in view are in the DOM) so 100,000 rows scroll smoothly.
 */
export function MappingTable({ rows, device, selection, onChoose }: MappingTableProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const dark = useAppStore((s) => s.theme === 'dark');
  const [query, setQuery] = useState<TableQuery>(DEFAULT_QUERY);
  const [active, setActive] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(300);
  const scroller = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => applyQuery(rows, query), [rows, query]);
  const body = Math.max(ROW_HEIGHT, viewport - HEADER_HEIGHT);
  const span = virtualWindow(scrollTop, body, ROW_HEIGHT, shown.length);

  useEffect(() => {
    const element = scroller.current;
    if (element === null) return undefined;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const reveal = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (element === null) return;
      const next = scrollToRow(index, element.scrollTop, body, ROW_HEIGHT);
      if (next !== element.scrollTop) {
        element.scrollTop = next;
        setScrollTop(next);
      }
    },
    [body],
  );

  // Selecting elsewhere (strip, inspector, log) brings its row into view.
  useEffect(() => {
    if (selection === undefined) return;
    const index = shown.findIndex((row) => sameRef(selection, rowTarget(row)));
    if (index < 0) return;
    setActive(index);
    reveal(index);
  }, [selection, shown, reveal]);

  const choose = useCallback(
    (index: number) => {
      const row = shown[index];
      if (row === undefined) return;
      setActive(index);
      onChoose(row);
    },
    [shown, onChoose],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>): void => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      choose(active);
      return;
    }
    const next = moveActive(event.key, Math.min(active, shown.length - 1), shown.length, Math.floor(body / ROW_HEIGHT) - 1);
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
    reveal(next);
  };

  const setFilter = (filter: string): void => {
    setQuery((q) => ({ ...q, filter }));
    setActive(0);
    if (scroller.current !== null) scroller.current.scrollTop = 0;
    setScrollTop(0);
  };

  const sortButton = (key: SortKey, label: string) => {
    const current = query.sort === key;
    return (
      <button
        type="button"
        className="mt-sort"
        onClick={() => setQuery((q) => toggleSort(q, key))}
        aria-label={t('addressSpace.table.sortBy', { column: label })}
        data-testid={`mapping-sort-${key}`}
      >
        {label}
        <span aria-hidden="true">{current ? (query.direction === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
      </button>
    );
  };

  const columns = {
    range: t('addressSpace.table.columns.range'),
    size: t('addressSpace.table.columns.size'),
  };
  const visible = shown.slice(span.first, span.last);
  const activeRow = Math.min(active, shown.length - 1);
  return (
    <section className="mapping-table-panel" aria-labelledby="mapping-table-title">
      <div className="mapping-table-head">
        <h3 id="mapping-table-title" className="section-title">
          {t('addressSpace.table.title')}
        </h3>
        <span className="muted" data-testid="mapping-count">
          {t('addressSpace.table.count', { shown: shown.length.toLocaleString('en-US'), total: rows.length.toLocaleString('en-US') })}
        </span>
        <label className="mapping-filter">
          <span className="visually-hidden">{t('addressSpace.table.filter')}</span>
          <input
            type="search"
            value={query.filter}
            placeholder={t('addressSpace.table.filterPlaceholder')}
            onChange={(event) => setFilter(event.target.value)}
            data-testid="mapping-filter"
          />
        </label>
        <span className="muted mapping-keys">{t('addressSpace.table.keyboard')}</span>
      </div>
      <div ref={scroller} className="mapping-scroll" onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}>
        <table
          className="mapping-table"
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA in HTML allows role=grid on a table; its rows are the aria-activedescendants.
          role="grid"
          tabIndex={0}
          aria-labelledby="mapping-table-title"
          aria-rowcount={shown.length + 1}
          aria-activedescendant={shown.length > 0 && activeRow >= span.first && activeRow < span.last ? rowDomId(activeRow) : undefined}
          onKeyDown={onKeyDown}
          data-testid="mapping-table"
        >
          <colgroup>
            <col className="mt-col-range" />
            <col className="mt-col-size" />
            <col className="mt-col-page" />
            <col className="mt-col-backing" />
            <col className="mt-col-access" />
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col" aria-sort={ariaSort(query, 'address')}>
                {sortButton('address', columns.range)}
              </th>
              <th scope="col" className="num" aria-sort={ariaSort(query, 'size')}>
                {sortButton('size', columns.size)}
              </th>
              <th scope="col">{t('addressSpace.table.columns.page')}</th>
              <th scope="col">{t('addressSpace.table.columns.backing')}</th>
              <th scope="col">{t('addressSpace.table.columns.access')}</th>
            </tr>
          </thead>
          <tbody>
            {span.offset > 0 && <tr className="mt-spacer" style={{ height: span.offset }} />}
            {visible.map((row, i) => {
              const index = span.first + i;
              return (
                <MappingTableRow
                  key={`${row.kind}-${row.id}`}
                  row={row}
                  index={index}
                  selected={sameRef(selection, rowTarget(row))}
                  active={index === activeRow}
                  format={format}
                  dark={dark}
                  onClick={choose}
                />
              );
            })}
            {span.total - span.offset - visible.length * ROW_HEIGHT > 0 && (
              <tr className="mt-spacer" style={{ height: span.total - span.offset - visible.length * ROW_HEIGHT }} />
            )}
          </tbody>
        </table>
        {shown.length === 0 && (
          <p className="mapping-empty muted">
            {rows.length === 0 ? t('addressSpace.table.empty', { device }) : t('addressSpace.table.noMatch', { filter: query.filter })}
          </p>
        )}
      </div>
    </section>
  );
}

function ariaSort(query: TableQuery, key: SortKey): 'ascending' | 'descending' | 'none' {
  if (query.sort !== key) return 'none';
  return query.direction === 'asc' ? 'ascending' : 'descending';
}
