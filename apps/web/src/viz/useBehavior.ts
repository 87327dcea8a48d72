import { type RefObject, useLayoutEffect, useRef } from 'react';

/**
 * Mounts a behaviour factory on an element once (one mount effect) and hands the current handle
 * to callers; the factory's `destroy` runs on unmount. A layout effect, so the behaviour exists in
 * the commit that puts the element on screen: a passive effect can run after the browser has
 * already delivered a key or wheel event to the new view, which then went nowhere.
 */
export function useBehavior<E extends Element, H extends { destroy(): void }>(
  ref: RefObject<E | null>,
  create: (element: E) => H,
): RefObject<H | undefined> {
  const handle = useRef<H | undefined>(undefined);
  const factory = useRef(create);
  factory.current = create;
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return undefined;
    const created = factory.current(element);
    handle.current = created;
    return () => {
      created.destroy();
      handle.current = undefined;
    };
  }, [ref]);
  return handle;
}
