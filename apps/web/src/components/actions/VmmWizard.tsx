import { devicePools } from '@pagelens/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useModalDialog } from '../../hooks/useModalDialog.ts';
import { framesObservable } from '../../model/acl/backend.ts';
import { cCallText } from '../../model/actions/c-text.ts';
import { currentDeviceOf } from '../../model/actions/live-objects.ts';
import {
  absorb,
  absorbLesson,
  advance,
  callsFor,
  currentStep,
  type Lesson,
  lessonCall,
  STEP_RULES,
  startWizard,
  WIZARD_STEPS,
  type WizardState,
} from '../../model/actions/vmm-wizard.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { type Caller, pidOf, useCurrentDevice } from './useCaller.ts';
import { WizardLessons } from './WizardLessons.tsx';
import { WizardResults } from './WizardResults.tsx';
import { WizardSettings } from './WizardSettings.tsx';

interface VmmWizardProps {
  readonly open: boolean;
  readonly onClose: () => void;
  readonly caller: Caller;
}

/** A dialog that walks the VMM lifecycle one call at a time (VM-2 … VM-8), with misuse lessons on the side. */
export function VmmWizard({ open, onClose, caller }: VmmWizardProps) {
  const { t } = useTranslation();
  const store = useStoreApi();
  const device = useAppStore((state) => state.device);
  const framesKnown = useAppStore((state) => framesObservable(state.session?.host));
  const currentDevice = useCurrentDevice();
  const dialog = useModalDialog(open);
  const nextButton = useRef<HTMLButtonElement>(null);
  const [state, setState] = useState<WizardState>(() => startWizard(device));
  const [shown, setShown] = useState<number | undefined>(undefined);
  const baseline = useRef<string | undefined>(undefined);

  // Keep the keyboard on "Next" between steps: Enter walks the whole lifecycle. The step is a
  // dependency on purpose: a new step renders a new button label while busy stays false.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (open && !caller.busy) nextButton.current?.focus();
  }, [open, caller.busy, state.step]);

  const step = currentStep(state);
  const finished = step === undefined;
  const calls = callsFor(state, currentDevice);
  /** The device's pools now: the page map on the simulator, the last aclrtGetMemInfo reading on a real runtime (DM-15). */
  const poolsNow = () => {
    const live = store.getState().timeline?.live;
    const deviceState = live?.devices[state.device];
    if (deviceState === undefined) return undefined;
    if (framesKnown) return JSON.stringify(devicePools(deviceState));
    const pools = deviceState.lastSample?.pools;
    return pools === undefined ? undefined : JSON.stringify([pools.normal, pools.huge, pools.giant]);
  };

  const next = async () => {
    if (!caller.canCall || caller.busy) return;
    // Before the physical allocation, the first call that changes a pool: a real runtime's device
    // has its first reading only once step 1 opened it.
    if (state.step <= 1 && baseline.current === undefined) baseline.current = poolsNow();
    let current = state;
    const ran = current.step;
    for (;;) {
      const appState = store.getState();
      const live = appState.timeline?.live;
      const call = callsFor(current, live === undefined ? -1 : currentDeviceOf(live, pidOf(appState)))[0];
      if (call === undefined) {
        current = advance(current);
        break;
      }
      const outcome = await caller.runBuilt(call);
      current = absorb(current, call, outcome);
      setState(current);
      if (current.failed !== undefined) break;
      if (call.fn === 'aclrtMallocPhysical' || call.fn === 'aclrtReserveMemAddress' || call.fn === 'aclrtMapMem')
        caller.selectCreated(outcome);
    }
    setState(current);
    setShown(ran);
  };
  const runLesson = async (lesson: Lesson) => {
    const call = lessonCall(state, lesson);
    // Memory calls need a current device (LT-2), or the lesson would teach that instead.
    const failedSet = await caller.ensureDevice(state.device);
    const outcome = failedSet ?? (await caller.runBuilt(call));
    setState((previous) => absorbLesson(previous, lesson, call, outcome));
  };
  const restart = () => {
    setState(startWizard(device, state.memAttr));
    setShown(undefined);
    baseline.current = undefined;
  };
  const atBaseline = finished && baseline.current !== undefined && baseline.current === poolsNow();

  return (
    <dialog
      ref={dialog}
      className="act-wizard"
      aria-labelledby="act-wizard-title"
      onClose={onClose}
      onKeyDown={(event) => {
        // Close here: the app's global Escape (clear selection) would otherwise swallow the dialog's own cancel.
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onClose();
      }}
      data-testid="vmm-wizard"
    >
      <header className="act-wizard-head">
        <h2 id="act-wizard-title">{t('actions.wizard.title')}</h2>
        <span className="muted">
          {finished ? t('actions.wizard.finish') : t('actions.wizard.stepOf', { n: state.step + 1, total: WIZARD_STEPS.length })}
        </span>
        <button type="button" className="act-close" onClick={onClose} aria-label={t('actions.wizard.close')}>
          ×
        </button>
      </header>
      <p className="act-note">{t('actions.wizard.intro')}</p>
      <div className="act-wizard-body">
        <ol className="plain-list act-steps" aria-label={t('actions.wizard.stepsLabel')}>
          {WIZARD_STEPS.map((name, index) => {
            const status =
              index < state.step ? 'done' : index === state.step ? (state.failed === undefined ? 'current' : 'failed') : 'todo';
            return (
              <li key={name} className={`act-step-${status}`} aria-current={index === state.step ? 'step' : undefined}>
                <button
                  type="button"
                  disabled={index >= state.step}
                  onClick={() => setShown(index)}
                  data-testid={`wizard-step-${name}`}
                  data-status={status}
                >
                  <span aria-hidden="true">{status === 'done' ? '✓' : status === 'failed' ? '✗' : index + 1}</span>{' '}
                  {t(`actions.wizard.steps.${name}`)}
                </button>
              </li>
            );
          })}
        </ol>
        <section className="act-step" data-testid="wizard-current">
          {step === undefined ? (
            <div data-testid="wizard-done">
              <p className="act-ok-text">{t('actions.wizard.done')}</p>
              {baseline.current !== undefined && (
                <p className="act-note" data-testid="wizard-baseline" data-at-baseline={atBaseline}>
                  {atBaseline ? `✓ ${t('actions.wizard.baseline')}` : t('actions.wizard.notBaseline')}
                </p>
              )}
              <button type="button" onClick={restart} ref={nextButton}>
                {t('actions.wizard.restart')}
              </button>
            </div>
          ) : (
            <>
              <h3>
                {t(`actions.wizard.steps.${step}`)} <span className="muted act-rules">{STEP_RULES[step].join(', ')}</span>
              </h3>
              <p className="act-explain">{t(`actions.wizard.explain.${step}`)}</p>
              <WizardSettings state={state} onChange={setState} />
              {step === 'freePhysical' && state.handleFreed && <p className="act-note">{t('actions.wizard.deferred')}</p>}
              <p className="act-label">{t('actions.wizard.willRun')}</p>
              {calls.length === 0 ? (
                <p className="act-note">{t('actions.wizard.nothingToRun')}</p>
              ) : (
                <pre className="act-code-block" data-testid="wizard-call">
                  {calls.map((call) => cCallText(call.fn, call.args)).join('\n')}
                </pre>
              )}
              {state.failed !== undefined && <p className="act-note act-warn">{t('actions.wizard.failedStays')}</p>}
              <button
                type="button"
                className="act-primary act-start"
                ref={nextButton}
                disabled={!caller.canCall || caller.busy}
                onClick={() => void next()}
                data-testid="wizard-next"
              >
                {caller.busy
                  ? t('actions.calling')
                  : state.failed !== undefined
                    ? t('actions.wizard.retry', { step: t(`actions.wizard.steps.${step}`) })
                    : t('actions.wizard.next', { step: t(`actions.wizard.steps.${step}`) })}
              </button>
            </>
          )}
          <WizardResults state={state} shown={state.failed === undefined ? shown : state.step} />
          <WizardLessons state={state} disabled={!caller.canCall || caller.busy} onRun={(lesson) => void runLesson(lesson)} />
        </section>
      </div>
    </dialog>
  );
}
