import { createContext, useContext } from 'react';

/**
 * Whether the form around is on the visible tab. Hidden forms stay mounted (so typing survives a
 * tab switch) but skip rebuilding their object lists on every replica change.
 */
export const TabActive = createContext(true);

export function useTabActive(): boolean {
  return useContext(TabActive);
}
