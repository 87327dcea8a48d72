import type { DeviceReport, DeviceState, HostState } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { coverageRows } from '../../model/tlb/coverage-rows.ts';
import { classRows, requestedBytes } from '../../model/tlb/working-set.ts';
import { sameRef, selectSelection } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ClassTable } from './ClassTable.tsx';
import { CoverageTable } from './CoverageTable.tsx';
import { PageSizeTable } from './PageSizeTable.tsx';
import { TlbSection } from './TlbSection.tsx';
import { useGeometry } from './useGeometry.ts';

export interface SectionProps {
  readonly state: HostState;
  readonly device: DeviceState;
  /** Changes whenever the state at the cursor does (the live state is mutated in place). */
  readonly stamp: string;
}

/** Part 1: PTEs per page class, the same bytes at each page size, reach vs working set, and per allocation. */
export function CoverageSection({ state, device, stamp, report }: SectionProps & { readonly report: DeviceReport }) {
  const { t } = useTranslation();
  const { profile } = device;
  const { geometry } = useGeometry(profile);
  const summary = useMemo(() => classRows(report.workingSet, geometry, profile.normalPageSize), [report, geometry, profile]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: stamp changes whenever the state does
  const requested = useMemo(() => requestedBytes(state, device.id), [stamp, state, device]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: stamp changes whenever the state does
  const rows = useMemo(() => coverageRows(state, device.id, geometry), [stamp, state, device, geometry]);
  const selection = useAppStore(selectSelection);
  const selectedClass = rows.find((row) => sameRef({ kind: row.kind, id: row.id }, selection))?.pageClass;
  return (
    <TlbSection heading={t('tlb.coverage.heading')} testId="tlb-coverage">
      <p className="tlb-intro muted">{t('tlb.coverage.intro')}</p>
      {report.liveObjects === 0 && (
        <p className="tlb-empty" data-testid="tlb-coverage-empty">
          {t('tlb.coverage.empty', { device: device.id })}
        </p>
      )}
      <ClassTable profile={profile} rows={summary.rows} combined={summary.combined} selectedClass={selectedClass} />
      <PageSizeTable held={summary.combined.bytes} requested={requested} normalPageSize={profile.normalPageSize} />
      <CoverageTable rows={rows} geometry={geometry} />
    </TlbSection>
  );
}
