import { useTranslation } from 'react-i18next';
import { useReasonText } from '../../i18n/useReasonText.ts';
import type { MallocPreview } from '../../model/actions/malloc-preview.ts';
import { bytes, exactBytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';

/** The decision before the call: rounding, pages, occupied, waste, and the reasons with their rule IDs. */
export function MallocPreviewView({ preview }: { preview: MallocPreview }) {
  const { t } = useTranslation();
  const format = useFormat();
  const reasonText = useReasonText();
  if (!preview.ok) {
    return (
      <section className="act-preview act-preview-bad" aria-label={t('actions.preview.title')} data-testid="malloc-preview">
        <p className="act-label">{t('actions.preview.refuse', { name: preview.retName, code: preview.ret })}</p>
        <ul className="act-reasons">
          {preview.reasons.map((reason) => (
            <li key={reason.code}>{reasonText(reason, true)}</li>
          ))}
        </ul>
      </section>
    );
  }
  const pageClass = t(`actions.pageClass.${preview.pageClass}`);
  const { free, needed, source } = preview.pool;
  return (
    <section className="act-preview" aria-label={t('actions.preview.title')} data-testid="malloc-preview">
      <dl className="act-grid">
        <dt>{t('actions.preview.padded')}</dt>
        <dd className="mono">{exactBytes(preview.padded)}</dd>
        <dt>{t('actions.preview.pages')}</dt>
        <dd>{t('actions.preview.pagesValue', { pages: preview.pages, pageSize: bytes(preview.pageSize, format), pageClass })}</dd>
        <dt>{t('actions.preview.occupied')}</dt>
        <dd>
          {bytes(preview.occupied, format)}
          {preview.count > 1 && (
            <span className="muted">
              {' '}
              · {t('actions.preview.total', { count: preview.count })} {bytes(preview.occupied * preview.count, format)}
            </span>
          )}
        </dd>
        <dt>{t('actions.preview.waste')}</dt>
        <dd className="mono">{exactBytes(preview.waste)}</dd>
      </dl>
      <ul className="act-reasons">
        {preview.reasons.map((reason) => (
          <li key={reason.code}>{reasonText(reason, true)}</li>
        ))}
      </ul>
      {free === undefined ? (
        <p className="act-note" data-testid="malloc-pool">
          {t('actions.preview.noReading')}
        </p>
      ) : (
        <p
          className={`act-note${source === 'modeled' ? ' hatch-note' : ''}`}
          title={t(`actions.preview.${source}Note`)}
          data-testid="malloc-pool"
          data-source={source}
        >
          {t('actions.preview.free', { pageClass, free, needed })}{' '}
          <span className={`provenance provenance-${source}`}>{t(`common.provenance.${source}`)}</span>
        </p>
      )}
      {preview.willFallBack && (
        <p className="act-note act-warn" data-testid="malloc-verdict" data-verdict="fallback">
          {t('actions.preview.fallback')}
        </p>
      )}
      {preview.willFail && (
        <p className="act-note act-warn" data-testid="malloc-verdict" data-verdict="fail">
          {preview.fallbackPool?.free === undefined
            ? t('actions.preview.short', { pageClass })
            : t('actions.preview.fallbackShort', {
                pageClass,
                fallbackClass: t(`actions.pageClass.${preview.fallbackPool.pageClass}`),
                free: preview.fallbackPool.free,
                needed: preview.fallbackPool.needed,
              })}
        </p>
      )}
    </section>
  );
}
