import type { FollowRun } from '@pagelens/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { type FollowMode, selectFollowMode } from '../../store/follow-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { followedDoc } from './follow-wire.ts';
import { usePlaygroundController } from './usePlayground.ts';
import './follow.css';

/** Where the driver's run stands, in the playground's own words where it has them. */
export function followStatusText(t: TFunction, run: FollowRun): string {
  switch (run.status) {
    case 'idle':
      return t('follow.status.idle');
    case 'ready':
      return t('playground.status.ready');
    case 'running':
      return t('follow.status.running');
    case 'paused':
      return t('playground.status.paused', { line: run.line });
    case 'finished':
      return t('playground.status.finished');
    case 'error': {
      const error = run.error;
      if (error === undefined || error.line === 0) return t('playground.status.errorNoLine');
      return t(error.inSetup ? 'playground.status.errorSetup' : 'playground.status.error', { line: error.line });
    }
  }
}

function Message({ mode }: { mode: Exclude<FollowMode, 'driving'> }) {
  const { t } = useTranslation();
  const label = useAppStore((s) => s.driverLabel);
  const driverRun = useAppStore((s) => s.driverPlayground?.run);
  switch (mode) {
    case 'following':
      return (
        <span className="pl-follow-text">
          <strong>{t('follow.following', { driver: label ?? t('follow.theDriver') })}</strong>{' '}
          <span className="muted">{t('follow.followingHint')}</span>
        </span>
      );
    case 'waiting':
      return <span className="pl-follow-text">{t('follow.waiting')}</span>;
    case 'detached':
      return (
        <span className="pl-follow-text">
          {t('follow.detached')}
          {driverRun !== undefined && (
            <>
              {' '}
              <span className="muted" data-testid="pl-follow-driver-status">
                {t('follow.detachedWhere', { status: followStatusText(t, driverRun) })}
              </span>
            </>
          )}
        </span>
      );
  }
}

/**
 * A viewer's bar above the playground: whom it follows, and the one button (and key) that detaches
 * from the driver or follows again. Nothing for the driver.
 */
export function FollowBar() {
  const { t, i18n } = useTranslation();
  const store = useStoreApi();
  const controller = usePlaygroundController();
  const mode = useAppStore(selectFollowMode);
  const detached = mode === 'detached';
  const toggle = () => {
    const state = store.getState();
    if (!state.following) {
      state.followAgain();
      return;
    }
    // Exploring starts where the driver is: its document becomes this page's own, to read and change freely.
    const driver = state.driverPlayground;
    if (driver !== null) {
      const doc = followedDoc(driver.doc, i18n.language === 'zh' ? 'zh' : 'en');
      controller.open(doc, driver.doc.kind === 'scenario' ? { kind: 'builtin', id: driver.doc.id } : { kind: 'new' });
    }
    state.detach();
  };
  useShortcut({ key: 'e', label: 'follow.key', group: 'playground.keys.group' }, toggle, mode !== 'driving');
  if (mode === 'driving') return null;
  return (
    <div className={`pl-follow pl-follow-${mode}`} data-testid="pl-follow" data-mode={mode} role="status" aria-label={t('follow.label')}>
      <Message mode={mode} />
      <button
        type="button"
        className="pl-button pl-follow-button"
        onClick={toggle}
        title={t(detached ? 'follow.followAgainHint' : 'follow.detachHint')}
        aria-keyshortcuts="e"
        data-testid={detached ? 'pl-follow-again' : 'pl-detach'}
      >
        {t(detached ? 'follow.followAgain' : 'follow.detach')} <kbd>e</kbd>
      </button>
    </div>
  );
}
