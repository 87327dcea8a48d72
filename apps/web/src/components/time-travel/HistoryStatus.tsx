import { formatInteger } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import type { Timeline } from '../../model/timeline.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/**
 * Where the history the time bar reaches starts: "loading history 40 %" while the agent's pages of
 * what happened before this client joined arrive, and "history from call N" when the agent's cap
 * (or this page's own) left earlier calls out.
 */
export function HistoryStatus({ timeline }: { readonly timeline: Timeline }) {
  const { t } = useTranslation();
  const history = useAppStore((state) => state.history);
  if (history !== undefined) {
    const percent = history.total === 0 ? 100 : Math.floor((100 * history.received) / history.total);
    return (
      <span
        className="tt-history muted"
        role="status"
        data-testid="tt-history"
        data-loading="true"
        title={t('timeTravel.historyLoadingTitle', { received: formatInteger(history.received), total: formatInteger(history.total) })}
      >
        {t('timeTravel.historyLoading', { percent })}
      </span>
    );
  }
  if (timeline.callsBefore === 0) return null;
  return (
    <span className="tt-history muted" data-testid="tt-history" data-loading="false" title={t('timeTravel.historyFromTitle')}>
      {t('timeTravel.historyFrom', { call: formatInteger(timeline.callsBefore + 1) })}
    </span>
  );
}
