import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Inspector } from '../components/inspector/Inspector.tsx';
import { LessonsPanel } from '../components/lessons/LessonsPanel.tsx';
import { ShortcutScopeContext, useShortcut } from '../hooks/shortcuts.ts';
import { selectSelection } from '../store/selection-slice.ts';
import { BESIDE_VIEWS, type BesideView } from '../store/ui-slice.ts';
import { useAppStore } from '../store/useAppStore.ts';
import { useStoreApi } from '../store/useStoreApi.ts';
import { VIEW_COMPONENTS } from './views.tsx';
import './split.css';

function Loading() {
  const { t } = useTranslation();
  return <p className="muted split-loading">{t('shell.loading')}</p>;
}

/** The next view beside the code, in tab order, wrapping round. */
export function nextBeside(current: BesideView): BesideView {
  return BESIDE_VIEWS[(BESIDE_VIEWS.indexOf(current) + 1) % BESIDE_VIEWS.length] ?? current;
}

/**
 * The memory view beside the code, picked from its own tab strip (or `v`). It is the same view as
 * in its centre tab, reading the same store, so it follows each step of the code. Its keys give way
 * to the playground's where both take one (`g`, `r`): the code is what is being driven.
 */
function BesidePane({ inspectorOver }: { inspectorOver: boolean }) {
  const { t } = useTranslation();
  const selected = useAppStore(selectSelection) !== undefined;
  const beside = useAppStore((state) => state.besideCode);
  const setPrefs = useAppStore((state) => state.setPrefs);
  const store = useStoreApi();
  useShortcut({ key: 'v', label: 'shell.help.keys.nextBeside', group: 'shell.help.groups.views' }, () =>
    setPrefs({ besideCode: nextBeside(store.getState().besideCode) }),
  );
  const View = VIEW_COMPONENTS[beside];
  return (
    <section className="split-beside" data-testid="split-beside" data-view={beside} aria-label={t('shell.split.besideLabel')}>
      <div className="tabs split-tabs" role="tablist" aria-label={t('shell.split.besideLabel')}>
        {BESIDE_VIEWS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={beside === id}
            onClick={() => setPrefs({ besideCode: id })}
            data-testid={`beside-tab-${id}`}
            title={`${t(`shell.views.${id}`)} (v)`}
          >
            {t(`shell.tabs.${id}`)}
          </button>
        ))}
      </div>
      <div className="split-beside-body" role="tabpanel">
        <div className="split-beside-scroll">
          <ShortcutScopeContext.Provider value="yield">
            <Suspense fallback={<Loading />}>
              <View />
            </Suspense>
          </ShortcutScopeContext.Provider>
        </div>
        {inspectorOver && selected && (
          <aside className="split-inspector" data-testid="split-inspector">
            <Inspector />
          </aside>
        )}
      </div>
    </section>
  );
}

/**
 * The playground with its code on the left and a memory view on the right, for stepping code while
 * the page map (or the address space, the log…) changes beside it. `inspectorOver`: the explorer has
 * no inspector column, so a selection's inspector lies over the memory view (Esc or its ✕ close it).
 */
export function PlaygroundSplit({ inspectorOver }: { inspectorOver: boolean }) {
  const { t } = useTranslation();
  const Playground = VIEW_COMPONENTS.playground;
  return (
    <div className="split" data-testid="split-view">
      <section className="split-code" aria-label={t('shell.split.codeLabel')}>
        {/* Without an inspector column the lessons sit above the code: the step beside the code it asks for. */}
        {/* The code scrolls on its own, so stepping (which scrolls to the current line) never hides the lesson. */}
        {inspectorOver && <LessonsPanel />}
        <div className="split-code-scroll">
          <Suspense fallback={<Loading />}>
            <Playground />
          </Suspense>
        </div>
      </section>
      <BesidePane inspectorOver={inspectorOver} />
    </div>
  );
}
