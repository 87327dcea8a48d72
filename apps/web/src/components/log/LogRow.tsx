import type { CodedText, Provenance } from '@pagelens/core';
import type { TFunction } from 'i18next';
import { memo } from 'react';
import { codedText } from '../../i18n/useCodedText.ts';
import { duration, type FormatPrefs } from '../../model/format.ts';
import { callSignature } from '../../model/log/arg-format.ts';
import type { CallRow } from '../../model/log/call-rows.ts';
import { processColor } from '../processes/process-color.ts';

/**
 * The fixed texts of a row, translated once per language by the log rather than by every row for
 * every batch (a following log renders a whole window of new rows per frame).
 */
export interface RowLabels {
  readonly process: string;
  /** "thread {{thread}}" without the number: the calling OS thread of an interposed program. */
  readonly thread: string;
  readonly injected: string;
  readonly rules: string;
  readonly effect: string;
  readonly duration: Readonly<Record<Provenance, string>>;
  /** A call's message in the UI's language (by its code; the English text when it has none). */
  readonly message: (coded: CodedText | undefined, english: string) => string;
}

export function rowLabels(t: TFunction): RowLabels {
  return {
    process: t('log.column.process'),
    thread: t('log.thread'),
    injected: t('log.injected'),
    rules: t('log.rulesTitle'),
    effect: t('log.effectTitle'),
    duration: {
      simulated: t('log.durationTitle.simulated'),
      observed: t('log.durationTitle.observed'),
      modeled: t('log.durationTitle.modeled'),
    },
    message: (coded, english) => codedText(t, coded, english),
  };
}

export interface LogRowProps {
  readonly row: CallRow;
  readonly labels: RowLabels;
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
export const LogRow = memo(function LogRow({ row, labels, prefs, selected, atCursor, future, related, top }: LogRowProps) {
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
  const message = call.message === undefined ? undefined : labels.message(call.messageCode, call.message);
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
      title={[signature, message].filter(Boolean).join('\n')}
    >
      <span className="log-seq mono">{call.seq}</span>
      <span className="log-pid mono" title={labels.process} style={{ borderRightColor: processColor(call.pid) }}>
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
          {call.thread !== undefined && (
            <span className="log-thread mono" data-testid="log-thread">
              {labels.thread} {call.thread}
            </span>
          )}
          {call.injected === true && <span className="log-tag warn">{labels.injected}</span>}
          {message !== undefined && <span className="log-message">{message}</span>}
          {row.rules.length > 0 && (
            <span className="log-rules mono" title={labels.rules}>
              {row.rules.join(' ')}
            </span>
          )}
          {effects.slice(0, 3).map((effect, slot) => (
            <span
              // By place, like the rows: a row handed to a new call updates its effect labels in place.
              // biome-ignore lint/suspicious/noArrayIndexKey: the labels hold no state of their own
              key={slot}
              className="log-effect mono"
              data-effect-kind={effect.target?.kind}
              data-effect-id={effect.target?.id}
              data-effect-device={effect.target?.device}
              title={labels.effect}
            >
              {effect.event} #{effect.target?.id}
            </span>
          ))}
          {effects.length > 3 && <span className="muted">+{effects.length - 3}</span>}
        </span>
      </span>
      <span className="log-duration mono" title={labels.duration[call.provenance]}>
        {duration(call.durationNs)}
      </span>
    </div>
  );
});
