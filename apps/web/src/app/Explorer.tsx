import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionsPanel } from '../components/actions/ActionsPanel.tsx';
import { ImportBanner } from '../components/import/ImportBanner.tsx';
import { ImportFacts } from '../components/import/ImportFacts.tsx';
import { Inspector } from '../components/inspector/Inspector.tsx';
import { DeviceOverview } from '../components/overview/DeviceOverview.tsx';
import { SharedLinkOpener } from '../components/playground/SharedLinkOpener.tsx';
import { TimeTravelBar } from '../components/time-travel/TimeTravelBar.tsx';
import { useShortcut } from '../hooks/shortcuts.ts';
import { codedParts } from '../i18n/useCodedText.ts';
import { selectImported } from '../store/import-slice.ts';
import { selectSession } from '../store/session-slice.ts';
import { selectView, VIEWS, type ViewId } from '../store/ui-slice.ts';
import { useAppStore } from '../store/useAppStore.ts';
import { prefetchViews, VIEW_COMPONENTS } from './views.tsx';

function ViewShortcut({ view, index }: { view: ViewId; index: number }) {
  const setView = useAppStore((state) => state.setView);
  useShortcut({ key: String(index + 1), label: `shell.help.keys.view${index + 1}`, group: 'shell.help.groups.views' }, () => setView(view));
  return null;
}

/** The explorer once connected: overview and actions left, views center, inspector right, time bar below. */
/** Keeps the chosen tab in sight when the tab strip scrolls (narrow windows, keys 1–6). */
function revealTab(tab: HTMLButtonElement | null): void {
  tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

export function Explorer() {
  const { t } = useTranslation();
  const view = useAppStore(selectView);
  const setView = useAppStore((state) => state.setView);
  const session = useAppStore(selectSession);
  const ready = useAppStore((state) => state.timeline !== undefined);
  const imported = useAppStore(selectImported);
  // Once the first view has painted, fetch the others while the page is idle.
  useEffect(() => {
    if (!ready) return undefined;
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(prefetchViews, { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(prefetchViews, 500);
    return () => window.clearTimeout(timer);
  }, [ready]);
  const View = VIEW_COMPONENTS[view];
  return (
    <div className="explorer" data-ready={ready}>
      <SharedLinkOpener />
      {VIEWS.map((id, index) => (
        <ViewShortcut key={id} view={id} index={index} />
      ))}
      <aside className="column left">
        <DeviceOverview />
        {imported === undefined ? <ActionsPanel /> : <ImportFacts facts={imported} />}
      </aside>
      <section className="column center">
        {imported !== undefined ? (
          <ImportBanner facts={imported} />
        ) : (
          <p className={`provenance-banner provenance-${session?.host.provenance ?? 'simulated'}`} data-testid="provenance-banner">
            {t(session?.host.provenance === 'observed' ? 'shell.observedBanner' : 'shell.simulatedBanner')}
            {session?.host.note !== undefined && (
              <span className="muted" data-testid="host-note">
                {' '}
                {codedParts(t, session.host.noteParts, session.host.note)}
              </span>
            )}
          </p>
        )}
        <div className="tabs view-tabs" aria-label={t('shell.viewsLabel')} role="tablist">
          {VIEWS.map((id, index) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={view === id}
              ref={view === id ? revealTab : undefined}
              onClick={() => setView(id)}
              data-testid={`tab-${id}`}
              title={`${t(`shell.views.${id}`)} (${index + 1})`}
            >
              {t(`shell.tabs.${id}`)}
            </button>
          ))}
        </div>
        <div className="view-body" role="tabpanel">
          {ready ? (
            <Suspense fallback={<p className="muted">{t('shell.loading')}</p>}>
              <View />
            </Suspense>
          ) : (
            <p className="muted">{t('shell.loading')}</p>
          )}
        </div>
      </section>
      <aside className="column right">
        <Inspector />
      </aside>
      <footer className="time-bar">
        <TimeTravelBar />
      </footer>
    </div>
  );
}
