import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionsPanel } from '../components/actions/ActionsPanel.tsx';
import { ImportBanner } from '../components/import/ImportBanner.tsx';
import { ImportFacts } from '../components/import/ImportFacts.tsx';
import { TraceSummaryPanel } from '../components/import/TraceSummaryPanel.tsx';
import { Inspector } from '../components/inspector/Inspector.tsx';
import { LessonsPanel } from '../components/lessons/LessonsPanel.tsx';
import { DeviceOverview } from '../components/overview/DeviceOverview.tsx';
import { SharedLinkOpener } from '../components/playground/SharedLinkOpener.tsx';
import { ProcessesPanel } from '../components/processes/ProcessesPanel.tsx';
import { ProcessFilterChip, ProcessFilterShortcut } from '../components/processes/ProcessFilterChip.tsx';
import { TimeTravelBar } from '../components/time-travel/TimeTravelBar.tsx';
import { ShortcutScopeContext, useShortcut } from '../hooks/shortcuts.ts';
import { codedParts } from '../i18n/useCodedText.ts';
import { selectImported } from '../store/import-slice.ts';
import { selectSession } from '../store/session-slice.ts';
import { selectView, VIEWS, type ViewId } from '../store/ui-slice.ts';
import { useAppStore } from '../store/useAppStore.ts';
import { useStoreApi } from '../store/useStoreApi.ts';
import { explorerLayout, sideColumns, useWideWindow } from './layout-mode.ts';
import { PlaygroundSplit } from './PlaygroundSplit.tsx';
import { prefetchViews, VIEW_COMPONENTS } from './views.tsx';

function ViewShortcut({ view, index }: { view: ViewId; index: number }) {
  const setView = useAppStore((state) => state.setView);
  useShortcut({ key: String(index + 1), label: `shell.help.keys.view${index + 1}`, group: 'shell.help.groups.views' }, () => setView(view));
  return null;
}

/**
 * `s`: the playground's code beside a memory view, or the playground alone. From another view it
 * opens the playground beside memory, which is what a person pressing it there is after.
 */
function SplitShortcut() {
  const store = useStoreApi();
  useShortcut({ key: 's', label: 'shell.help.keys.split', group: 'shell.help.groups.views' }, () => {
    const state = store.getState();
    if (state.view !== 'playground') {
      state.setView('playground');
      state.setPrefs({ playgroundLayout: 'split' });
    } else state.setPrefs({ playgroundLayout: state.playgroundLayout === 'split' ? 'tab' : 'split' });
  });
  return null;
}

/** The on/off button for the split, beside the view tabs while the playground is shown. */
function SplitToggle() {
  const { t } = useTranslation();
  const split = useAppStore((state) => state.playgroundLayout === 'split');
  const setPrefs = useAppStore((state) => state.setPrefs);
  return (
    <button
      type="button"
      className="split-toggle"
      aria-pressed={split}
      data-testid="split-toggle"
      title={t('shell.split.toggleTitle')}
      onClick={() => setPrefs({ playgroundLayout: split ? 'tab' : 'split' })}
    >
      {t('shell.split.toggle')}
    </button>
  );
}

/** Keeps the chosen tab in sight when the tab strip scrolls (narrow windows, keys 1–6). */
function revealTab(tab: HTMLButtonElement | null): void {
  tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

/** The explorer once connected: overview and actions left, views center, inspector right, time bar below. */
export function Explorer() {
  const { t } = useTranslation();
  const view = useAppStore(selectView);
  const layout = explorerLayout(
    view,
    useAppStore((state) => state.playgroundLayout),
    useWideWindow(),
    useAppStore((state) => state.lessonPanel.open),
  );
  const sides = sideColumns(layout);
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
    <div className="explorer" data-ready={ready} data-layout={layout}>
      <SharedLinkOpener />
      <SplitShortcut />
      <ProcessFilterShortcut />
      {VIEWS.map((id, index) => (
        <ViewShortcut key={id} view={id} index={index} />
      ))}
      {/* Hidden rather than unmounted in the split, so a selection or a step never loses the panel's state. */}
      <aside className="column left" hidden={!sides.left}>
        <ShortcutScopeContext.Provider value={sides.left ? 'own' : 'off'}>
          <DeviceOverview />
          {imported === undefined && <ProcessesPanel />}
          {imported === undefined ? <ActionsPanel /> : <ImportFacts facts={imported} />}
        </ShortcutScopeContext.Provider>
      </aside>
      <section className="column center">
        {imported !== undefined ? (
          <>
            <ImportBanner facts={imported} />
            {imported.traceSummary !== undefined && <TraceSummaryPanel summary={imported.traceSummary} />}
          </>
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
        <div className="view-strip">
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
          {view === 'playground' && <SplitToggle />}
          <ProcessFilterChip />
        </div>
        <div className="view-body" role="tabpanel">
          {ready && layout !== 'tabs' && <PlaygroundSplit inspectorOver={sides.inspector === 'overlay'} />}
          {ready && layout === 'tabs' && (
            <Suspense fallback={<p className="muted">{t('shell.loading')}</p>}>
              <View />
            </Suspense>
          )}
          {!ready && <p className="muted">{t('shell.loading')}</p>}
        </div>
      </section>
      {sides.inspector === 'column' && (
        <aside className="column right">
          {/* Guided lessons (Shift+L), above the inspector: the centre stays free for the views they point at. */}
          <LessonsPanel />
          <Inspector />
        </aside>
      )}
      <footer className="time-bar">
        <TimeTravelBar />
      </footer>
    </div>
  );
}
