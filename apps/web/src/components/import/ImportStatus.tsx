import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { useFileActions } from '../../store/ImportContext.tsx';
import { selectImporting, selectImportProblem } from '../../store/import-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import './import.css';

/** Where a reader broke: a byte of a pickle, a line of a CSV (the CSV readers' `at` is the 1-based line). */
function atKey(name: string): 'fileImport.at' | 'fileImport.atLine' {
  return /\.csv$/i.test(name) ? 'fileImport.atLine' : 'fileImport.at';
}

/** While a file is read: its progress (bytes read) and Cancel. After a failure: the reader's message. */
export function ImportStatus() {
  const { t } = useTranslation();
  const progress = useAppStore(selectImporting);
  const problem = useAppStore(selectImportProblem);
  const imported = useAppStore((state) => state.imported);
  const setProblem = useAppStore((state) => state.setImportProblem);
  const exportProblem = useAppStore((state) => state.exportProblem);
  const setExportProblem = useAppStore((state) => state.setExportProblem);
  const tooLarge = useAppStore((state) => state.exportTooLarge);
  const setTooLarge = useAppStore((state) => state.setExportTooLarge);
  const files = useFileActions();
  const format = useFormat();
  if (progress !== undefined) {
    const done = progress.total > 0 && progress.bytesRead >= progress.total;
    return (
      <section className="panel import-status" data-testid="import-progress" aria-live="polite">
        <h2>{t('fileImport.reading', { name: progress.name })}</h2>
        <progress
          max={Math.max(1, progress.total)}
          value={progress.bytesRead}
          aria-label={t('fileImport.reading', { name: progress.name })}
        />
        <p className="muted">
          {done
            ? t('fileImport.modeling')
            : t('fileImport.progress', { read: bytes(progress.bytesRead, format), total: bytes(progress.total, format) })}
        </p>
        <button type="button" onClick={files.cancel} data-testid="import-cancel">
          {t('fileImport.cancel')}
        </button>
      </section>
    );
  }
  if (exportProblem !== undefined && problem === undefined) {
    return (
      <section className="panel import-status state-error" role="alert" data-testid="export-error">
        <h2>{t('fileImport.export.failed')}</h2>
        <p>
          <code>{exportProblem}</code>
        </p>
        <button type="button" onClick={() => setExportProblem(undefined)}>
          {t('fileImport.dismiss')}
        </button>
      </section>
    );
  }
  if (tooLarge !== undefined && problem === undefined) {
    return (
      <section className="panel import-status" role="status" data-testid="export-too-large">
        <h2>{t('fileImport.export.tooLarge.title', { name: tooLarge.name, size: bytes(tooLarge.bytes, format) })}</h2>
        <p>{t('fileImport.export.tooLarge.body')}</p>
        <p>
          <code>trace_processor --httpd {tooLarge.name}</code>
        </p>
        <p className="muted">
          <a href="https://perfetto.dev/docs/visualization/large-traces" target="_blank" rel="noreferrer">
            {t('fileImport.export.tooLarge.source')}
          </a>
        </p>
        <button type="button" onClick={() => setTooLarge(undefined)}>
          {t('fileImport.dismiss')}
        </button>
      </section>
    );
  }
  if (problem === undefined) return null;
  // The file's segments read whole and are on show (the segments-first view): only its trace broke.
  const keptFinalState = imported?.segmentsOnly === true && imported.name === problem.name;
  return (
    <section className="panel import-status state-error" role="alert" data-testid="import-error">
      <h2>{t(keptFinalState ? 'fileImport.traceFailed' : 'fileImport.failed', { name: problem.name })}</h2>
      <p>
        <code data-testid="import-error-message">{problem.message}</code>
      </p>
      {problem.at !== undefined && <p className="muted">{t(atKey(problem.name), { at: problem.at.toLocaleString('en-US') })}</p>}
      <button type="button" onClick={() => setProblem(undefined)}>
        {t('fileImport.dismiss')}
      </button>
    </section>
  );
}
