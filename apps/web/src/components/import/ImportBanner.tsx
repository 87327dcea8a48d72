import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import type { ImportedFacts } from '../../model/import/import-protocol.ts';
import { SUMMARIZE_ABOVE_BYTES } from '../../model/import/import-snapshot.ts';
import { useFormat } from '../../store/hooks.ts';
import { selectImporting, selectImportProblem } from '../../store/import-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

function bannerKey(format: ImportedFacts['format']) {
  if (format === 'pytorch_cuda') return 'fileImport.bannerWhatIf';
  return format === 'msmemscope' ? 'fileImport.bannerMemScope' : 'fileImport.bannerModeled';
}

/**
 * Above the views of an imported file: which file, which writer, read-only, and that the pages are
 * modeled. In the segments-first view it says that only the final state is shown, and whether the
 * trace is still being read, was summarised, could not be read (a damaged file), or was cancelled.
 */
export function ImportBanner({ facts }: { facts: ImportedFacts }) {
  const { t } = useTranslation();
  const reading = useAppStore(selectImporting) !== undefined;
  // The trace broke after the segments were shown: they stay (they read whole), the error says where.
  const failed = useAppStore(selectImportProblem)?.name === facts.name;
  const segmentsOnly = facts.segmentsOnly === true;
  const format = useFormat();
  const segmentsOnlyText = (): string => {
    if (facts.traceSummary !== undefined) {
      return t('fileImport.segmentsOnlySummarised', {
        entries: facts.traceSummary.entries.toLocaleString('en-US'),
        limit: bytes(SUMMARIZE_ABOVE_BYTES, format),
      });
    }
    if (reading) return t('fileImport.segmentsOnlyReading');
    return t(failed ? 'fileImport.segmentsOnlyFailed' : 'fileImport.segmentsOnlyCancelled');
  };
  return (
    <p
      className="provenance-banner provenance-modeled import-banner"
      data-testid="import-banner"
      data-format={facts.format}
      data-import-phase={segmentsOnly ? 'preview' : 'complete'}
    >
      {t('fileImport.banner', { name: facts.name, format: t(`fileImport.format.${facts.format}`) })}
      {' · '}
      <strong data-testid="import-banner-modeled">{t(bannerKey(facts.format), { profile: facts.profile })}</strong>
      {segmentsOnly && (
        <>
          {' · '}
          <em data-testid="import-segments-only">{segmentsOnlyText()}</em>
        </>
      )}
    </p>
  );
}
