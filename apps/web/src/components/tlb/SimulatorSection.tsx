import { formatBytes, formatInteger, PAGE_CLASSES } from '@pagelens/core';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { address, bytes } from '../../model/format.ts';
import { type BufferChoice, bufferChoices, bufferOptions, choiceForSelection } from '../../model/tlb/buffers.ts';
import { parsePattern } from '../../model/tlb/pattern.ts';
import { useFormat } from '../../store/hooks.ts';
import { selectSelection } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { AssumedBadge } from './Badges.tsx';
import type { SectionProps } from './CoverageSection.tsx';
import { useLocalStore } from './local-store.ts';
import { PatternForm, usePatternIssueText } from './PatternForm.tsx';
import { SimResultView } from './SimResultView.tsx';
import { cancelRun, startRun } from './sim-runner.ts';
import { simStore } from './sim-state.ts';
import { TlbSection } from './TlbSection.tsx';
import { useGeometry } from './useGeometry.ts';
import './tlb-sim.css';

/** Part 3: run an access pattern over a buffer through the (assumed) TLB and count hits, misses and walks. */
export function SimulatorSection({ state, device, stamp, onEditGeometry }: SectionProps & { readonly onEditGeometry: () => void }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const issueText = usePatternIssueText();
  const { profile } = device;
  const { geometry } = useGeometry(profile);
  const ui = useLocalStore(simStore);
  const selection = useAppStore(selectSelection);
  const select = useAppStore((s) => s.select);
  // biome-ignore lint/correctness/useExhaustiveDependencies: stamp changes whenever the state does
  const choices = useMemo(() => bufferChoices(state, device.id), [stamp, state, device]);
  const chosen = choices.find((choice) => choice.key === ui.bufferKey) ?? choices[0];
  const fromSelection = choiceForSelection(choices, selection);
  const listed = useMemo(() => bufferOptions(choices, chosen?.key), [choices, chosen]);

  // Selecting an allocation, reservation or mapping anywhere makes it the buffer to simulate.
  useEffect(() => {
    if (fromSelection === undefined) return;
    const current = choices.find((choice) => choice.key === simStore.get().bufferKey);
    const sameObject = current !== undefined && current.kind === fromSelection.kind && current.id === fromSelection.id;
    if (!sameObject || selection?.kind === 'mapping') simStore.update({ bufferKey: fromSelection.key });
  }, [fromSelection, choices, selection]);

  const parsed = chosen === undefined ? undefined : parsePattern(ui.draft, chosen.bytes);
  const signature =
    chosen === undefined ? '' : `${chosen.key}|${chosen.va}|${chosen.bytes}|${JSON.stringify(ui.draft)}|${JSON.stringify(geometry)}`;
  const running = ui.run.kind === 'running';
  const canRun = chosen !== undefined && parsed?.ok === true && !running;
  const run = () => {
    if (chosen === undefined || parsed === undefined || !parsed.ok || running) return;
    startRun(
      { segments: chosen.segments, pattern: parsed.pattern, geometry, normalPageSize: profile.normalPageSize },
      parsed.accesses,
      signature,
    );
  };
  useShortcut({ key: 'r', label: 'tlb.shortcuts.run', group: 'tlb.shortcuts.group' }, run);

  const bufferLabel = (choice: BufferChoice): string => {
    const values = {
      address: address(choice.va, prefs),
      fn: choice.fn,
      size: bytes(choice.bytes, prefs),
      run: choice.run + 1,
      runs: choice.runs,
    };
    if (choice.kind === 'allocation') return t('tlb.sim.bufferAllocation', values);
    return choice.runs > 1 ? t('tlb.sim.bufferReservationRun', values) : t('tlb.sim.bufferReservation', values);
  };
  const segmentClasses = (choice: BufferChoice): string =>
    choice.segments
      .map((segment) => t('tlb.sim.segmentPart', { size: bytes(segment.bytes, prefs), page: formatBytes(segment.pageSize) }))
      .join(' + ');

  return (
    <TlbSection heading={t('tlb.sim.heading')} testId="tlb-sim">
      <p className="tlb-intro muted">{t('tlb.sim.intro')}</p>
      <p className="tlb-geometry-line" data-testid="tlb-sim-geometry">
        <span className="muted">{t('tlb.sim.geometry')}:</span>{' '}
        {PAGE_CLASSES.map((pageClass) =>
          t('tlb.sim.geometryClass', {
            pageClass: t(`tlb.classInline.${pageClass}`),
            entries: formatInteger(geometry[pageClass].entries),
            ways: formatInteger(geometry[pageClass].ways),
          }),
        ).join(' · ')}{' '}
        <AssumedBadge />{' '}
        <button type="button" className="tlb-link" onClick={onEditGeometry}>
          {t('tlb.sim.editGeometry')}
        </button>
      </p>
      {chosen === undefined ? (
        <p className="tlb-empty" data-testid="tlb-sim-empty">
          {t('tlb.sim.noBuffers', { device: device.id })}
        </p>
      ) : (
        <>
          <label className="tlb-field tlb-buffer">
            <span>{t('tlb.sim.buffer')}</span>
            <select
              value={chosen.key}
              data-testid="tlb-sim-buffer"
              onChange={(event) => {
                const next = choices.find((choice) => choice.key === event.target.value);
                if (next === undefined) return;
                simStore.update({ bufferKey: next.key });
                select({ kind: next.kind, id: next.id, device: device.id });
              }}
            >
              {listed.options.map((choice) => (
                <option key={choice.key} value={choice.key}>
                  {bufferLabel(choice)}
                </option>
              ))}
            </select>
          </label>
          {listed.hidden > 0 && (
            <p className="tlb-note muted">{t('tlb.sim.hiddenBuffers', { shown: listed.options.length, total: choices.length })}</p>
          )}
          <p className="tlb-note muted" data-testid="tlb-sim-buffer-info">
            {t('tlb.sim.segments', { count: chosen.segments.length, size: bytes(chosen.bytes, prefs), classes: segmentClasses(chosen) })}
          </p>
          <PatternForm
            draft={ui.draft}
            issues={parsed?.ok === false ? parsed.issues : []}
            onChange={(draft) => simStore.update({ draft })}
          />
          {parsed?.ok === false && (
            <ul className="tlb-errors" role="alert" data-testid="tlb-sim-errors">
              {parsed.issues.map((issue) => (
                <li key={`${issue.field}-${issue.code}`}>{issueText(issue)}</li>
              ))}
            </ul>
          )}
          <div className="tlb-run-bar">
            <button
              type="button"
              className="tlb-primary"
              onClick={run}
              disabled={!canRun}
              data-testid="tlb-sim-run"
              title={`${t('tlb.sim.run')} (R)`}
            >
              {t('tlb.sim.run')}
            </button>
            {parsed?.ok === true && !running && (
              <span className="muted">{t('tlb.sim.accesses', { count: formatInteger(parsed.accesses) })}</span>
            )}
            {ui.run.kind === 'running' && (
              <>
                <span className="tlb-spinner" aria-hidden="true" />
                <span role="status" data-testid="tlb-sim-running">
                  {t('tlb.sim.running', { count: formatInteger(ui.run.accesses) })}
                </span>
                <button type="button" onClick={cancelRun} data-testid="tlb-sim-cancel">
                  {t('tlb.sim.cancel')}
                </button>
              </>
            )}
            {ui.run.kind === 'cancelled' && <span className="muted">{t('tlb.sim.cancelled')}</span>}
          </div>
        </>
      )}
      {ui.run.kind === 'refused' && (
        <p className="tlb-errors" role="alert" data-testid="tlb-sim-refused">
          {t('tlb.sim.errors.refused', { message: ui.run.message })}
        </p>
      )}
      {ui.run.kind === 'noWorker' && (
        <p className="tlb-errors" role="alert">
          {t('tlb.sim.errors.noWorker', { max: formatInteger(ui.run.max) })}
        </p>
      )}
      {ui.run.kind === 'done' && <SimResultView result={ui.run.result} ms={ui.run.ms} stale={ui.run.signature !== signature} />}
      {ui.run.kind === 'idle' && chosen !== undefined && <p className="muted">{t('tlb.sim.result.none')}</p>}
    </TlbSection>
  );
}
