import type { PageWalk } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import type { ShownStep } from '../../model/address-space/walk-model.ts';

/**
 * The VA cut into its walk fields, left to right like the bits: one box per level (9 bits, the
 * index into a 512-entry table) and the page offset. Box widths follow the bit counts.
 */
export function WalkBits({ walk, steps, mapped }: { walk: PageWalk; steps: readonly ShownStep[]; mapped: boolean }) {
  const { t } = useTranslation();
  const leaf = steps.at(-1);
  const offsetHigh = (leaf?.bitsLow ?? 12) - 1;
  return (
    <ol className="walk-bits" data-testid="walk-bits">
      {steps.map((step) => (
        <li
          key={step.level}
          className={`walk-field walk-entry-${step.entry}`}
          style={{ flexGrow: 9 }}
          data-testid={`walk-level-${step.level}`}
          data-index={step.index}
          data-entry={step.entry}
        >
          <span className="walk-field-name">{t('addressSpace.walk.level', { level: step.level })}</span>
          <span className="walk-field-bits">{t('addressSpace.walk.bits', { high: step.bitsHigh, low: step.bitsLow })}</span>
          <span className="walk-index-line">
            <strong className="mono walk-index">{step.index}</strong>{' '}
            <span className="mono muted">0x{step.index.toString(16).padStart(3, '0')}</span>
          </span>
          <span className="walk-entry">{t(`addressSpace.walk.entry.${step.entry}`)}</span>
        </li>
      ))}
      {mapped && (
        <li className="walk-field walk-offset" style={{ flexGrow: Math.max(9, offsetHigh + 1) / 2 }} data-testid="walk-offset-field">
          <span className="walk-field-name">{t('addressSpace.walk.offset')}</span>
          <span className="walk-field-bits">{t('addressSpace.walk.bits', { high: offsetHigh, low: 0 })}</span>
          <strong className="mono walk-index">0x{walk.offset.toString(16)}</strong>
        </li>
      )}
    </ol>
  );
}
