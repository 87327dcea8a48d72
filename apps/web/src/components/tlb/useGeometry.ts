import type { DeviceProfile, TlbGeometry } from '@pagelens/core';
import { useSyncExternalStore } from 'react';
import { geometryStore } from '../../model/tlb/geometry-store.ts';

/** The TLB geometry this view uses for `profile` (assumed, PT-3), and whether the person edited it. */
export function useGeometry(profile: DeviceProfile): { readonly geometry: TlbGeometry; readonly edited: boolean } {
  const geometry = useSyncExternalStore(
    (listener) => geometryStore.subscribe(listener),
    () => geometryStore.get(profile),
  );
  return { geometry, edited: geometry !== profile.tlb };
}
