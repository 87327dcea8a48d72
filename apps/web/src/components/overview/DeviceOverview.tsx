import { type DeviceInfo, type DeviceState, formatBytes, type HostState } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { framesObservable } from '../../model/acl/backend.ts';
import { poolReading } from '../../model/acl/pools.ts';
import { bytes, type FormatPrefs } from '../../model/format.ts';
import { type DeviceSummary, type PoolBar, type PoolKind, summarizeDevice } from '../../model/overview/device-summary.ts';
import { useCursorState, useFormat } from '../../store/hooks.ts';
import { selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { poolWords } from './pool-words.ts';
import './overview.css';

function PoolRow({
  name,
  label,
  bar,
  prefs,
  normalPage,
  unsupported,
}: {
  name: PoolKind;
  label: string;
  bar: PoolBar;
  prefs: FormatPrefs;
  normalPage: string;
  unsupported?: string;
}) {
  const { t } = useTranslation();
  const pages = t(`overview.pools.pages.${name}`, { size: normalPage });
  const exact = t('overview.pools.exact', {
    used: bytes(bar.used, prefs),
    free: bytes(bar.free, prefs),
    total: bytes(bar.total, prefs),
    pages,
  });
  const words = poolWords(t, name, bar, normalPage, prefs);
  return (
    <div className="pool-row" data-testid={`pool-${name}`} title={unsupported ?? [exact, words.breakdown].filter(Boolean).join('\n')}>
      <div className="pool-label">
        <span>{label}</span>
        <span className="muted">{unsupported === undefined ? t('overview.pools.total', { total: bytes(bar.total, prefs) }) : ''}</span>
      </div>
      {unsupported === undefined ? (
        <>
          <div className={`pool-bar pool-${name}`} aria-hidden="true">
            <span style={{ width: `${Math.min(100, bar.fraction * 100)}%` }} />
          </div>
          {words.breakdown === undefined ? (
            <div className="pool-figures muted">{words.figures}</div>
          ) : (
            // Open by itself when none of the memory is this kind's own pages (the giant pool after one
            // 1 MiB HUGE_FIRST): the figure would puzzle without it. Otherwise one click away.
            <details className="pool-why" open={bar.breakdown?.own === 0}>
              <summary className="pool-figures muted">{words.figures}</summary>
              <div className="pool-breakdown muted" data-testid={`pool-${name}-breakdown`}>
                {words.breakdown}
              </div>
            </details>
          )}
        </>
      ) : (
        <div className="pool-figures muted">{unsupported}</div>
      )}
    </div>
  );
}

function ObjectCounts({ summary }: { summary: DeviceSummary }) {
  const { t } = useTranslation();
  const { allocations, physical, reservations, mappings } = summary.objects;
  const parts = [
    t('overview.objects.allocations', { count: allocations }),
    ...(physical > 0 ? [t('overview.objects.physical', { count: physical })] : []),
    ...(reservations > 0 ? [t('overview.objects.reservations', { count: reservations })] : []),
    ...(mappings > 0 ? [t('overview.objects.mappings', { count: mappings })] : []),
  ];
  return (
    <p className="device-objects" data-testid="device-objects">
      <span className="muted">{t('overview.objects.title')}: </span>
      {allocations + physical + reservations + mappings === 0 ? t('overview.objects.none') : parts.join(' · ')}
    </p>
  );
}

type PoolSource = 'observed' | 'waiting' | 'modeled';

/**
 * Where the pool figures come from (DM-15): the runtime's last aclrtGetMemInfo, or on the
 * simulator its modeled split; a real runtime that has not been read yet shows no figures at all.
 */
function PoolNote({ source, type }: { source: PoolSource; type: string }) {
  const { t } = useTranslation();
  const badge = source === 'modeled' ? 'modeled' : 'observed';
  return (
    <p className={`device-note device-note-${badge}`} data-testid="pool-note" data-source={source}>
      <span className={`provenance provenance-${badge}`}>{t(`common.provenance.${badge}`)}</span>{' '}
      {source === 'modeled' ? t('overview.modeledNote', { type }) : t(`overview.${source}Note`)}
    </p>
  );
}

function poolSource(state: HostState, framesKnown: boolean): PoolSource {
  if (state.devices.some((device) => device.lastSample !== undefined)) return 'observed';
  return framesKnown ? 'modeled' : 'waiting';
}

/** On a real runtime: who holds the device's used memory at the last reading. */
function Holders({ device, prefs }: { device: DeviceState; prefs: FormatPrefs }) {
  const { t } = useTranslation();
  const reading = poolReading(device);
  if (reading?.own === undefined || reading.others === undefined) return null;
  return (
    <p className="device-holders muted" data-testid="device-holders">
      {t('overview.holders', { own: bytes(reading.own, prefs), others: bytes(reading.others, prefs) })}
    </p>
  );
}

interface CardProps {
  readonly state: HostState;
  readonly device: DeviceState;
  readonly info: DeviceInfo | undefined;
  readonly selected: boolean;
  readonly provenance: 'simulated' | 'observed' | 'modeled';
  readonly version: number;
  onSelect(): void;
}

function DeviceCard({ state, device, info, selected, provenance, version, onSelect }: CardProps) {
  const { t } = useTranslation();
  const prefs = useFormat();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the replica mutates in place; version says when it changed.
  const summary = useMemo(() => summarizeDevice(state, device), [state, device, version]);
  const { profile } = device;
  const type = profile.memoryType;
  const normalPage = formatBytes(profile.normalPageSize, 'binary');
  // A real runtime's pools are known only from its readings; the frame table says nothing there.
  const unread = provenance === 'observed' && device.lastSample === undefined;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the title button is the keyboard path; the whole card is a larger pointer target.
    <article
      className={`device-card${selected ? ' selected' : ''}`}
      data-testid={`device-card-${device.id}`}
      data-selected={selected}
      onClick={onSelect}
    >
      <header className="device-card-head">
        <button
          type="button"
          className="device-title"
          aria-pressed={selected}
          title={t('overview.show', { id: device.id })}
          onClick={onSelect}
        >
          {t('overview.device', { id: device.id })}
        </button>
        <span className={`provenance provenance-${provenance}`} data-testid="device-provenance">
          {t(`common.provenance.${provenance}`)}
        </span>
        {selected && <span className="muted device-shown">{t('overview.shown')}</span>}
      </header>
      <div className="device-profile" title={profile.label}>
        <strong>{info?.socName ?? profile.name}</strong>
        <span className="muted"> · {t('overview.memory', { type, capacity: bytes(profile.capacityBytes, prefs) })}</span>
      </div>
      {unread ? (
        <p className="device-unread muted" data-testid="pool-unread">
          {t('overview.unread', { id: device.id })}
        </p>
      ) : (
        <div className="device-pools">
          <PoolRow
            name="normal"
            label={t('overview.pools.normal', { size: normalPage })}
            bar={summary.pools.normal}
            prefs={prefs}
            normalPage={normalPage}
          />
          <PoolRow name="huge" label={t('overview.pools.huge')} bar={summary.pools.huge} prefs={prefs} normalPage={normalPage} />
          <PoolRow
            name="giant"
            label={t('overview.pools.giant')}
            bar={summary.pools.giant}
            prefs={prefs}
            normalPage={normalPage}
            {...(profile.features.giantPages ? {} : { unsupported: t('overview.pools.unsupported') })}
          />
        </div>
      )}
      {provenance === 'observed' && <Holders device={device} prefs={prefs} />}
      <ObjectCounts summary={summary} />
    </article>
  );
}

/** Left column: every device with its pools at the time cursor; the highlighted one drives the views. */
export function DeviceOverview() {
  const { t } = useTranslation();
  const state = useCursorState();
  const session = useAppStore(selectSession);
  const version = useAppStore((s) => s.version);
  const selected = useAppStore((s) => s.device);
  const setDevice = useAppStore((s) => s.setDevice);
  const provenance = session?.host.provenance ?? 'simulated';
  return (
    <section className="panel device-overview" data-testid="overview" aria-label={t('overview.title')}>
      <h2 className="section-title">{t('overview.title')}</h2>
      {state === undefined || state.devices.length === 0 ? (
        <p className="muted">{t('overview.none')}</p>
      ) : (
        state.devices.map((device) => (
          <DeviceCard
            key={device.id}
            state={state}
            device={device}
            info={session?.devices.find((d) => d.id === device.id)}
            selected={device.id === selected}
            provenance={provenance}
            version={version}
            onSelect={() => setDevice(device.id)}
          />
        ))
      )}
      {state !== undefined && state.devices.length > 0 && (
        <PoolNote source={poolSource(state, framesObservable(session?.host))} type={state.devices[0]?.profile.memoryType ?? 'HBM'} />
      )}
    </section>
  );
}
