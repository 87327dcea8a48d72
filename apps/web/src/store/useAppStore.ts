import { useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState } from './app-store.ts';
import { StoreContext } from './StoreProvider.tsx';

/** Reads the app store through a named selector; re-renders only when the selected value changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (store === null) throw new Error('useAppStore must be used inside <StoreProvider>');
  return useStore(store, selector);
}
