import { formatBytes, formatInteger } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { samePageSizes } from '../../model/tlb/working-set.ts';
import { useFormat } from '../../store/hooks.ts';

/** PT-1 in numbers: the live bytes (held and requested) if every page were 4 KiB, 2 MiB or 1 GiB. */
export function PageSizeTable({
  held,
  requested,
  normalPageSize,
}: {
  readonly held: number;
  readonly requested: number;
  readonly normalPageSize: number;
}) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const rows = samePageSizes(held, requested, normalPageSize);
  return (
    <div className="tlb-block">
      <h4 className="tlb-subtitle">{t('tlb.samePages.heading')}</h4>
      <table className="data tlb-page-sizes" data-testid="tlb-page-sizes">
        <thead>
          <tr>
            <th>{t('tlb.samePages.pageSize')}</th>
            <th className="num">{t('tlb.samePages.held', { bytes: bytes(held, prefs) })}</th>
            <th className="num">{t('tlb.samePages.requested', { bytes: bytes(requested, prefs) })}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.pageSize}>
              <td>{formatBytes(row.pageSize)}</td>
              <td className="num">{formatInteger(row.heldPtes)}</td>
              <td className="num">{formatInteger(row.requestedPtes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="tlb-note muted">{t('tlb.samePages.note')}</p>
    </div>
  );
}
