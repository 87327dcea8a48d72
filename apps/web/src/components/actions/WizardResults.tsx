import { useTranslation } from 'react-i18next';
import { cCallText } from '../../model/actions/c-text.ts';
import { WIZARD_STEPS, type WizardState } from '../../model/actions/vmm-wizard.ts';
import { OutcomeView } from './OutcomeView.tsx';

/** The calls one step made and what each answered (the step just run, or one picked from the list). */
export function WizardResults({ state, shown }: { state: WizardState; shown: number | undefined }) {
  const { t } = useTranslation();
  if (shown === undefined) return null;
  const records = state.records[shown] ?? [];
  const step = WIZARD_STEPS[shown];
  if (records.length === 0 || step === undefined) return null;
  return (
    <section className="act-wizard-result" aria-live="polite" data-testid="wizard-result" data-step={step}>
      <p className="act-label">{t('actions.wizard.resultOf', { step: t(`actions.wizard.steps.${step}`) })}</p>
      {records.map((record, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the calls of a step, in order
        <div key={index} className="act-record">
          <pre className="act-code-block">{cCallText(record.fn, record.args)}</pre>
          <OutcomeView outcome={{ id: index, fn: record.fn, events: [], at: 0, ...record.result }} />
        </div>
      ))}
    </section>
  );
}
