import type { DeviceProfile, MallocFn } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { hintOptions, policyOptions } from '../../model/actions/policies.ts';
import { Field } from './Field.tsx';

interface PolicyPickerProps {
  readonly id: string;
  readonly fn: MallocFn;
  readonly profile: DeviceProfile | undefined;
  readonly base: number;
  readonly hints: readonly number[];
  readonly onBase: (value: number) => void;
  readonly onHints: (hints: readonly number[]) => void;
}

/** The policy dropdown with the chosen policy's one-line explanation, and the DM-9 bits for aclrtMallocWithCfg. */
export function PolicyPicker({ id, fn, profile, base, hints, onBase, onHints }: PolicyPickerProps) {
  const { t } = useTranslation();
  const options = policyOptions(profile);
  const chosen = options.find((option) => option.value === base) ?? options[0];
  const explainId = `${id}-explain`;
  const profileName = profile?.name ?? '';
  return (
    <Field id={id} label={t('actions.policy.label')}>
      <select
        id={id}
        value={base}
        onChange={(event) => onBase(Number(event.target.value))}
        aria-describedby={explainId}
        data-testid="policy"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} title={t(`actions.policy.explain.${option.key}`)}>
            {option.key}
            {option.unsupported === undefined
              ? ''
              : ` — ${t(`actions.policy.unsupported.${option.unsupported}`, { profile: profileName })}`}
          </option>
        ))}
      </select>
      {chosen !== undefined && (
        <p id={explainId} className="act-note" data-testid="policy-explain">
          {t(`actions.policy.explain.${chosen.key}`)}
        </p>
      )}
      {hintOptions(fn).length > 0 && (
        <fieldset className="act-hints">
          <legend>{t('actions.policy.hints')}</legend>
          {hintOptions(fn).map((hint) => (
            <label key={hint.key} className="act-check" title={hint.name}>
              <input
                type="checkbox"
                checked={hints.includes(hint.bit)}
                onChange={(event) => onHints(event.target.checked ? [...hints, hint.bit] : hints.filter((bit) => bit !== hint.bit))}
              />
              <span>
                <code>{hint.key}</code> <span className="muted">{t(`actions.policy.hint.${hint.key}`)}</span>
              </span>
            </label>
          ))}
          <p className="act-note">{t('actions.policy.hintNote')}</p>
        </fieldset>
      )}
    </Field>
  );
}
