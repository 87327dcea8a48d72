import { ACL_FUNCTIONS, type AclFunctionName } from '@pagelens/core';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cCallText, cSignature } from '../../model/actions/c-text.ts';
import { formFields } from '../../model/actions/form-spec.ts';
import {
  buildArgs,
  defaultValues,
  type FieldProblem,
  type FormObject,
  type FormValue,
  setField,
  sizesFromPick,
} from '../../model/actions/form-values.ts';
import { type LiveObject, liveObjects } from '../../model/actions/live-objects.ts';
import type { CallOutcome } from '../../store/actions-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { FunctionPicker } from './FunctionPicker.tsx';
import { OutcomeView } from './OutcomeView.tsx';
import { ParamField, type Path } from './ParamField.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { sizeProblemText } from './size-problem-text.ts';
import { UnavailableNote } from './UnavailableNote.tsx';
import { type Caller, pidOf, revealResult, useCurrentDevice } from './useCaller.ts';

const NEEDS_NO_DEVICE = new Set(['process', 'device', 'error', 'peer']);

/** Any catalogue function through a form generated from its C parameters; out-parameters in the result. */
export function GenericCall({ caller }: { caller: Caller }) {
  const { t } = useTranslation();
  const store = useStoreApi();
  const device = useAppStore((state) => state.device);
  const offered = useAppStore((state) => state.session?.functions);
  const currentDevice = useCurrentDevice();
  const [fn, setFn] = useState<AclFunctionName>('aclrtGetMemInfo');
  const [values, setValues] = useState<FormObject>(() => defaultValues('aclrtGetMemInfo', { device }));
  const [outcome, setOutcome] = useState<CallOutcome | undefined>(undefined);
  const resultRef = useRef<HTMLDivElement>(null);
  const defaults = defaultValues(fn, { device });
  const fields = formFields(fn);
  const built = buildArgs(fn, values);
  const missing = offered !== undefined && !offered.has(fn);
  const spec = ACL_FUNCTIONS[fn];

  const choose = (next: AclFunctionName) => {
    setFn(next);
    setValues(withLiveObjects(next, defaultValues(next, { device })));
    setOutcome(undefined);
  };
  /** Pointers start at the newest live object of their kind (streams at the default stream), sizes following (VM-6, VM-7). */
  const withLiveObjects = (next: AclFunctionName, start: FormObject): FormObject => {
    const state = store.getState();
    const live = state.timeline?.live;
    if (live === undefined) return start;
    let filled = start;
    for (const field of formFields(next)) {
      if (field.kind !== 'pointer' || field.picks.length === 0 || field.picks.includes('stream')) continue;
      const [newest] = liveObjects(live, field.picks, pidOf(state), 1);
      if (newest === undefined) continue;
      filled = setField(filled, [field.name], newest.value);
      if (newest.size !== undefined)
        for (const [name, size] of Object.entries(sizesFromPick(next, field.name, newest.size))) filled = setField(filled, [name], size);
    }
    return filled;
  };
  const change = (path: Path, next: FormValue, picked?: LiveObject) => {
    let updated = setField(values, path, next);
    const [param] = path;
    if (picked?.size !== undefined && typeof param === 'string' && path.length === 1) {
      for (const [name, size] of Object.entries(sizesFromPick(fn, param, picked.size))) updated = setField(updated, [name], size);
    }
    setValues(updated);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!built.ok || missing || !caller.canCall) return;
    const result = await caller.runBuilt({ fn, args: built.args });
    setOutcome(result);
    revealResult(resultRef.current);
    if (result.ok) caller.selectCreated(result);
  };
  const problem = (error: { path: string; problem: FieldProblem }): string => {
    switch (error.problem.code) {
      case 'size':
        return sizeProblemText(t, error.problem.size);
      case 'int':
        return t('actions.call.problem.int', { min: error.problem.min, max: error.problem.limit - 1 });
      case 'pointer':
        return t('actions.call.problem.pointer');
      case 'list':
        return t(`actions.call.problem.list.${error.problem.item}`);
    }
  };

  return (
    <form className="act-form" onSubmit={(event) => void submit(event)} data-testid="generic-call">
      <FunctionPicker value={fn} offered={offered} onChange={choose} />
      <fieldset className="act-frame act-form" disabled={!caller.canCall}>
        <p className="act-label">{t('actions.call.signature')}</p>
        <pre className="act-code-block" data-testid="call-signature">
          {cSignature(fn, true)}
        </pre>
        {spec.rules.length > 0 && <p className="act-note">{t('actions.call.rules', { rules: spec.rules.join(', ') })}</p>}
        <UnavailableNote fn={fn} why={caller.why(fn)} testId="call-unavailable" />
        {caller.canCall && currentDevice < 0 && !NEEDS_NO_DEVICE.has(spec.category) && spec.acl && (
          <p className="act-note">
            {t('actions.call.noDevice')}{' '}
            <button
              type="button"
              className="act-small-button"
              disabled={!caller.canCall || caller.why('aclrtSetDevice') !== undefined}
              title={caller.why('aclrtSetDevice') === 'read-only' ? t('actions.unavailable.readOnly', { fn: 'aclrtSetDevice' }) : undefined}
              onClick={() => void caller.run('aclrtSetDevice', { deviceId: device })}
            >
              {t('actions.call.setDevice', { device })}
            </button>
          </p>
        )}
        {fields.length === 0 && <p className="act-note">{t('actions.call.noInputs', { fn })}</p>}
        {fields.map((field) => (
          <ParamField
            key={`${fn}-${field.name}`}
            fn={fn}
            field={field}
            value={values[field.name]}
            fallback={defaults[field.name]}
            path={[field.name]}
            siblings={values}
            onChange={change}
          />
        ))}
        <p className="act-label">{t('actions.call.willCall')}</p>
        {built.ok ? (
          <pre className="act-code-block" data-testid="call-preview">
            {cCallText(fn, built.args)}
          </pre>
        ) : (
          <p className="act-note act-invalid">
            <code>{built.error.path}</code>: {problem(built.error)}
          </p>
        )}
        <div className="act-submit">
          <SubmitButton busy={caller.busy} disabled={!built.ok || missing} testId="call-submit">
            {t('actions.call.submit', { fn })}
          </SubmitButton>
        </div>
      </fieldset>
      <div aria-live="polite" ref={resultRef}>
        {outcome !== undefined && <OutcomeView outcome={outcome} testId="call-result" />}
      </div>
    </form>
  );
}
