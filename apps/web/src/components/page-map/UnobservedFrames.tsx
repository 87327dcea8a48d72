import type { DeviceState, HostState } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type DeviceObjectRow, deviceObjects } from '../../model/acl/device-objects.ts';
import { type PoolReading, poolReading } from '../../model/acl/pools.ts';
import { bytes, duration, type FormatPrefs } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { type ObjectRef, sameRef } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { BytesCell } from '../common/BytesCell.tsx';

/** Rows of the object list: enough to find recent work; the address space and log list everything. */
const SHOWN = 200;

function Pools({ reading, device, prefs }: { reading: PoolReading | undefined; device: number; prefs: FormatPrefs }) {
  const { t } = useTranslation();
  if (reading === undefined) {
    return (
      <p className="muted" data-testid="page-map-no-reading">
        {t('pageMap.unobserved.noReading', { device })}
      </p>
    );
  }
  return (
    <>
      <table className="data page-map-pools" data-testid="page-map-pools">
        <caption>
          {t('pageMap.unobserved.poolsTitle', { device, time: duration(reading.t) })}{' '}
          <span className="provenance provenance-observed">{t('common.provenance.observed')}</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('pageMap.unobserved.pool')}</th>
            <th scope="col" className="num">
              {t('pageMap.unobserved.used')}
            </th>
            <th scope="col" className="num">
              {t('pageMap.unobserved.free')}
            </th>
            <th scope="col" className="num">
              {t('pageMap.unobserved.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {reading.pools.map((line) => (
            <tr key={line.pool} data-pool={line.pool}>
              <th scope="row">{t(`pageMap.unobserved.pools.${line.pool}`)}</th>
              <BytesCell value={line.used} prefs={prefs} />
              <BytesCell value={line.free} prefs={prefs} />
              <BytesCell value={line.total} prefs={prefs} />
            </tr>
          ))}
        </tbody>
      </table>
      {reading.own !== undefined && reading.others !== undefined && (
        <p className="muted page-map-owners" data-testid="page-map-owners">
          {t('pageMap.unobserved.owners', {
            used: bytes(reading.all.used, prefs),
            own: bytes(reading.own, prefs),
            others: bytes(reading.others, prefs),
          })}
        </p>
      )}
    </>
  );
}

function ObjectRow({ row, device, selected, prefs }: { row: DeviceObjectRow; device: number; selected: boolean; prefs: FormatPrefs }) {
  const { t } = useTranslation();
  const select = useAppStore((s) => s.select);
  const ref: ObjectRef = { kind: row.kind, id: row.id, device };
  return (
    <tr className={selected ? 'selected-item' : undefined} aria-selected={selected} data-kind={row.kind} data-id={row.id}>
      <th scope="row">
        <button type="button" className="link-button" onClick={() => select(ref)}>
          {t(`pageMap.unobserved.kind.${row.kind}`, { id: row.id })}
        </button>
      </th>
      <td className="mono">{row.fn}</td>
      <BytesCell value={row.size} prefs={prefs} />
      <td>
        {t('pageMap.unobserved.pages', { pages: row.pages.toLocaleString('en-US'), pageSize: bytes(row.pageSize, prefs) })}{' '}
        <span className="muted">{t(`pageMap.unobserved.pageClass.${row.pageClass}`)}</span>
      </td>
    </tr>
  );
}

/**
 * The page map on a backend that cannot see physical frames (a real ACL runtime): it says so, and
 * shows what is observed instead, the device's pools from aclrtGetMemInfo and the page class and
 * page count of every object on the device (acl backend README, "Observed and modeled").
 */
export function UnobservedFrames({ state, device }: { state: HostState; device: DeviceState }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const version = useAppStore((s) => s.version);
  const cursor = useAppStore((s) => s.cursor);
  const selection = useAppStore((s) => s.selection);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the replica mutates in place; version and cursor say when it changed.
  const objects = useMemo(() => deviceObjects(state, device.id, SHOWN), [state, device, version, cursor]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above.
  const reading = useMemo(() => poolReading(device), [device, version, cursor]);
  return (
    <section className="page-map-view page-map-unobserved" data-testid="page-map" data-frames="unobserved">
      <p className="page-map-unobserved-note" data-testid="page-map-unobserved">
        <strong>{t('pageMap.unobserved.title')}</strong> {t('pageMap.unobserved.why')}
      </p>
      <Pools reading={reading} device={device.id} prefs={prefs} />
      <h3 className="section-title">{t('pageMap.unobserved.objectsTitle', { device: device.id })}</h3>
      {objects.total === 0 ? (
        <p className="muted" data-testid="page-map-empty">
          {t('pageMap.unobserved.empty', { device: device.id })}
        </p>
      ) : (
        <div className="page-map-objects">
          <table className="data" data-testid="page-map-objects">
            <thead>
              <tr>
                <th scope="col">{t('pageMap.unobserved.object')}</th>
                <th scope="col">{t('pageMap.unobserved.function')}</th>
                <th scope="col" className="num">
                  {t('pageMap.unobserved.size')}
                </th>
                <th scope="col">{t('pageMap.unobserved.pagesTitle')}</th>
              </tr>
            </thead>
            <tbody>
              {objects.rows.map((row) => (
                <ObjectRow
                  key={`${row.kind}-${row.id}`}
                  row={row}
                  device={device.id}
                  prefs={prefs}
                  selected={sameRef(selection, { kind: row.kind, id: row.id })}
                />
              ))}
            </tbody>
          </table>
          {objects.total > objects.rows.length && (
            <p className="muted">{t('pageMap.unobserved.more', { shown: objects.rows.length, total: objects.total })}</p>
          )}
        </div>
      )}
    </section>
  );
}
