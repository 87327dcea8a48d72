import { createContext, useContext, useLayoutEffect, useRef } from 'react';

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

/**
 * How the shortcuts of one part of the page take part: `own` as usual; `yield` only while no `own`
 * shortcut takes the same key (a view beside the playground's code gives way to the code's keys);
 * `off` not at all (a column the layout hides).
 */
export type ShortcutScope = 'own' | 'yield' | 'off';
export const ShortcutScopeContext = createContext<ShortcutScope>('own');

/** The key presses a shortcut answers: one without a shift requirement answers both with and without Shift. */
function pressesOf({ key, shift }: Shortcut): string[] {
  return shift === undefined ? [key, `Shift+${key}`] : [shift ? `Shift+${key}` : key];
}

interface Entry {
  readonly shortcut: Shortcut;
  readonly run: () => void;
  readonly yields: boolean;
}

/** Every shortcut currently mounted; the help overlay lists exactly these. */
class ShortcutRegistry {
  readonly #entries = new Map<symbol, Entry>();
  /** The entries that answer keys now: every `own` one, and each `yield` one no `own` one shadows. */
  #active: readonly Entry[] = [];
  readonly #listeners = new Set<Listener>();
  /** The list as one array that changes only when the registry does (for useSyncExternalStore). */
  #snapshot: readonly Shortcut[] = [];

  add(shortcut: Shortcut, run: () => void, yields = false): () => void {
    const id = Symbol(shortcut.key);
    this.#entries.set(id, { shortcut, run, yields });
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
    for (const shortcut of this.#snapshot) {
      if (shortcut.key === 'Escape') continue;
      for (const id of pressesOf(shortcut)) seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    const entries = [...this.#entries.values()];
    const owned = new Set(entries.filter((entry) => !entry.yields).flatMap((entry) => pressesOf(entry.shortcut)));
    this.#active = entries.filter((entry) => !entry.yields || !pressesOf(entry.shortcut).some((press) => owned.has(press)));
    this.#snapshot = this.#active.map((entry) => entry.shortcut);
    for (const listener of this.#listeners) listener();
  }

  /** Runs the shortcut matching a key press; true when one ran. */
  dispatch(event: KeyboardEvent): boolean {
    for (const { shortcut, run } of [...this.#active].reverse()) {
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
  const scope = useContext(ShortcutScopeContext);
  const { key, shift, label, group } = shortcut;
  const on = enabled && scope !== 'off';
  const yields = scope === 'yield';
  useLayoutEffect(() => {
    if (!on) return undefined;
    return shortcuts.add({ key, label, group, ...(shift === undefined ? {} : { shift }) }, () => latest.current(), yields);
  }, [key, shift, label, group, on, yields]);
}
