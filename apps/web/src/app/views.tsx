import { type ComponentType, lazy } from 'react';
import { PageMapView } from '../components/page-map/PageMapView.tsx';
import type { ViewId } from '../store/ui-slice.ts';

/**
 * The page map is the first view; the others load as their own chunks (the playground's alone
 * carries CodeMirror), so the first paint waits only for what it shows. `prefetchViews` fetches
 * them once the page is idle, so a tab opens at once.
 */
const LOADERS = {
  address: async () => ({ default: (await import('../components/address-space/AddressSpaceView.tsx')).AddressSpaceView }),
  tlb: async () => ({ default: (await import('../components/tlb/TlbView.tsx')).TlbView }),
  host: async () => ({ default: (await import('../components/host-copies/HostCopiesView.tsx')).HostCopiesView }),
  log: async () => ({ default: (await import('../components/log/OperationLogView.tsx')).OperationLogView }),
  playground: async () => ({ default: (await import('../components/playground/PlaygroundView.tsx')).PlaygroundView }),
} satisfies Record<Exclude<ViewId, 'pages'>, () => Promise<{ default: ComponentType }>>;

/** The center views, in tab order (keys 1–6). */
export const VIEW_COMPONENTS: Readonly<Record<ViewId, ComponentType>> = {
  pages: PageMapView,
  address: lazy(LOADERS.address),
  tlb: lazy(LOADERS.tlb),
  host: lazy(LOADERS.host),
  log: lazy(LOADERS.log),
  playground: lazy(LOADERS.playground),
};

/** Loads every view's chunk now (the module cache then serves the lazy views without waiting). */
export function prefetchViews(): void {
  for (const load of Object.values(LOADERS)) void load();
}
