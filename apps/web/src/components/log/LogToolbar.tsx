import { formatInteger } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { type CallFilter, isFiltering, NO_FILTER } from '../../model/log/call-filter.ts';
import { NameOptions } from '../common/NameOptions.tsx';

export interface LogToolbarProps {
  readonly filter: CallFilter;
  readonly onFilter: (filter: CallFilter) => void;
  readonly fns: readonly string[];
  readonly errors: readonly string[];
  readonly shown: number;
  readonly total: number;
  /** An imported session: the recording's stack-frame filter, edited here too. */
  readonly stackText?: string;
  readonly onStackText?: (text: string) => void;
}

/** Function, result and text filters, with how many calls they let through. */
export function LogToolbar({ filter, onFilter, fns, errors, shown, total, stackText, onStackText }: LogToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className="log-toolbar">
      <label>
        <span className="visually-hidden">{t('log.filter.function')}</span>
        <select value={filter.fn} onChange={(event) => onFilter({ ...filter, fn: event.target.value })} data-testid="log-filter-fn">
          <option value="">{t('log.filter.allFunctions')}</option>
          <NameOptions names={fns} />
        </select>
      </label>
      <label>
        <span className="visually-hidden">{t('log.filter.result')}</span>
        <select
          value={filter.result}
          onChange={(event) => onFilter({ ...filter, result: event.target.value })}
          data-testid="log-filter-result"
        >
          <option value="all">{t('log.filter.allResults')}</option>
          <option value="ok">{t('log.filter.ok')}</option>
          <option value="error">{t('log.filter.errors')}</option>
          <NameOptions names={errors} />
        </select>
      </label>
      <input
        type="search"
        className="log-search"
        value={filter.text}
        placeholder={t('log.filter.textPlaceholder')}
        aria-label={t('log.filter.text')}
        onChange={(event) => onFilter({ ...filter, text: event.target.value })}
        data-testid="log-filter-text"
      />
      {onStackText !== undefined && (
        <input
          type="search"
          className="log-search"
          value={stackText ?? ''}
          placeholder={t('log.filter.stackPlaceholder')}
          aria-label={t('log.filter.stack')}
          title={t('log.filter.stackTitle')}
          onChange={(event) => onStackText(event.target.value)}
          data-testid="log-filter-stack"
        />
      )}
      <span className="log-count muted" data-testid="log-count">
        {isFiltering(filter)
          ? t('log.countFiltered', { shown: formatInteger(shown), total: formatInteger(total) })
          : t('log.count', { count: total, total: formatInteger(total) })}
      </span>
      {isFiltering(filter) && (
        <button type="button" onClick={() => onFilter(NO_FILTER)}>
          {t('log.filter.clear')}
        </button>
      )}
    </div>
  );
}
