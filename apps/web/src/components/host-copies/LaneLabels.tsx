import { useTranslation } from 'react-i18next';
import type { Lane } from '../../model/host-copies/copy-lanes.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/** Names of the timeline lanes, one row per lane, beside the canvas. Stream names select the stream. */
export function LaneLabels({ lanes, rowHeight }: { lanes: readonly Lane[]; rowHeight: number }) {
  const { t } = useTranslation();
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  return (
    <ol className="hc-lanes" aria-label={t('hostCopies.timeline.title')}>
      {lanes.map((lane) => {
        if (lane.kind === 'host') {
          return (
            <li
              key={`host-${lane.pid}`}
              className="hc-lane hc-lane-host"
              style={{ height: rowHeight }}
              title={t('hostCopies.timeline.lane.hostHint')}
              data-testid={`lane-host-${lane.pid}`}
            >
              <strong className="hc-lane-name">{t('hostCopies.timeline.lane.host')}</strong>
              <span className="hc-lane-sub">{t('hostCopies.timeline.lane.pid', { pid: lane.pid })}</span>
            </li>
          );
        }
        const id = lane.stream ?? 0;
        const selected = selection?.kind === 'stream' && selection.id === id;
        return (
          <li key={`stream-${id}`} className={`hc-lane${selected ? ' selected-item' : ''}`} style={{ height: rowHeight }}>
            <button
              type="button"
              className="hc-lane-button"
              onClick={() => select({ kind: 'stream', id, ...(lane.device === undefined ? {} : { device: lane.device }) })}
              aria-pressed={selected}
              data-testid={`lane-stream-${id}`}
            >
              <span className="hc-lane-name">
                {lane.isDefault ? t('hostCopies.timeline.lane.defaultStream') : t('hostCopies.timeline.lane.stream', { id })}
              </span>
              <span className="hc-lane-sub">
                {t('hostCopies.timeline.lane.device', { device: lane.device ?? 0 })}
                {lane.ownerContext !== undefined && ` · ${t('hostCopies.timeline.lane.context', { id: lane.ownerContext })}`}
                {!lane.alive && ` · ${t('hostCopies.timeline.lane.destroyed')}`}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
