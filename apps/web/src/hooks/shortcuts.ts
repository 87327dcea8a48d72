import { useLayoutEffect, useRef } from 'react';

/** A keyboard shortcut: the key as KeyboardEvent.key ("?", "ArrowLeft", "g"), with modifiers. */
export interface Shortcut {
  readonly key: string;
  readonly shift?: boolean;
  /** i18n key of a one-line description for the help overlay. */
  readonly label: string;
  /** Group heading key in the help overlay. */
  readonly group: string;
}

type Listener = () => void;

/** Every shortcut currently mounted; the help overlay lists exactly these. */
class ShortcutRegistry {
  readonly #entries = new Map<symbol, { shortcut: Shortcut; run: () => void }>();
  readonly #listeners = new Set<Listener>();
  /** The list as one array that changes only when the registry does (for useSyncExternalStore). */
  #snapshot: readonly Shortcut[] = [];

  add(shortcut: Shortcut, run: () => void): () => void {
    const id = Symbol(shortcut.key);
    this.#entries.set(id, { shortcut, run });
    this.#notify();
    return () => {
      this.#entries.delete(id);
      this.#notify();
    };
  }

  list(): readonly Shortcut[] {
    return this.#snapshot;
  }

  /**
   * Keys bound more than once among the mounted shortcuts, so a press would silently reach only
   * the newest. Escape is exempt: dialogs deliberately layer their own close over the global one.
   */
  conflicts(): string[] {
    const seen = new Map<string, number>();
    for (const { key, shift } of this.#snapshot) {
      if (key === 'Escape') continue;
      // A shortcut without a shift requirement answers both with and without Shift.
      const ids = shift === undefined ? [key, `Shift+${key}`] : [shift ? `Shift+${key}` : key];
      for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    this.#snapshot = [...this.#entries.values()].map((entry) => entry.shortcut);
    for (const listener of this.#listeners) listener();
  }

  /** Runs the shortcut matching a key press; true when one ran. */
  dispatch(event: KeyboardEvent): boolean {
    for (const { shortcut, run } of [...this.#entries.values()].reverse()) {
      if (shortcut.key !== event.key) continue;
      if (shortcut.shift !== undefined && shortcut.shift !== event.shiftKey) continue;
      run();
      return true;
    }
    return false;
  }
}

export const shortcuts = new ShortcutRegistry();

/** Typing in a field never triggers shortcuts. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('.cm-editor') !== null;
}

/** Installs the one global key handler. */
export function installShortcutHandler(target: Window): () => void {
  const handler = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (shortcuts.dispatch(event)) event.preventDefault();
  };
  target.addEventListener('keydown', handler);
  return () => target.removeEventListener('keydown', handler);
}

/**
 * Registers a shortcut while the calling component is mounted. Registered in a layout effect, in
 * the commit that shows the component: with a passive effect a key pressed as soon as a view
 * appears (a busy machine runs passive effects late) was silently dropped.
 */
export function useShortcut(shortcut: Shortcut, run: () => void, enabled = true): void {
  const latest = useRef(run);
  latest.current = run;
  const { key, shift, label, group } = shortcut;
  useLayoutEffect(() => {
    if (!enabled) return undefined;
    return shortcuts.add({ key, label, group, ...(shift === undefined ? {} : { shift }) }, () => latest.current());
  }, [key, shift, label, group, enabled]);
}
