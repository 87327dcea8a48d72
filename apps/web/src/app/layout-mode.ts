import { useSyncExternalStore } from 'react';
import type { PlaygroundLayout, ViewId } from '../store/ui-slice.ts';

/**
 * From this window width the split view keeps both side columns (narrowed); below it the code and
 * the memory view take their room: pools and actions hide, the inspector lies over the memory pane
 * only while something is selected. At 1800 px the memory pane beside 260 + 300 px columns is about
 * 650 px, what the address space's mapping table needs for its five columns.
 */
export const SPLIT_WIDE_MIN_PX = 1800;

/**
 * How the explorer is laid out: the centre tabs as ever (`tabs`), or the playground's code beside a
 * memory view with the side columns kept (`split-wide`), given up (`split`), or, while a lesson is
 * open in a narrow window, the pools/actions column kept (`split-lesson`): lesson steps are done
 * with the Actions panel as often as with the code, and the lesson sits above the code.
 */
export type ExplorerLayout = 'tabs' | 'split' | 'split-wide' | 'split-lesson';

export function explorerLayout(view: ViewId, playgroundLayout: PlaygroundLayout, wide: boolean, lessonOpen = false): ExplorerLayout {
  if (view !== 'playground' || playgroundLayout !== 'split') return 'tabs';
  if (wide) return 'split-wide';
  return lessonOpen ? 'split-lesson' : 'split';
}

/**
 * Where the side columns go in a layout: the left one shown or hidden; the inspector in its column,
 * or over the memory view beside the code while something is selected.
 */
export function sideColumns(layout: ExplorerLayout): { readonly left: boolean; readonly inspector: 'column' | 'overlay' } {
  if (layout === 'split') return { left: false, inspector: 'overlay' };
  if (layout === 'split-lesson') return { left: true, inspector: 'overlay' };
  return { left: true, inspector: 'column' };
}

const query = `(min-width: ${SPLIT_WIDE_MIN_PX}px)`;

function subscribe(listener: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
}

/** Whether the window is wide enough for the split view to keep both side columns; follows resizes. */
export function useWideWindow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
