import { aclrtMemAttr } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { sizeText } from '../../model/actions/form-values.ts';
import { currentStep, WIZARD_MEM_ATTRS, type WizardState, wizardSize } from '../../model/actions/vmm-wizard.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { Breakable } from '../common/Breakable.tsx';
import { CountInput } from './CountInput.tsx';
import { Field } from './Field.tsx';

/** What the person may still choose at this step: page kind and device before any call, size before the physical allocation, direction before the copy. */
export function WizardSettings({ state, onChange }: { state: WizardState; onChange: (state: WizardState) => void }) {
  const { t } = useTranslation();
  const devices = useAppStore((store) => store.session?.devices.length ?? 1);
  const step = currentStep(state);
  if (step === 'granularity') {
    return (
      <div className="act-wizard-settings">
        <fieldset className="act-sub">
          <legend>{t('actions.wizard.memAttr')}</legend>
          {WIZARD_MEM_ATTRS.map((name) => {
            const value = aclrtMemAttr.byName[name];
            return (
              <label key={name} className="act-check">
                <input
                  type="radio"
                  name="act-wizard-attr"
                  checked={state.memAttr === value}
                  onChange={() => onChange({ ...state, memAttr: value })}
                  data-testid={`wizard-attr-${name}`}
                />
                <code>
                  <Breakable text={name} />
                </code>{' '}
                <span className="muted">{t(`actions.wizard.memAttrHelp.${name}`)}</span>
              </label>
            );
          })}
        </fieldset>
        <Field id="act-wizard-device" label={t('actions.wizard.device')} inline>
          <select
            id="act-wizard-device"
            value={state.device}
            onChange={(event) => onChange({ ...state, device: Number(event.target.value) })}
          >
            {Array.from({ length: devices }, (_, id) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: device ids are indices
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </Field>
      </div>
    );
  }
  if (step === 'physical') {
    return (
      <div className="act-wizard-settings">
        <Field id="act-wizard-granules" label={t('actions.wizard.granules')} inline>
          <CountInput
            id="act-wizard-granules"
            max={64}
            className="act-narrow"
            value={state.granules}
            onText={(text) => onChange({ ...state, granules: Math.min(64, Math.max(1, Math.floor(Number(text)) || 1)) })}
          />
        </Field>
        <p className="act-note">{t('actions.wizard.sizeIs', { size: sizeText(wizardSize(state)) })}</p>
      </div>
    );
  }
  if (step === 'use') {
    return (
      <fieldset className="act-sub">
        <legend>{t('actions.wizard.direction')}</legend>
        {(['h2d', 'd2h'] as const).map((direction) => (
          <label key={direction} className="act-check">
            <input
              type="radio"
              name="act-wizard-direction"
              checked={state.direction === direction}
              onChange={() => onChange({ ...state, direction })}
            />
            {t(`actions.wizard.${direction}`)}
          </label>
        ))}
      </fieldset>
    );
  }
  return null;
}
