import { reportDevice } from '@pagelens/core';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { useThrottled } from '../../hooks/useThrottled.ts';
import { bytes } from '../../model/format.ts';
import { useCursorSeq, useCursorState, useFormat } from '../../store/hooks.ts';
import { selectVersion } from '../../store/replica-slice.ts';
import { selectSession } from '../../store/session-slice.ts';
import { selectDevice } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { CoverageSection } from './CoverageSection.tsx';
import { createLocalStore, useLocalStore } from './local-store.ts';
import { SimulatorSection } from './SimulatorSection.tsx';
import { WhatIfSection } from './WhatIfSection.tsx';
import './tlb.css';

const SECTIONS = ['coverage', 'whatIf', 'sim'] as const;
type Section = (typeof SECTIONS)[number];

/** The section shown, remembered while the person visits other tabs. */
const sectionStore = createLocalStore<{ section: Section }>({ section: 'coverage' });

function step(section: Section, by: number): Section {
  const index = (SECTIONS.indexOf(section) + by + SECTIONS.length) % SECTIONS.length;
  return SECTIONS[index] ?? 'coverage';
}

/** View 4: PTEs and TLB reach of the live working set, the policy what-if, and the TLB simulator. */
export function TlbView() {
  const { t } = useTranslation();
  const state = useCursorState();
  const deviceId = useAppStore(selectDevice);
  const version = useAppStore(selectVersion);
  const seq = useCursorSeq();
  const session = useAppStore(selectSession);
  const prefs = useFormat();
  const { section } = useLocalStore(sectionStore);
  const panel = useRef<HTMLElement>(null);
  // Another section starts at its top, not where the previous one was scrolled to.
  useEffect(() => {
    if (section !== undefined) panel.current?.scrollIntoView?.({ block: 'start' });
  }, [section]);
  const group = 'tlb.shortcuts.group';
  useShortcut({ key: '[', label: 'tlb.shortcuts.prev', group }, () => sectionStore.set({ section: step(sectionStore.get().section, -1) }));
  useShortcut({ key: ']', label: 'tlb.shortcuts.next', group }, () => sectionStore.set({ section: step(sectionStore.get().section, 1) }));
  // The live state is mutated in place: version and seq say when it changed (at most 5 times a second).
  const stamp = useThrottled(`${version}:${seq}:${deviceId}`, 200);
  const device = state?.devices[deviceId];
  // biome-ignore lint/correctness/useExhaustiveDependencies: stamp changes whenever the state does
  const report = useMemo(
    () => (state === undefined || device === undefined ? undefined : reportDevice(state, device)),
    [stamp, state, device],
  );

  if (state === undefined || device === undefined || report === undefined) {
    return (
      <section className="panel tlb" data-testid="tlb">
        <p className="muted">{t('tlb.noDevice', { device: deviceId })}</p>
      </section>
    );
  }
  const held = report.workingSet.normal + report.workingSet.huge + report.workingSet.giant;
  const provenance = session?.host.provenance ?? 'simulated';
  return (
    <section className="panel tlb" data-testid="tlb" ref={panel}>
      <header className="tlb-header">
        <p className="tlb-summary" data-testid="tlb-summary">
          {t('tlb.summary', {
            device: device.id,
            profile: device.profile.name,
            bytes: bytes(held, prefs),
            count: report.liveObjects,
          })}{' '}
          <span className={`provenance provenance-${provenance}`}>{t(`common.provenance.${provenance}`)}</span>
        </p>
        <div className="tlb-sections" role="tablist" aria-label={t('tlb.sections.label')}>
          {SECTIONS.map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={section === id}
              data-testid={`tlb-section-${id}`}
              onClick={() => sectionStore.set({ section: id })}
            >
              {t(`tlb.sections.${id}`)}
            </button>
          ))}
        </div>
      </header>
      <div className="tlb-body" role="tabpanel">
        {section === 'coverage' && <CoverageSection state={state} device={device} report={report} stamp={stamp} />}
        {section === 'whatIf' && <WhatIfSection state={state} device={device} stamp={stamp} />}
        {section === 'sim' && (
          <SimulatorSection state={state} device={device} stamp={stamp} onEditGeometry={() => sectionStore.set({ section: 'coverage' })} />
        )}
      </div>
    </section>
  );
}
