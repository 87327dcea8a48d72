import { useTranslation } from 'react-i18next';
import { useFileActions } from '../../store/ImportContext.tsx';
import { useAppStore } from '../../store/useAppStore.ts';

/** "Export to Perfetto" in the header: the imported file or the live session as Chrome trace-event JSON, downloaded. */
export function ExportPerfettoButton() {
  const { t } = useTranslation();
  const files = useFileActions();
  const hasTimeline = useAppStore((state) => state.timeline !== undefined);
  const exporting = useAppStore((state) => state.exporting);
  const imported = useAppStore((state) => state.imported !== undefined);
  if (!hasTimeline) return null;
  if (exporting !== undefined) {
    const percent = exporting.total > 0 ? Math.min(100, Math.floor((exporting.bytesRead / exporting.total) * 100)) : undefined;
    return (
      <button
        type="button"
        onClick={files.cancelExport}
        title={t('fileImport.export.cancel')}
        data-testid="export-perfetto"
        data-state="running"
      >
        {percent === undefined ? t('fileImport.export.running') : t('fileImport.export.percent', { percent })}
      </button>
    );
  }
  return (
    <button
      type="button"
      onClick={files.exportPerfetto}
      title={t(imported ? 'fileImport.export.titleFile' : 'fileImport.export.titleSession')}
      data-testid="export-perfetto"
      data-state="idle"
    >
      {t('fileImport.export.label')}
    </button>
  );
}
