import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { currentRuns, nextProcessFilter } from '../../model/processes/process-filter.ts';
import { selectRuns } from '../../store/session-slice.ts';
import { selectProcessFilter } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { processColor } from './process-color.ts';
import { shortCommand } from './run-text.ts';
import './processes.css';

/** Shift+P: show only the next program's process, and after the last one every process again. */
export function ProcessFilterShortcut() {
  const store = useStoreApi();
  const hasRuns = useAppStore((state) => currentRuns(selectRuns(state)).length > 0);
  useShortcut(
    { key: 'P', shift: true, label: 'processes.keys.next', group: 'shell.help.groups.views' },
    () => {
      const state = store.getState();
      state.setProcessFilter(
        nextProcessFilter(
          currentRuns(selectRuns(state)).map((run) => run.pid),
          state.processFilter,
        ),
      );
    },
    hasRuns,
  );
  return null;
}

/**
 * "Showing process N — show all", above every view while the process filter is set: the filter
 * narrows the log, the address space, host buffers and copies, and dims the page map, so a person
 * must always see that it is on and have one click (or Shift+P) to turn it off.
 */
export function ProcessFilterChip() {
  const { t } = useTranslation();
  const filter = useAppStore(selectProcessFilter);
  const run = useAppStore((state) => currentRuns(selectRuns(state)).find((item) => item.pid === filter));
  const setFilter = useAppStore((state) => state.setProcessFilter);
  if (filter === undefined) return null;
  return (
    <p className="process-filter-chip" data-testid="process-filter-chip" data-pid={filter} role="status">
      <span className="process-swatch" style={{ background: processColor(filter) }} aria-hidden="true" />
      <span>
        {run === undefined
          ? t('processes.chip.showing', { pid: filter })
          : t('processes.chip.showingRun', { pid: filter, command: shortCommand(run.command) })}
      </span>
      <button type="button" className="link" onClick={() => setFilter(undefined)} data-testid="process-filter-clear">
        {t('processes.chip.showAll')}
      </button>
    </p>
  );
}
