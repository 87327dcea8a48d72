import { useEffect } from 'react';
import { decodeShare, findSharePayload } from '../../model/playground/share-link.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { usePlaygroundController } from './usePlayground.ts';

/**
 * Opens a shared scenario from the page's `#playground=…` hash (at load, and whenever the hash
 * changes) in the playground tab, then removes the hash so a reload does not replace later edits.
 * Mounted by the explorer, because the playground view itself is only mounted while its tab is shown.
 */
export function SharedLinkOpener() {
  const controller = usePlaygroundController();
  const setView = useAppStore((state) => state.setView);
  const detach = useAppStore((state) => state.detach);
  useEffect(() => {
    let live = true;
    const openHash = async () => {
      const hash = window.location.hash;
      if (findSharePayload(hash) === undefined) return;
      const decoded = await decodeShare(hash);
      if (!live) return;
      setView('playground');
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
      if (!decoded.ok) {
        controller.setLink({ ok: false, problem: decoded.problem });
        return;
      }
      if (!controller.editable) controller.reset();
      if (!controller.open(decoded.value, { kind: 'shared' })) {
        controller.setLink({ ok: false, problem: { key: 'busyLink' } });
        return;
      }
      controller.setLink({ ok: true, name: decoded.value.name });
      // A viewer who opens a link wants that code, not the driver's: it explores on its own.
      detach();
    };
    void openHash();
    window.addEventListener('hashchange', openHash);
    return () => {
      live = false;
      window.removeEventListener('hashchange', openHash);
    };
  }, [controller, setView, detach]);
  return null;
}
