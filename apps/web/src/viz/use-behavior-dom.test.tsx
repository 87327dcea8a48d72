// @vitest-environment happy-dom
import { act, type RefObject, useLayoutEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { useBehavior } from './useBehavior.ts';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

interface Handle {
  readonly element: Element;
  destroy(): void;
}

interface Holder {
  handle?: RefObject<Handle | undefined>;
}

function Behaved({ holder, destroyed }: { holder: Holder; destroyed: Element[] }) {
  const box = useRef<HTMLDivElement>(null);
  holder.handle = useBehavior(box, (element): Handle => ({ element, destroy: () => destroyed.push(element) }));
  return <div ref={box} />;
}

/** A later sibling's layout effect runs in the same commit, before the browser can deliver any input. */
function Probe({ holder, seen }: { holder: Holder; seen: (Handle | undefined)[] }) {
  useLayoutEffect(() => {
    seen.push(holder.handle?.current);
  }, [holder, seen]);
  return null;
}

describe('useBehavior', () => {
  it('mounts the behaviour in the commit that shows the element and destroys it on unmount', () => {
    const holder: Holder = {};
    const seen: (Handle | undefined)[] = [];
    const destroyed: Element[] = [];
    const root = createRoot(document.createElement('div'));
    act(() =>
      root.render(
        <>
          <Behaved holder={holder} destroyed={destroyed} />
          <Probe holder={holder} seen={seen} />
        </>,
      ),
    );
    expect(seen[0]?.element.tagName).toBe('DIV');
    act(() => root.unmount());
    expect(destroyed).toEqual([seen[0]?.element]);
  });
});
