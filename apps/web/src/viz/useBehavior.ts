import { type RefObject, useEffect, useRef } from 'react';

/**
 * Mounts a behaviour factory on an element once (one mount effect) and hands the current handle
 * to callers; the factory's `destroy` runs on unmount.
 */
export function useBehavior<E extends Element, H extends { destroy(): void }>(
  ref: RefObject<E | null>,
  create: (element: E) => H,
): RefObject<H | undefined> {
  const handle = useRef<H | undefined>(undefined);
  const factory = useRef(create);
  factory.current = create;
  useEffect(() => {
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
