import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import type { RunView } from '../../model/playground/controller.ts';
import { NameOptions } from '../common/NameOptions.tsx';

export interface RunActions {
  run(): void;
  step(): void;
  stepOver(): void;
  runToCursor(): void;
  stop(): void;
  reset(): void;
  timeLine(): void;
}

interface RunControlsProps {
  readonly run: RunView;
  readonly actions: RunActions;
  /** False for viewers and while the code does not compile. */
  readonly canRun: boolean;
  readonly canDrive: boolean;
  readonly blocked: boolean;
  /** The code's functions when there are several: the user picks which one runs. */
  readonly functions: readonly string[];
  readonly entry: string | undefined;
  readonly onEntry: ((entry: string | undefined) => void) | undefined;
}

const GROUP = 'playground.keys.group';

function StatusText({ run, blocked, canDrive }: { run: RunView; blocked: boolean; canDrive: boolean }) {
  const { t } = useTranslation();
  const n = (value: number) => value.toLocaleString();
  switch (run.status) {
    case 'idle':
      return <>{t(!canDrive ? 'playground.status.viewer' : blocked ? 'playground.status.blocked' : 'playground.status.idle')}</>;
    case 'ready':
      return <>{t('playground.status.ready')}</>;
    case 'running':
      return <>{t(run.stopping ? 'playground.status.stopping' : 'playground.status.running', { steps: n(run.steps) })}</>;
    case 'paused':
      return <>{t('playground.status.paused', { line: run.line })}</>;
    case 'finished':
      return (
        <>{run.exitCode === undefined ? t('playground.status.finished') : t('playground.status.finishedExit', { code: run.exitCode })}</>
      );
    case 'error': {
      const error = run.error;
      if (error === undefined || error.line === 0) return <>{t('playground.status.errorNoLine')}</>;
      return <>{t(error.inSetup === true ? 'playground.status.errorSetup' : 'playground.status.error', { line: error.line })}</>;
    }
  }
}

/** Run, Step, Step over, Run to cursor, Stop and Reset, with their keys, and where the execution stands. */
export function RunControls({ run, actions, canRun, canDrive, blocked, functions, entry, onEntry }: RunControlsProps) {
  const { t } = useTranslation();
  const running = run.status === 'running';
  // After the end, Run and Step start a fresh execution of the same code.
  const canGo = canRun && !running;
  const canStop = canDrive && (running || run.status === 'paused');
  const canReset = canDrive && run.status !== 'idle';
  // The driver's keys stay registered while the playground shows, so `?` lists all of them; each acts only when its button would.
  const when = (enabled: boolean, action: () => void) => () => {
    if (enabled) action();
  };
  useShortcut({ key: 'r', label: 'playground.keys.run', group: GROUP }, when(canGo, actions.run), canDrive);
  useShortcut({ key: 'n', label: 'playground.keys.step', group: GROUP }, when(canGo, actions.step), canDrive);
  useShortcut({ key: 'o', label: 'playground.keys.stepOver', group: GROUP }, when(canGo, actions.stepOver), canDrive);
  useShortcut({ key: 'c', label: 'playground.keys.runToCursor', group: GROUP }, when(canGo, actions.runToCursor), canDrive);
  useShortcut({ key: 'p', label: 'playground.keys.stop', group: GROUP }, when(canStop, actions.stop), canDrive);
  useShortcut({ key: 'R', shift: true, label: 'playground.keys.reset', group: GROUP }, when(canReset, actions.reset), canDrive);
  useShortcut({ key: 'g', label: 'playground.keys.timeLine', group: GROUP }, when(run.status !== 'idle', actions.timeLine), true);
  const buttons = [
    { id: 'run', label: 'playground.controls.run', hint: 'playground.controls.runHint', key: 'r', enabled: canGo, onClick: actions.run },
    {
      id: 'step',
      label: 'playground.controls.step',
      hint: 'playground.controls.stepHint',
      key: 'n',
      enabled: canGo,
      onClick: actions.step,
    },
    {
      id: 'step-over',
      label: 'playground.controls.stepOver',
      hint: 'playground.controls.stepOverHint',
      key: 'o',
      enabled: canGo,
      onClick: actions.stepOver,
    },
    {
      id: 'run-to-cursor',
      label: 'playground.controls.runToCursor',
      hint: 'playground.controls.runToCursorHint',
      key: 'c',
      enabled: canGo,
      onClick: actions.runToCursor,
    },
    {
      id: 'stop',
      label: 'playground.controls.stop',
      hint: 'playground.controls.stopHint',
      key: 'p',
      enabled: canStop,
      onClick: actions.stop,
    },
    {
      id: 'reset',
      label: 'playground.controls.reset',
      hint: 'playground.controls.resetHint',
      key: '⇧R',
      enabled: canReset,
      onClick: actions.reset,
    },
  ];
  const counts = run.status === 'idle' ? undefined : run;
  return (
    <div className="pl-controls">
      <div className="pl-buttons" role="toolbar" aria-label={t('playground.controls.label')}>
        {buttons.map((b) => (
          <button
            key={b.id}
            type="button"
            className={`pl-button pl-button-${b.id}`}
            disabled={!b.enabled}
            onClick={b.onClick}
            title={t(b.hint)}
            data-testid={`pl-${b.id}`}
            aria-keyshortcuts={b.key === '⇧R' ? 'Shift+R' : b.key}
          >
            {t(b.label)} <kbd>{b.key}</kbd>
          </button>
        ))}
        {functions.length > 1 && (
          <label className="pl-entry">
            {t('playground.controls.entry')}{' '}
            <select
              value={entry ?? ''}
              disabled={onEntry === undefined}
              onChange={(event) => onEntry?.(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
              data-testid="pl-entry"
            >
              <option value="">{t('playground.controls.entryAuto')}</option>
              <NameOptions names={functions} />
            </select>
          </label>
        )}
      </div>
      <output
        className={`pl-status pl-status-${run.status}`}
        data-testid="pl-status"
        data-state={run.status}
        data-line={run.line}
        aria-live="polite"
      >
        <span className="pl-status-main">
          <StatusText run={run} blocked={blocked} canDrive={canDrive} />
        </span>
        {counts !== undefined && (
          <span className="pl-status-counts muted">
            {t('playground.status.statements', { count: counts.steps, formatted: counts.steps.toLocaleString() })} ·{' '}
            {t('playground.status.calls', { count: counts.calls, formatted: counts.calls.toLocaleString() })} ·{' '}
            <span className={counts.aclErrors > 0 ? 'pl-acl-errors' : ''} data-testid="pl-acl-errors" data-count={counts.aclErrors}>
              {t('playground.status.aclErrors', { count: counts.aclErrors })}
            </span>
          </span>
        )}
        {run.status === 'paused' && canDrive && <span className="muted pl-readonly-hint">{t('playground.status.readOnly')}</span>}
      </output>
    </div>
  );
}
