import { useTranslation } from 'react-i18next';
import type { ImportedFacts } from '../../model/import/import-protocol.ts';
import { selectImporting } from '../../store/import-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

function bannerKey(format: ImportedFacts['format']) {
  if (format === 'pytorch_cuda') return 'fileImport.bannerWhatIf';
  return format === 'msmemscope' ? 'fileImport.bannerMemScope' : 'fileImport.bannerModeled';
}

/**
 * Above the views of an imported file: which file, which writer, read-only, and that the pages are
 * modeled. In the segments-first view it says that only the final state is shown, and whether the
 * trace is still being read or its reading was cancelled.
 */
export function ImportBanner({ facts }: { facts: ImportedFacts }) {
  const { t } = useTranslation();
  const reading = useAppStore(selectImporting) !== undefined;
  const segmentsOnly = facts.segmentsOnly === true;
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
          <em data-testid="import-segments-only">{t(reading ? 'fileImport.segmentsOnlyReading' : 'fileImport.segmentsOnlyCancelled')}</em>
        </>
      )}
    </p>
  );
}
