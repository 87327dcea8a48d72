import { DEVICE_VA_WINDOW, deviceWindowBase, type HostState } from '@pagelens/core';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThrottled } from '../../hooks/useThrottled.ts';
import { selectedRange } from '../../model/address-space/selected-range.ts';
import type { StripTarget } from '../../model/address-space/strip-hit.ts';
import { targetObject } from '../../model/address-space/strip-hit.ts';
import { buildStripModel, pickProcess, processChoices } from '../../model/address-space/strip-model.ts';
import { buildRows, type MappingRow, rowTarget } from '../../model/address-space/table-rows.ts';
import { processRanges, tableFigure, walkPanelData } from '../../model/address-space/walk-model.ts';
import { address, bytes } from '../../model/format.ts';
import { useCursorState, useFormat } from '../../store/hooks.ts';
import { type ObjectRef, selectSelection } from '../../store/selection-slice.ts';
import { selectSession } from '../../store/session-slice.ts';
import { selectDevice, selectProcessFilter } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { AddressStrip } from './AddressStrip.tsx';
import { MappingTable } from './MappingTable.tsx';
import { TranslationWalk } from './TranslationWalk.tsx';
import './address-space.css';

/** Models are rebuilt from the replica at most this often while events stream in (ms). */
const REBUILD_MS = 150;

/** Recomputes `compute` only when `key` changes (the replica is mutated in place, so identity cannot tell). */
function useKeyed<T>(key: string, compute: () => T): T {
  const cache = useRef<{ key: string; value: T } | undefined>(undefined);
  if (cache.current?.key !== key) cache.current = { key, value: compute() };
  return cache.current.value;
}

/** View 3: the device VA window as a zoomable strip, the mapping table, and the translation walk of one address. */
export function AddressSpaceView() {
  const { t } = useTranslation();
  const state = useCursorState();
  if (state === undefined) {
    return (
      <section className="panel placeholder" data-testid="address-space">
        <p className="muted">{t('shell.loading')}</p>
      </section>
    );
  }
  return <AddressSpace state={state} />;
}

function AddressSpace({ state }: { state: HostState }) {
  const { t } = useTranslation();
  const format = useFormat();
  const version = useAppStore((s) => s.version);
  const cursor = useAppStore((s) => s.cursor);
  const device = useAppStore(selectDevice);
  const selection = useAppStore(selectSelection);
  const select = useAppStore((s) => s.select);
  const session = useAppStore(selectSession);
  // The rebuild interval grows with what a rebuild costs (100,000 objects: tens of ms), so a
  // stream of events never keeps the main thread busy more than about a fifth of the time.
  const cost = useRef(0);
  const stamp = useThrottled(`${version}:${cursor}`, Math.max(REBUILD_MS, cost.current * 5));
  const [chosenPid, setChosenPid] = useState<number | undefined>(undefined);
  const [walkVa, setWalkVa] = useState<number | undefined>(undefined);

  const choices = useKeyed(`${stamp}|${device}`, () => processChoices(state, device));
  // The processes panel's choice, when there is one, is the process shown; this selector then changes it.
  const processFilter = useAppStore(selectProcessFilter);
  const setProcessFilter = useAppStore((state) => state.setProcessFilter);
  const choosePid = (next: number) => {
    setChosenPid(next);
    if (processFilter !== undefined) setProcessFilter(next);
  };
  const pid = pickProcess(choices, processFilter ?? chosenPid) ?? 0;
  const scene = useKeyed(`${stamp}|${device}|${pid}`, () => {
    const began = performance.now();
    const ranges = processRanges(state, pid);
    const built = {
      strip: buildStripModel(state, device, pid),
      rows: buildRows(state, device, pid),
      ranges,
      figure: tableFigure(ranges),
    };
    cost.current = performance.now() - began;
    return built;
  });
  const { strip, rows, ranges, figure } = scene;
  const walk = useKeyed(`${stamp}|${pid}|${walkVa}`, () =>
    walkVa === undefined ? undefined : walkPanelData(state, pid, walkVa, ranges.ranges),
  );
  const selected = useKeyed(`${stamp}|${device}|${pid}|${selection?.kind}|${selection?.id}`, () => selectedRange(strip, selection));

  const choose = useCallback(
    (row: MappingRow) => {
      // An IPC import selects the allocation it reaches (IP-3), like its range on the strip.
      select({ ...rowTarget(row), device });
      setWalkVa(row.start);
    },
    [select, device],
  );
  const pick = useCallback(
    (target: StripTarget) => {
      const object = targetObject(strip, target);
      if (object !== undefined) select({ ...object, device });
      setWalkVa(target.va);
    },
    [strip, select, device],
  );
  const selectRef = useCallback((ref: ObjectRef) => select({ ...ref, device }), [select, device]);

  const base = deviceWindowBase(device);
  const observed = session?.host.provenance === 'observed';
  return (
    <section className="address-view" data-testid="address-space" data-pid={pid}>
      <header className="address-head">
        <h2 className="address-title">{t('addressSpace.title')}</h2>
        <span className="muted mono address-window">
          {/* The 128 GiB window is the simulator's layout; a real runtime's addresses are wherever it put them. */}
          {observed
            ? t('addressSpace.observedWindow', { device })
            : t('addressSpace.window', {
                device,
                start: address(base, format),
                end: address(base + DEVICE_VA_WINDOW, format),
                size: bytes(DEVICE_VA_WINDOW, format),
              })}
        </span>
        {choices.length > 1 && (
          <label className="address-process">
            {t('addressSpace.process')}{' '}
            <select value={pid} onChange={(event) => choosePid(Number(event.target.value))} data-testid="address-process">
              {choices.map((choice) => (
                <option key={choice.pid} value={choice.pid}>
                  {t('addressSpace.processOption', { pid: choice.pid, name: choice.name, count: choice.objects })}
                </option>
              ))}
            </select>
          </label>
        )}
        <Legend />
      </header>
      <AddressStrip model={strip} state={state} selected={selected} walkAddress={walkVa} onPick={pick} />
      <div className="address-lower">
        <MappingTable rows={rows} device={device} selection={selection} onChoose={choose} />
        <TranslationWalk data={walk} figure={figure} pid={pid} onAddress={setWalkVa} onSelect={selectRef} />
      </div>
    </section>
  );
}

/** The strip's legend, one swatch per kind of range (class `legend-<kind>`, text `addressSpace.legend.<kind>`). */
const LEGEND = ['allocation', 'reservation', 'mapping', 'hole'] as const;

function Legend() {
  const { t } = useTranslation();
  const colorBy = useAppStore((s) => s.colorBy);
  return (
    <ul className="address-legend" aria-label={t('addressSpace.legend.label')}>
      {LEGEND.map((kind) => (
        <li key={kind}>
          <span className={`legend-swatch legend-${kind}`} />
          {t(`addressSpace.legend.${kind}`)}
        </li>
      ))}
      <li className="muted">{t(colorBy === 'owner' ? 'addressSpace.legend.colorOwner' : 'addressSpace.legend.colorKind')}</li>
    </ul>
  );
}
