import { clampZoom, type Domain, maxZoom, type ZoomState } from '../../model/address-space/strip-layout.ts';
import { createZoom } from './zoom.ts';

export interface AddressZoomOptions {
  /** Read at every gesture: the domain and width can change while the behaviour lives. */
  readonly domain: () => Domain;
  readonly width: () => number;
  readonly onZoom: (zoom: ZoomState) => void;
}

export interface AddressZoomHandle {
  /** Zooms by `factor` around pixel `at` (default: the middle). */
  zoomBy(factor: number, at?: number): void;
  /** Pans by a fraction of the visible width (negative: left). */
  panBy(fraction: number): void;
  /** Shows this transform (zoom to a range, reset). */
  show(zoom: ZoomState): void;
  /** Re-applies the limits after the width or domain changed. */
  refresh(): void;
  current(): ZoomState;
  destroy(): void;
}

/**
 * Horizontal wheel/drag zoom over the address strip, built on the shared zoom behaviour with
 * xOnly. The deepest zoom depends on the width (a 4 KiB page becomes a few dozen pixels), and the
 * view never pans past the window's ends: an out-of-bounds gesture is answered with the clamped
 * transform, which d3 then keeps.
 */
export function createAddressZoom(element: Element, options: AddressZoomOptions): AddressZoomHandle {
  const limit = (): readonly [number, number] => [1, maxZoom(options.domain(), options.width())];
  let current: ZoomState = { k: 1, x: 0 };
  const handle = createZoom(element, {
    scaleExtent: limit(),
    xOnly: true,
    onZoom: (t) => {
      const clamped = clampZoom(t, options.domain(), options.width());
      if (clamped.x !== t.x || clamped.k !== t.k) {
        // d3 keeps its own transform: hand it the clamped one (clampZoom is idempotent, so this
        // re-enters exactly once, in bounds).
        handle.set({ ...clamped, y: 0 });
        return;
      }
      current = clamped;
      options.onZoom(clamped);
    },
  });
  const zoomed = handle.current();
  current = { k: zoomed.k, x: zoomed.x };
  return {
    zoomBy(factor, at) {
      handle.scaleBy(factor, [at ?? options.width() / 2, 0]);
    },
    panBy(fraction) {
      // translateBy moves in the zoomed frame: divide by k to move a fraction of the screen.
      handle.translateBy((-fraction * options.width()) / current.k, 0);
    },
    show(zoom) {
      handle.set({ ...clampZoom(zoom, options.domain(), options.width()), y: 0 });
    },
    refresh() {
      handle.update({ scaleExtent: limit() });
      handle.set({ ...clampZoom(current, options.domain(), options.width()), y: 0 });
    },
    current: () => current,
    destroy() {
      handle.destroy();
    },
  };
}
