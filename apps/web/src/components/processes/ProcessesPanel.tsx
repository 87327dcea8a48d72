import type { RunInfo } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { selectRuns } from '../../store/session-slice.ts';
import { selectProcessFilter } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { processColor } from './process-color.ts';
import { runState, shortCommand } from './run-text.ts';
import './processes.css';

function RunRow({ run, chosen, onChoose }: { run: RunInfo; chosen: boolean; onChoose: (pid: number) => void }) {
  const { t } = useTranslation();
  // A run from before a host reset is history: its process and memory are gone, so there is nothing to filter to.
  const gone = run.beforeReset === true;
  return (
    <li
      className={`process-row state-${run.state}${gone ? ' before-reset' : ''}`}
      data-testid="process-row"
      data-pid={run.pid}
      data-run={run.run}
      data-state={run.state}
      data-before-reset={gone}
    >
      <button
        type="button"
        className="process-choose"
        aria-pressed={chosen}
        disabled={gone}
        onClick={() => onChoose(run.pid)}
        title={gone ? t('processes.beforeResetTitle') : t(chosen ? 'processes.showAll' : 'processes.showOnly', { pid: run.pid })}
      >
        <span className="process-swatch" style={{ background: processColor(run.pid) }} aria-hidden="true" />
        <span className="process-line">
          <span className="process-command mono" title={run.command}>
            {shortCommand(run.command)}
          </span>
          <span className={`process-mode mode-${run.mode}`}>{t(`processes.mode.${run.mode}`)}</span>
        </span>
        <span className="process-line muted">{t('processes.pids', { pid: run.pid, osPid: run.osPid })}</span>
        <span className="process-line process-state" data-testid="process-state">
          {runState(t, run)}
        </span>
        {gone && (
          <span className="process-line process-gone" data-testid="process-before-reset">
            {t('processes.beforeReset')}
          </span>
        )}
        <span className="process-line process-counts mono">
          <span data-testid="process-calls">{t('processes.calls', { count: run.calls })}</span>
          <span className={run.errors > 0 ? 'process-errors' : ''}>{t('processes.errors', { count: run.errors })}</span>
          <span title={t('processes.droppedTitle')}>
            {run.dropped === undefined ? t('processes.droppedUnknown') : t('processes.dropped', { count: run.dropped })}
          </span>
        </span>
      </button>
    </li>
  );
}

/**
 * The programs `pagelens run` brought to the agent: each one process of the model. Choosing one
 * sets the process filter every view honours (process-filter.ts); choosing it again shows every process.
 */
export function ProcessesPanel() {
  const { t } = useTranslation();
  const runs = useAppStore(selectRuns);
  const filter = useAppStore(selectProcessFilter);
  const setFilter = useAppStore((state) => state.setProcessFilter);
  if (runs.length === 0) return null;
  const choose = (pid: number) => setFilter(filter === pid ? undefined : pid);
  return (
    <section className="panel processes-panel" data-testid="processes" aria-label={t('processes.title')}>
      <header className="processes-head">
        <h2>{t('processes.title')}</h2>
        {filter !== undefined && (
          <button type="button" className="link" onClick={() => setFilter(undefined)} data-testid="processes-all">
            {t('processes.all')}
          </button>
        )}
      </header>
      <ul className="processes-list">
        {runs.map((run) => (
          <RunRow key={run.run} run={run} chosen={filter === run.pid && run.beforeReset !== true} onChoose={choose} />
        ))}
      </ul>
    </section>
  );
}
