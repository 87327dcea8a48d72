import { useTranslation } from 'react-i18next';

/** PT-3: TLB geometry is never a fact; say so wherever it is used. */
export function AssumedBadge() {
  const { t } = useTranslation();
  return (
    <span className="provenance provenance-modeled tlb-badge" title={t('tlb.assumedTip')} data-testid="tlb-assumed">
      {t('tlb.assumed')}
    </span>
  );
}

/** PTE counts, reach and coverage are PageLens's derivations (PT-1, PT-2 inferred, PT-3). */
export function ModeledBadge() {
  const { t } = useTranslation();
  return (
    <span className="provenance provenance-modeled tlb-badge" title={t('tlb.modeledTip')}>
      {t('common.provenance.modeled')}
    </span>
  );
}
