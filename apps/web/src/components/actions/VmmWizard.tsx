import { devicePools } from '@pagelens/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import { selectHostResets } from '../../store/replica-slice.ts';
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

/**
 * A side panel (in the left column, in place of the action forms) that walks the VMM lifecycle one
 * call at a time (VM-2 … VM-8), with misuse lessons below; the centre stays free to watch the
 * address space or the page map. A host reset starts it over: what it made is gone.
 */
export function VmmWizard({ open, onClose, caller }: VmmWizardProps) {
  const { t } = useTranslation();
  const store = useStoreApi();
  const device = useAppStore((state) => state.device);
  const framesKnown = useAppStore((state) => framesObservable(state.session?.host));
  const currentDevice = useCurrentDevice();
  const setView = useAppStore((state) => state.setView);
  const hostResets = useAppStore(selectHostResets);
  const nextButton = useRef<HTMLButtonElement>(null);
  const [state, setState] = useState<WizardState>(() => startWizard(device));
  const [shown, setShown] = useState<number | undefined>(undefined);
  /** A done step picked from the list: shown with its explanation and answers, read-only, until "back". */
  const [reopened, setReopened] = useState<number | undefined>(undefined);
  const baseline = useRef<string | undefined>(undefined);
  /** The host was reset after this run began: say why the wizard is back at step 1. */
  const [resetNote, setResetNote] = useState(false);
  const resetsSeen = useRef(hostResets);

  // A reset host holds none of the handles, reservations or buffers the run made: begin again.
  useEffect(() => {
    if (resetsSeen.current === hostResets) return;
    resetsSeen.current = hostResets;
    setResetNote(state.step > 0 || Object.keys(state.records).length > 0 || state.lesson !== undefined);
    setState(startWizard(device, state.memAttr));
    setShown(undefined);
    setReopened(undefined);
    baseline.current = undefined;
  }, [hostResets, device, state]);

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
    setResetNote(false);
    setReopened(undefined);
    // Before the physical allocation, the first call that changes a pool: a real runtime's device
    // has its first reading only once step 1 opened it.
    if (state.step <= 1 && baseline.current === undefined) baseline.current = poolsNow();
    let current = state;
    const ran = current.step;
    // A host reset while a call is out leaves this run's objects gone: the fresh wizard wins.
    const epoch = resetsSeen.current;
    for (;;) {
      const appState = store.getState();
      const live = appState.timeline?.live;
      const call = callsFor(current, live === undefined ? -1 : currentDeviceOf(live, pidOf(appState)))[0];
      if (call === undefined) {
        current = advance(current);
        break;
      }
      const outcome = await caller.runBuilt(call);
      if (resetsSeen.current !== epoch) return;
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
    const epoch = resetsSeen.current;
    const failedSet = await caller.ensureDevice(state.device);
    const outcome = failedSet ?? (await caller.runBuilt(call));
    if (resetsSeen.current === epoch) setState((previous) => absorbLesson(previous, lesson, call, outcome));
  };
  const restart = () => {
    setState(startWizard(device, state.memAttr));
    setShown(undefined);
    setReopened(undefined);
    setResetNote(false);
    baseline.current = undefined;
  };
  const started = state.step > 0 || Object.keys(state.records).length > 0 || state.lesson !== undefined;
  const reopenedStep = reopened === undefined || reopened >= state.step ? undefined : WIZARD_STEPS[reopened];
  const atBaseline = finished && baseline.current !== undefined && baseline.current === poolsNow();

  return (
    <section
      className="act-wizard"
      hidden={!open}
      aria-labelledby="act-wizard-title"
      onKeyDown={(event) => {
        // Close here: the app's global Escape (clear selection) would otherwise take the key.
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onClose();
      }}
      data-testid="vmm-wizard"
    >
      <header className="act-wizard-head">
        <h2 id="act-wizard-title" className="section-title">
          {t('actions.wizard.title')}
        </h2>
        <span className="muted act-small">
          {finished ? t('actions.wizard.finish') : t('actions.wizard.stepOf', { n: state.step + 1, total: WIZARD_STEPS.length })}
        </span>
        <button type="button" className="act-close" onClick={onClose} aria-label={t('actions.wizard.close')} data-testid="wizard-close">
          ×
        </button>
      </header>
      <p className="act-note">
        {t('actions.wizard.intro')}{' '}
        <button type="button" className="link-button" onClick={() => setView('address')} data-testid="wizard-watch">
          {t('actions.wizard.watch')}
        </button>
      </p>
      {resetNote && (
        <p className="act-note act-warn" role="status" data-testid="wizard-reset-note">
          {t('actions.wizard.hostReset')}
        </p>
      )}
      <ol className="act-steps" aria-label={t('actions.wizard.stepsLabel')}>
        {WIZARD_STEPS.map((name, index) => {
          const status = index < state.step ? 'done' : index === state.step ? (state.failed === undefined ? 'current' : 'failed') : 'todo';
          return (
            <li key={name} className={`act-step-${status}`} aria-current={index === state.step ? 'step' : undefined}>
              <button
                type="button"
                disabled={index > state.step}
                aria-pressed={status === 'done' ? reopened === index : undefined}
                onClick={() => setReopened(index < state.step ? index : undefined)}
                title={status === 'done' ? t('actions.wizard.reopen', { step: t(`actions.wizard.steps.${name}`) }) : undefined}
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
      <section className="act-step" data-testid="wizard-current" data-step={reopenedStep ?? step ?? 'done'}>
        {reopenedStep !== undefined ? (
          <div data-testid="wizard-reopened" data-step={reopenedStep}>
            <h3>
              {t(`actions.wizard.steps.${reopenedStep}`)} <span className="muted act-rules">{STEP_RULES[reopenedStep].join(', ')}</span>
            </h3>
            <p className="act-explain">{t(`actions.wizard.explain.${reopenedStep}`)}</p>
            <WizardResults state={state} shown={reopened} />
            <button type="button" onClick={() => setReopened(undefined)} data-testid="wizard-back">
              {finished
                ? t('actions.wizard.backToDone')
                : t('actions.wizard.backTo', { n: state.step + 1, step: t(`actions.wizard.steps.${step ?? 'granularity'}`) })}
            </button>
          </div>
        ) : step === undefined ? (
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
        {reopenedStep === undefined && <WizardResults state={state} shown={state.failed === undefined ? shown : state.step} />}
        {reopenedStep === undefined && (
          <WizardLessons state={state} disabled={!caller.canCall || caller.busy} onRun={(lesson) => void runLesson(lesson)} />
        )}
      </section>
      {started && !finished && (
        <div className="act-wizard-foot">
          <button type="button" onClick={restart} title={t('actions.wizard.startOverHelp')} data-testid="wizard-start-over">
            {t('actions.wizard.startOver')}
          </button>
          <span className="act-note">{t('actions.wizard.startOverHelp')}</span>
        </div>
      )}
    </section>
  );
}
