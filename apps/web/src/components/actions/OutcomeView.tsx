import { useTranslation } from 'react-i18next';
import { useCodedText } from '../../i18n/useCodedText.ts';
import { useReasonText } from '../../i18n/useReasonText.ts';
import { copiesOf, failureReasons, failureText, outRows } from '../../model/actions/outcome.ts';
import { bytes, duration, rate } from '../../model/format.ts';
import { type RateSpread, rateSpread } from '../../model/host-copies/rate-spread.ts';
import type { CallOutcome } from '../../store/actions-slice.ts';
import { useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/** One call's answer: ACL_SUCCESS with its out-parameters, or "NAME (code): message" with the rule reasons. */
export function OutcomeView({ outcome, testId }: { outcome: CallOutcome; testId?: string }) {
  const { t } = useTranslation();
  const reasonText = useReasonText();
  const say = useCodedText();
  const timeline = useAppStore((state) => state.timeline);
  const format = useFormat();
  if (outcome.ok) {
    const rows = outRows(outcome);
    const copies = timeline === undefined ? [] : copiesOf(outcome, timeline);
    return (
      <div className="act-outcome act-ok" data-testid={testId} data-ok="true">
        <p className="act-outcome-head">
          <span aria-hidden="true">✓ </span>
          <code>{t('actions.result.success', { fn: outcome.fn })}</code>
        </p>
        {rows.length > 0 && (
          <ul className="act-out" aria-label={t('actions.result.out')}>
            {rows.map((row) => (
              <li key={row.name} className="mono">
                {row.name} = <span data-out={row.name}>{row.value}</span>
              </li>
            ))}
          </ul>
        )}
        {copies.map((copy) => (
          <div key={copy.seq} data-testid="copy-timing">
            <p>
              {t('actions.result.copied', {
                bytes: bytes(copy.bytes, format),
                duration: duration(copy.end - copy.start),
                rate: rate(copy.bytesPerSec),
              })}{' '}
              <span className={`provenance provenance-${copy.provenance}`}>{t(`common.provenance.${copy.provenance}`)}</span>
            </p>
            <SpreadNote spread={rateSpread(copy.path, timeline?.live.devices[copy.device]?.profile, copy.provenance === 'observed')} />
            <ul className="act-reasons">
              {copy.reasons.map((reason) => (
                <li key={reason.code}>{reasonText(reason, true)}</li>
              ))}
            </ul>
          </div>
        ))}
        {outcome.message !== undefined && <p className="muted act-small">{say(outcome.messageCode, outcome.message)}</p>}
      </div>
    );
  }
  const text = failureText(outcome);
  const reasons = timeline === undefined ? [] : failureReasons(outcome, timeline);
  return (
    <div className="act-outcome act-failed" role="alert" data-testid={testId} data-ok="false">
      <p className="act-outcome-head">
        <span aria-hidden="true">✗ </span>
        {text.name === undefined ? t('actions.result.refused') : t('actions.result.failure', { fn: outcome.fn })}
      </p>
      <p className="act-error-line">
        {text.name !== undefined && (
          <code className="act-code">
            {text.name} ({text.code})
          </code>
        )}
        {text.name !== undefined && ': '}
        {say(outcome.messageCode, text.message)}
      </p>
      {reasons.length > 0 && (
        <div>
          <p className="act-label">{t('actions.result.why')}</p>
          <ul className="act-reasons">
            {reasons.map((reason, index) => (
              // Reasons are an ordered explanation without ids; their order is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={index}>{reasonText(reason, true)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** CP-3: the simulator's pageable copy rate varies from copy to copy; say so where the rate is shown. */
export function SpreadNote({ spread }: { spread: RateSpread | undefined }) {
  const { t } = useTranslation();
  if (spread === undefined) return null;
  return (
    <p className="act-note hatch-note" data-testid="rate-spread">
      {t('common.rateSpread', { low: rate(spread.low), high: rate(spread.high) })}
    </p>
  );
}
