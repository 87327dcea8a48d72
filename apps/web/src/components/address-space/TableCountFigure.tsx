import { formatInteger } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import type { TableFigure } from '../../model/address-space/walk-model.ts';
import { bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';

/** PT-2 (modeled): translation-table pages per level for the whole process, as small bars. */
export function TableCountFigure({ figure, pid }: { figure: TableFigure; pid: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const count = figure.count;
  const levels = count === undefined ? [] : [count.level0, count.level1, count.level2, count.level3];
  const most = Math.max(1, ...levels);
  return (
    <figure className="walk-figure hatch-soft" data-testid="walk-table-count">
      <figcaption className="section-title">{t('addressSpace.walk.tables.title', { pid })}</figcaption>
      {figure.error !== undefined && <p className="walk-error">{figure.error}</p>}
      {count !== undefined && count.total === 0 && <p className="muted">{t('addressSpace.walk.tables.none')}</p>}
      {count !== undefined && count.total > 0 && (
        <>
          <ul className="walk-figure-bars">
            {levels.map((value, level) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the four levels are fixed positions.
              <li key={level} data-testid={`walk-tables-l${level}`} data-count={value}>
                <span className="walk-figure-level">{t('addressSpace.walk.tables.level', { level })}</span>
                <span className="walk-figure-track">
                  <span className="walk-figure-bar" style={{ width: `${Math.max(value > 0 ? 4 : 0, (value / most) * 100)}%` }} />
                </span>
                <span className="mono walk-figure-value">{formatInteger(value)}</span>
              </li>
            ))}
          </ul>
          <p className="walk-figure-total">
            {t('addressSpace.walk.tables.total', {
              total: formatInteger(count.total),
              bytes: bytes(count.bytes, format),
              ranges: formatInteger(figure.ranges),
            })}
          </p>
        </>
      )}
      {figure.skipped > 0 && <p className="muted">{t('addressSpace.walk.tables.skipped', { count: figure.skipped })}</p>}
    </figure>
  );
}
