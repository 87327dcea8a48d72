import { useSyncExternalStore } from 'react';

/**
 * A tiny store for this view's own UI state (chosen section, simulator form and last run), kept at
 * module level so it survives switching to another tab and back. Not replicated, not shared.
 */
export interface LocalStore<T> {
  get(): T;
  set(next: T): void;
  update(patch: Partial<T>): void;
  subscribe(listener: () => void): () => void;
}

export function createLocalStore<T extends object>(initial: T): LocalStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  const set = (next: T): void => {
    if (Object.is(next, value)) return;
    value = next;
    for (const listener of listeners) listener();
  };
  return {
    get: () => value,
    set,
    update: (patch) => set({ ...value, ...patch }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export function useLocalStore<T extends object>(store: LocalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
