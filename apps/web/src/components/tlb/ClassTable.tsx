import { type DeviceProfile, formatBytes, formatInteger, type PageClass } from '@pagelens/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { draftOf, type GeometryDraft, type GeometryField, sameGeometry, validateGeometry } from '../../model/tlb/geometry.ts';
import { geometryStore } from '../../model/tlb/geometry-store.ts';
import { share } from '../../model/tlb/share.ts';
import type { ClassRow, WorkingSetSummary } from '../../model/tlb/working-set.ts';
import { useFormat } from '../../store/hooks.ts';
import { AssumedBadge } from './Badges.tsx';
import { useGeometry } from './useGeometry.ts';

interface ClassTableProps {
  readonly profile: DeviceProfile;
  readonly rows: readonly ClassRow[];
  readonly combined: WorkingSetSummary['combined'];
  /** Page class of the selected allocation or physical memory, highlighted. */
  readonly selectedClass: PageClass | undefined;
}

/** Working set, PTEs and reach per page class, with the assumed TLB geometry editable in place (PT-3). */
export function ClassTable({ profile, rows, combined, selectedClass }: ClassTableProps) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const { geometry, edited } = useGeometry(profile);
  const [draft, setDraft] = useState<GeometryDraft>(() => draftOf(geometry));
  const parsed = validateGeometry(draft);
  // A reset or another profile replaces the draft; the person's own valid edits already match.
  useEffect(() => {
    setDraft((current) => {
      const own = validateGeometry(current);
      return own.ok && sameGeometry(own.geometry, geometry) ? current : draftOf(geometry);
    });
  }, [geometry]);

  const change = (pageClass: PageClass, field: GeometryField, text: string) => {
    const next: GeometryDraft = { ...draft, [pageClass]: { ...draft[pageClass], [field]: text } };
    setDraft(next);
    const result = validateGeometry(next);
    if (result.ok) geometryStore.set(profile, result.geometry);
  };
  const issues = parsed.ok ? [] : parsed.issues;
  const className = (pageClass: PageClass) => t(`tlb.classes.${pageClass}`);
  const input = (pageClass: PageClass, field: GeometryField) => {
    const bad = issues.some((issue) => issue.pageClass === pageClass && issue.field === field);
    return (
      <input
        className={`tlb-number tlb-${field}${bad ? ' invalid' : ''}`}
        inputMode="numeric"
        value={draft[pageClass][field]}
        aria-invalid={bad}
        aria-label={t('tlb.geometry.inputLabel', { pageClass: className(pageClass), field: t(`tlb.geometry.fields.${field}`) })}
        data-testid={`tlb-${field}-${pageClass}`}
        onChange={(event) => change(pageClass, field, event.target.value)}
      />
    );
  };

  return (
    <div className="tlb-block tlb-wide">
      <table className="data tlb-classes" data-testid="tlb-classes">
        <thead>
          <tr>
            <th>{t('tlb.coverage.cols.pageClass')}</th>
            <th className="num">{t('tlb.coverage.cols.workingSet')}</th>
            <th className="num">{t('tlb.coverage.cols.ptes')}</th>
            <th className="tlb-geometry-head">
              {t('tlb.coverage.cols.geometry')} <AssumedBadge />
            </th>
            <th className="num">{t('tlb.coverage.cols.reach')}</th>
            <th>{t('tlb.coverage.cols.coverage')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.pageClass}
              className={row.pageClass === selectedClass ? 'selected' : undefined}
              data-testid={`tlb-class-${row.pageClass}`}
            >
              <td>
                <span className={`tlb-swatch tlb-swatch-${row.pageClass}`} aria-hidden="true" />
                {t('tlb.classWithSize', { name: className(row.pageClass), size: formatBytes(row.pageSize) })}
              </td>
              <td className="num">{bytes(row.bytes, prefs)}</td>
              <td className="num" data-testid={`tlb-ptes-${row.pageClass}`}>
                {formatInteger(row.ptes)}
              </td>
              <td className="tlb-geometry-cell">
                {input(row.pageClass, 'entries')}
                <span className="muted" aria-hidden="true">
                  {' × '}
                </span>
                {input(row.pageClass, 'ways')}
              </td>
              <td className="num">{bytes(row.reach, prefs)}</td>
              <td>
                <Meter
                  coverage={row.coverage}
                  empty={row.bytes === 0}
                  tip={t('tlb.coverage.meterTip', { reach: bytes(row.reach, prefs), bytes: bytes(row.bytes, prefs) })}
                />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>{t('tlb.coverage.total')}</th>
            <td className="num">{bytes(combined.bytes, prefs)}</td>
            <td className="num" data-testid="tlb-ptes-total">
              {formatInteger(combined.ptes)}
            </td>
            <td />
            <td className="num">{bytes(combined.reach, prefs)}</td>
            <td>
              <Meter
                coverage={combined.coverage}
                empty={combined.bytes === 0}
                tip={t('tlb.coverage.meterTip', {
                  reach: bytes(combined.coverage * combined.bytes, prefs),
                  bytes: bytes(combined.bytes, prefs),
                })}
              />
            </td>
          </tr>
        </tfoot>
      </table>
      <div className="tlb-geometry-bar">
        <button
          type="button"
          onClick={() => geometryStore.reset(profile)}
          disabled={!edited}
          title={t('tlb.coverage.resetTip', { profile: profile.name })}
          data-testid="tlb-geometry-reset"
        >
          {t('tlb.coverage.reset')}
        </button>
        {edited && <span className="badge tlb-edited">{t('tlb.edited')}</span>}
        <span className="muted">{t('tlb.coverage.geometryNote')}</span>
      </div>
      {issues.length > 0 && (
        <div className="tlb-errors" role="alert" data-testid="tlb-geometry-errors">
          <ul>
            {issues.map((issue) => (
              <li key={`${issue.pageClass}-${issue.field}`}>
                {t(`tlb.geometry.errors.${issue.code}`, {
                  ...issue.values,
                  pageClass: className(issue.pageClass),
                  field: t(`tlb.geometry.fields.${issue.field}`),
                  max: formatInteger(Number(issue.values.max ?? 0)),
                })}
              </li>
            ))}
          </ul>
          <p>{t('tlb.coverage.invalidKept')}</p>
        </div>
      )}
      <p className="tlb-note muted">{t('tlb.coverage.formula')}</p>
    </div>
  );
}

/** Coverage as a bar (hatched: modeled) with the percentage; an empty class shows a dash. */
function Meter({ coverage, empty, tip }: { readonly coverage: number; readonly empty: boolean; readonly tip: string }) {
  if (empty) return <span className="muted">—</span>;
  return (
    <span className="tlb-meter" title={tip}>
      <span className="tlb-meter-track hatch">
        <span className="tlb-meter-fill" style={{ width: `${Math.max(coverage * 100, coverage > 0 ? 1 : 0)}%` }} />
      </span>
      <span className="tlb-meter-text">{share(coverage)}</span>
    </span>
  );
}
