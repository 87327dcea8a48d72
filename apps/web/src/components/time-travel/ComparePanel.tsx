import { formatInteger, PAGE_CLASSES } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { address, bytes, exactBytes, type FormatPrefs } from '../../model/format.ts';
import { targetOf } from '../../model/log/effects.ts';
import { type CompareItem, compareRange } from '../../model/time-travel/compare.ts';
import { useFormat, useTimeline } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { BytesCell } from '../common/BytesCell.tsx';
import { FiguresHead } from '../common/FiguresHead.tsx';

/** Items listed per group before "+N more" (the rest stay countable, not rendered). */
const SHOWN = 200;

function ItemText({ item, prefs }: { item: CompareItem; prefs: FormatPrefs }) {
  const { t } = useTranslation();
  const parts = [
    item.size === undefined ? undefined : bytes(item.size, prefs),
    item.occupied > 0 && item.occupied !== item.size ? t('timeTravel.compare.holds', { size: bytes(item.occupied, prefs) }) : undefined,
    item.pageClass === undefined ? undefined : t(`timeTravel.pageClass.${item.pageClass}`),
    item.addr === undefined ? undefined : address(item.addr, prefs),
    item.fn,
  ].filter((part) => part !== undefined);
  return (
    <>
      <span className="compare-kind">
        {t(`inspector.kind.${item.kind}`)} #{item.id}
      </span>{' '}
      <span className="mono">{parts.join(' · ')}</span> <span className="muted">@{item.seq}</span>
    </>
  );
}

function Group({ title, items, testId }: { title: string; items: readonly CompareItem[]; testId: string }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const select = useAppStore((state) => state.select);
  return (
    <section className="compare-group" data-testid={testId}>
      <h3 className="section-title">
        {title} <span className="muted">({formatInteger(items.length)})</span>
      </h3>
      {items.length === 0 ? (
        <p className="muted">{t('timeTravel.compare.nothing')}</p>
      ) : (
        <ul>
          {items.slice(0, SHOWN).map((item) => (
            <li key={`${item.kind}-${item.id}`}>
              <button
                type="button"
                className="compare-item"
                data-testid="compare-item"
                onClick={() => select({ kind: item.kind, id: item.id, ...(item.device === undefined ? {} : { device: item.device }) })}
              >
                <ItemText item={item} prefs={prefs} />
              </button>
            </li>
          ))}
          {items.length > SHOWN && <li className="muted">{t('timeTravel.compare.more', { count: items.length - SHOWN })}</li>}
        </ul>
      )}
    </section>
  );
}

/** What was allocated, freed, mapped and unmapped between two marked points, net, with bytes per page class. */
export function ComparePanel({ from, to, onClose }: { from: number; to: number; onClose: () => void }) {
  const { t } = useTranslation();
  const timeline = useTimeline();
  const version = useAppStore((state) => state.version);
  const prefs = useFormat();
  const result = useMemo(() => {
    void version;
    if (timeline === undefined) return undefined;
    const creation = (id: number) => timeline.story(id).find((event) => event.kind !== 'call' && targetOf(event)?.id === id);
    return compareRange(timeline.events, from, to, creation);
  }, [timeline, from, to, version]);
  if (result === undefined) return null;
  const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${bytes(Math.abs(value), prefs)}`;
  return (
    <div className="compare-panel" role="dialog" aria-labelledby="compare-title" data-testid="compare-panel">
      <header className="compare-header">
        <h2 id="compare-title">{t('timeTravel.compare.title', { from: result.from, to: result.to })}</h2>
        <button
          type="button"
          className="icon-button"
          onClick={onClose}
          aria-label={t('timeTravel.compare.close')}
          title={t('timeTravel.compare.close')}
        >
          ×
        </button>
      </header>
      <p className="muted compare-summary">
        {t('timeTravel.compare.summary', { calls: formatInteger(result.calls), events: formatInteger(result.events) })}
        {result.transient > 0 && ` ${t('timeTravel.compare.transient', { count: result.transient })}`}
      </p>
      <table className="data compare-bytes">
        <FiguresHead prefix="timeTravel.compare" first="pageClass" figures={['added', 'removed', 'net']} />
        <tbody>
          {PAGE_CLASSES.map((pageClass) => {
            const figures = result.bytes[pageClass];
            return (
              <tr key={pageClass} data-testid={`compare-bytes-${pageClass}`}>
                <td>{t(`timeTravel.pageClass.${pageClass}`)}</td>
                <BytesCell value={figures.added} prefs={prefs} className="num mono" />
                <BytesCell value={figures.removed} prefs={prefs} className="num mono" />
                <td className="num mono" title={exactBytes(figures.added - figures.removed)}>
                  {signed(figures.added - figures.removed)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="compare-groups">
        <Group title={t('timeTravel.compare.allocated')} items={result.allocated} testId="compare-allocated" />
        <Group title={t('timeTravel.compare.freed')} items={result.freed} testId="compare-freed" />
        <Group title={t('timeTravel.compare.mapped')} items={result.mapped} testId="compare-mapped" />
        <Group title={t('timeTravel.compare.unmapped')} items={result.unmapped} testId="compare-unmapped" />
      </div>
    </div>
  );
}
