import { useTranslation } from 'react-i18next';
import type { ImportedFacts } from '../../model/import/import-protocol.ts';

function bannerKey(format: ImportedFacts['format']) {
  if (format === 'pytorch_cuda') return 'fileImport.bannerWhatIf';
  return format === 'msmemscope' ? 'fileImport.bannerMemScope' : 'fileImport.bannerModeled';
}

/** Above the views of an imported file: which file, which writer, read-only, and that the pages are modeled. */
export function ImportBanner({ facts }: { facts: ImportedFacts }) {
  const { t } = useTranslation();
  return (
    <p className="provenance-banner provenance-modeled import-banner" data-testid="import-banner" data-format={facts.format}>
      {t('fileImport.banner', { name: facts.name, format: t(`fileImport.format.${facts.format}`) })}
      {' · '}
      <strong data-testid="import-banner-modeled">{t(bannerKey(facts.format), { profile: facts.profile })}</strong>
    </p>
  );
}
