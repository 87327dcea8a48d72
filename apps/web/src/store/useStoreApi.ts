import { useContext } from 'react';
import type { AppStore } from './app-store.ts';
import { StoreContext } from './StoreProvider.tsx';

/** The store itself, for event handlers that read state when they run (no re-render subscription). */
export function useStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (store === null) throw new Error('useStoreApi must be used inside <StoreProvider>');
  return store;
}
