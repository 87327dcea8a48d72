import { useTranslation } from 'react-i18next';
import { selectImporting, selectImportProblem } from '../../store/import-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { OpenFileButton } from './OpenFileButton.tsx';

/**
 * `pagelens open` with nothing left on show (a profiler CSV closed, a failed file dismissed): there
 * is no agent session behind the page, so it says how to open another file instead of going blank.
 */
export function NothingOpen() {
  const { t } = useTranslation();
  const empty = useAppStore(
    (state) =>
      state.agentFile !== undefined &&
      state.timeline === undefined &&
      state.profilerCsv === undefined &&
      selectImporting(state) === undefined &&
      selectImportProblem(state) === undefined,
  );
  if (!empty) return null;
  return (
    <section className="panel import-status" data-testid="nothing-open" aria-labelledby="nothing-open-title">
      <h2 id="nothing-open-title">{t('fileImport.nothingOpen.title')}</h2>
      <p className="muted">{t('fileImport.nothingOpen.body')}</p>
      <OpenFileButton shortcut={false} />
    </section>
  );
}
