import { type RefObject, useLayoutEffect, useRef } from 'react';
import { useBehavior } from './useBehavior.ts';

/** The imperative half of a zoomable canvas view: it holds the transform and draws; React hands it input. */
export interface CanvasController<I> {
  setInput(input: I): void;
  destroy(): void;
}

/** True when any of `keys` differs (by identity) between two inputs: what a controller repaints for. */
export function changedIn<I>(previous: I, next: I, keys: readonly (keyof I)[]): boolean {
  return keys.some((key) => previous[key] !== next[key]);
}

/**
 * Mounts a canvas controller on `ref`'s element through useBehavior (in the commit that shows it,
 * so a key pressed at once finds it) with the first input, then hands it the latest input after
 * every render. Pan and zoom stay inside the controller; this hook never sets React state.
 */
export function useController<E extends Element, I, C extends CanvasController<I>>(
  ref: RefObject<E | null>,
  input: I,
  create: (element: E, input: I) => C,
): RefObject<C | undefined> {
  const latest = useRef(input);
  latest.current = input;
  const controller = useBehavior(ref, (element) => create(element, latest.current));
  useLayoutEffect(() => {
    controller.current?.setInput(latest.current);
  });
  return controller;
}

/** The element a ref holds once React has mounted it; a missing one is a bug in the view's markup. */
export function mounted<E extends Element>(ref: RefObject<E | null>, what: string): E {
  if (ref.current === null) throw new Error(`${what} is not mounted`);
  return ref.current;
}
