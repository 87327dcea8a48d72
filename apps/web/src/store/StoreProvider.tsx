import { createContext, type ReactNode } from 'react';
import type { AppStore } from './app-store.ts';

export const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}
