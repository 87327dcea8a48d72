import { type DeviceInfo, type DeviceState, formatBytes, type HostState } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes, type FormatPrefs } from '../../model/format.ts';
import { type DeviceSummary, type PoolBar, summarizeDevice } from '../../model/overview/device-summary.ts';
import { useCursorState, useFormat } from '../../store/hooks.ts';
import { selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import './overview.css';

function PoolRow({
  name,
  label,
  bar,
  prefs,
  unsupported,
}: {
  name: string;
  label: string;
  bar: PoolBar;
  prefs: FormatPrefs;
  unsupported?: string;
}) {
  const { t } = useTranslation();
  const exact = t('overview.pools.exact', { used: bytes(bar.used, prefs), free: bytes(bar.free, prefs), total: bytes(bar.total, prefs) });
  return (
    <div className="pool-row" data-testid={`pool-${name}`} title={unsupported ?? exact}>
      <div className="pool-label">
        <span>{label}</span>
        <span className="muted">{unsupported === undefined ? t('overview.pools.total', { total: bytes(bar.total, prefs) }) : ''}</span>
      </div>
      {unsupported === undefined ? (
        <>
          <div className={`pool-bar pool-${name}`} aria-hidden="true">
            <span style={{ width: `${Math.min(100, bar.fraction * 100)}%` }} />
          </div>
          <div className="pool-figures muted">
            {t('overview.pools.figures', { used: bytes(bar.used, prefs), free: bytes(bar.free, prefs) })}
          </div>
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

/** Where the pool figures come from: the simulator's modeled split, or the runtime's last aclrtGetMemInfo (DM-15). */
function PoolNote({ observed, type }: { observed: boolean; type: string }) {
  const { t } = useTranslation();
  return (
    <p className={`device-note device-note-${observed ? 'observed' : 'modeled'}`} data-testid="pool-note">
      {observed ? (
        <>
          <span className="provenance provenance-observed">{t('common.provenance.observed')}</span> {t('overview.observedNote')}
        </>
      ) : (
        <>
          <span className="provenance provenance-modeled">{t('common.provenance.modeled')}</span> {t('overview.modeledNote', { type })}
        </>
      )}
    </p>
  );
}

interface CardProps {
  readonly state: HostState;
  readonly device: DeviceState;
  readonly info: DeviceInfo | undefined;
  readonly selected: boolean;
  readonly provenance: 'simulated' | 'observed';
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
      <div className="device-pools">
        <PoolRow
          name="normal"
          label={t('overview.pools.normal', { size: formatBytes(profile.normalPageSize, 'binary') })}
          bar={summary.pools.normal}
          prefs={prefs}
        />
        <PoolRow name="huge" label={t('overview.pools.huge')} bar={summary.pools.huge} prefs={prefs} />
        <PoolRow
          name="giant"
          label={t('overview.pools.giant')}
          bar={summary.pools.giant}
          prefs={prefs}
          {...(profile.features.giantPages ? {} : { unsupported: t('overview.pools.unsupported') })}
        />
      </div>
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
        <PoolNote observed={state.devices.some((d) => d.lastSample !== undefined)} type={state.devices[0]?.profile.memoryType ?? 'HBM'} />
      )}
    </section>
  );
}
