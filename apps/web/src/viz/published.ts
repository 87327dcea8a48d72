import { useSyncExternalStore } from 'react';

/**
 * A value a canvas controller (outside React) publishes for the few components that show it: a
 * status line, an axis, the data-* attributes tests read. They re-render when it changes; the
 * canvases, drawn by the controller, never go through React for it.
 */
export class Published<T> {
  #value: T;
  readonly #listeners = new Set<() => void>();

  constructor(initial: T) {
    this.#value = initial;
  }

  readonly get = (): T => this.#value;

  set(value: T): void {
    if (Object.is(value, this.#value)) return;
    this.#value = value;
    for (const listener of this.#listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
}

/** The current value of `published`; the calling component re-renders when it changes. */
export function usePublished<T>(published: Published<T>): T {
  return useSyncExternalStore(published.subscribe, published.get, published.get);
}
