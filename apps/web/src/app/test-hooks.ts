import { shortcuts } from '../hooks/shortcuts.ts';
import type { AppStore } from '../store/app-store.ts';
import type { AgentActions } from '../store/ClientContext.tsx';

/**
 * What browser tests (and curious developers) can reach from the console: the store and the agent
 * actions. Tests wait on meaning through these (`idle()`), never on sleeps.
 */
export interface PageLensHooks {
  readonly store: AppStore;
  readonly agent: AgentActions;
  /** Resolves when no call is pending, the replica holds the live state and the views have been told of it. */
  idle(): Promise<void>;
  /** Keys bound twice among the shortcuts mounted now (must stay empty). */
  shortcutConflicts(): string[];
}

declare global {
  interface Window {
    __pagelens?: PageLensHooks;
  }
}

export function installTestHooks(target: Window, store: AppStore, agent: AgentActions): void {
  target.__pagelens = {
    store,
    agent,
    shortcutConflicts: () => shortcuts.conflicts(),
    idle: () =>
      new Promise((resolve) => {
        const check = (): boolean => {
          const state = store.getState();
          return state.pending === 0 && state.timeline !== undefined && !state.hasUnpublished();
        };
        if (check()) {
          resolve();
          return;
        }
        const unsubscribe = store.subscribe(() => {
          if (!check()) return;
          unsubscribe();
          resolve();
        });
      }),
  };
}
