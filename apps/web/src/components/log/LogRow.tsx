import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { duration, type FormatPrefs } from '../../model/format.ts';
import { callSignature } from '../../model/log/arg-format.ts';
import type { CallRow } from '../../model/log/call-rows.ts';

export interface LogRowProps {
  readonly row: CallRow;
  readonly prefs: FormatPrefs;
  readonly selected: boolean;
  /** The call the time cursor stands on. */
  readonly atCursor: boolean;
  /** The call has not happened yet at the time cursor. */
  readonly future: boolean;
  /** The call belongs to the story of the selected object. */
  readonly related: boolean;
  readonly top: number;
}

/** One call: seq, process, the call with readable arguments, its result, reasons and effects. */
export const LogRow = memo(function LogRow({ row, prefs, selected, atCursor, future, related, top }: LogRowProps) {
  const { t } = useTranslation();
  const { call } = row;
  const signature = callSignature(call, prefs);
  const classes = [
    'log-row',
    row.ok ? 'ok' : 'error',
    selected ? 'selected' : '',
    atCursor ? 'at-cursor' : '',
    future ? 'future' : '',
    related ? 'related' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const effects = row.effects.filter((effect) => effect.target !== undefined && effect.event !== 'call');
  return (
    <div
      id={`log-row-${call.seq}`}
      role="option"
      tabIndex={-1}
      aria-selected={selected}
      className={classes}
      style={{ top }}
      data-seq={call.seq}
      data-testid="log-row"
      data-ok={row.ok}
      title={[signature, call.message].filter(Boolean).join('\n')}
    >
      <span className="log-seq mono">{call.seq}</span>
      <span className="log-pid mono" title={t('log.column.process')}>
        {call.pid}
      </span>
      <span className="log-main">
        <span className="log-line mono">
          <strong>{call.fn}</strong>
          {signature.slice(call.fn.length)}
        </span>
        <span className="log-line log-detail">
          <span className="log-ret mono" data-testid="log-ret">
            {row.retName} ({call.ret})
          </span>
          {call.injected === true && <span className="log-tag warn">{t('log.injected')}</span>}
          {call.message !== undefined && <span className="log-message">{call.message}</span>}
          {row.rules.length > 0 && (
            <span className="log-rules mono" title={t('log.rulesTitle')}>
              {row.rules.join(' ')}
            </span>
          )}
          {effects.slice(0, 3).map((effect) => (
            <span
              key={effect.seq}
              className="log-effect mono"
              data-effect-kind={effect.target?.kind}
              data-effect-id={effect.target?.id}
              data-effect-device={effect.target?.device}
              title={t('log.effectTitle')}
            >
              {effect.event} #{effect.target?.id}
            </span>
          ))}
          {effects.length > 3 && <span className="muted">+{effects.length - 3}</span>}
        </span>
      </span>
      <span className="log-duration mono" title={t(`log.durationTitle.${call.provenance}`)}>
        {duration(call.durationNs)}
      </span>
    </div>
  );
});
