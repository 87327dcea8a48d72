import { type ComponentType, lazy } from 'react';
import { AddressSpaceView } from '../components/address-space/AddressSpaceView.tsx';
import { HostCopiesView } from '../components/host-copies/HostCopiesView.tsx';
import { OperationLogView } from '../components/log/OperationLogView.tsx';
import { PageMapView } from '../components/page-map/PageMapView.tsx';
import { TlbView } from '../components/tlb/TlbView.tsx';
import type { ViewId } from '../store/ui-slice.ts';

/**
 * The playground carries the code editor (CodeMirror, about half the app's script), so it loads
 * when its tab is first opened, not before the first paint of the other views.
 */
const PlaygroundView = lazy(async () => ({ default: (await import('../components/playground/PlaygroundView.tsx')).PlaygroundView }));

/** The center views, in tab order (keys 1–6). */
export const VIEW_COMPONENTS: Readonly<Record<ViewId, ComponentType>> = {
  pages: PageMapView,
  address: AddressSpaceView,
  tlb: TlbView,
  host: HostCopiesView,
  log: OperationLogView,
  playground: PlaygroundView,
};
