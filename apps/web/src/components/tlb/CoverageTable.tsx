import { formatBytes, formatInteger, type TlbGeometry } from '@pagelens/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { address, bytes } from '../../model/format.ts';
import { type CoverageRow, type SortDirection, type SortKey, sortRows } from '../../model/tlb/coverage-rows.ts';
import { share } from '../../model/tlb/share.ts';
import { scrollToRow, visibleRows } from '../../model/tlb/virtual-rows.ts';
import { useFormat } from '../../store/hooks.ts';
import { type ObjectRef, sameRef, selectSelection } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

const ROW_HEIGHT = 26;
const VIEWPORT = 234;
const COLUMNS: readonly { key: SortKey; numeric: boolean }[] = [
  { key: 'object', numeric: false },
  { key: 'size', numeric: true },
  { key: 'pageClass', numeric: false },
  { key: 'ptes', numeric: true },
  { key: 'coverage', numeric: true },
  { key: 'fit', numeric: false },
];

function refOf(row: CoverageRow): ObjectRef {
  return { kind: row.kind, id: row.id };
}

/**
 * Every live allocation and physical memory with its PTEs and TLB fit: sortable, and virtualised
 * (only the rows in view are in the DOM) so 100,000 allocations scroll smoothly.
 */
export function CoverageTable({ rows, geometry }: { readonly rows: readonly CoverageRow[]; readonly geometry: TlbGeometry }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const selection = useAppStore(selectSelection);
  const select = useAppStore((state) => state.select);
  const [sort, setSort] = useState<{ key: SortKey; direction: SortDirection }>({ key: 'object', direction: 'ascending' });
  const [scrollTop, setScrollTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const sorted = useMemo(() => sortRows(rows, sort.key, sort.direction), [rows, sort]);
  const slice = visibleRows(scrollTop, VIEWPORT, ROW_HEIGHT, sorted.length);
  const classPtes = useMemo(() => {
    const totals = { normal: 0, huge: 0, giant: 0 };
    for (const row of rows) totals[row.pageClass] += row.ptes;
    return totals;
  }, [rows]);

  // A selection made elsewhere scrolls its row into view.
  useEffect(() => {
    const element = box.current;
    if (element === null || selection === undefined) return;
    const index = sorted.findIndex((row) => sameRef(refOf(row), selection));
    if (index < 0) return;
    const target = scrollToRow(index, element.scrollTop, element.clientHeight, ROW_HEIGHT, ROW_HEIGHT);
    if (target !== undefined) element.scrollTop = target;
  }, [selection, sorted]);

  const toggle = (key: SortKey) =>
    setSort((current) => {
      if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
      // Names start A→Z; numbers start with the largest, which is what one looks for.
      return { key, direction: key === 'object' || key === 'pageClass' ? 'ascending' : 'descending' };
    });

  const label = (row: CoverageRow): string =>
    row.kind === 'allocation'
      ? address(row.address ?? 0, prefs)
      : row.address === undefined
        ? t('tlb.table.physicalGone', { id: row.id })
        : t('tlb.table.physical', { handle: address(row.address, prefs) });

  return (
    <div className="tlb-block">
      <h4 className="tlb-subtitle">
        {t('tlb.table.heading')} <span className="muted">{t('tlb.table.count', { count: rows.length })}</span>
      </h4>
      {rows.length === 0 ? (
        <p className="muted">{t('tlb.table.empty')}</p>
      ) : (
        <div
          className="tlb-scroll"
          ref={box}
          style={{ maxHeight: VIEWPORT }}
          onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        >
          <table className="data tlb-coverage-table" data-testid="tlb-coverage-table">
            <thead>
              <tr style={{ height: ROW_HEIGHT }}>
                {COLUMNS.map(({ key, numeric }) => {
                  const active = sort.key === key;
                  const column = t(`tlb.table.cols.${key}`);
                  return (
                    <th key={key} className={numeric ? 'num' : undefined} aria-sort={active ? sort.direction : 'none'}>
                      <button
                        type="button"
                        className="tlb-sort"
                        onClick={() => toggle(key)}
                        title={t('tlb.table.sortBy', { column })}
                        data-testid={`tlb-sort-${key}`}
                      >
                        {column}
                        <span aria-hidden="true">{active ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {slice.before > 0 && <tr className="tlb-spacer" style={{ height: slice.before }} />}
              {sorted.slice(slice.start, slice.end).map((row) => {
                const selected = sameRef(refOf(row), selection);
                const entries = geometry[row.pageClass].entries;
                const pageClass = t(`tlb.classInline.${row.pageClass}`);
                return (
                  <tr
                    key={`${row.kind}-${row.id}`}
                    className={selected ? 'selected' : undefined}
                    style={{ height: ROW_HEIGHT }}
                    data-testid="tlb-coverage-row"
                  >
                    <td>
                      <button
                        type="button"
                        className="tlb-link mono"
                        aria-pressed={selected}
                        title={t('tlb.table.selectTip', { object: label(row) })}
                        onClick={() => select(selected ? undefined : refOf(row))}
                      >
                        {label(row)}
                      </button>{' '}
                      <span className="muted tlb-fn">{row.fn}</span>
                    </td>
                    <td className="num">{bytes(row.size, prefs)}</td>
                    <td>
                      <span className={`tlb-swatch tlb-swatch-${row.pageClass}`} aria-hidden="true" />
                      {formatBytes(row.pageSize)}
                    </td>
                    <td className="num">{formatInteger(row.ptes)}</td>
                    <td className="num">{share(row.coverage)}</td>
                    <td
                      className={`tlb-fit tlb-fit-${row.fit}`}
                      title={t(`tlb.table.fitTip.${row.fit}`, {
                        pageClass,
                        ptes: formatInteger(classPtes[row.pageClass]),
                        own: formatInteger(row.ptes),
                        entries: formatInteger(entries),
                      })}
                    >
                      {t(`tlb.table.fit.${row.fit}`)}
                    </td>
                  </tr>
                );
              })}
              {slice.after > 0 && <tr className="tlb-spacer" style={{ height: slice.after }} />}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
