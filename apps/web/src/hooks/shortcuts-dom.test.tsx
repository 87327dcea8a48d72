// @vitest-environment happy-dom
import { act, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { shortcuts, useShortcut } from './shortcuts.ts';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

function WithShortcut() {
  useShortcut({ key: 'q', label: 'l', group: 'g' }, () => {});
  return null;
}

/** A later sibling's layout effect runs in the same commit, before the browser can deliver any input. */
function Probe({ seen }: { seen: string[][] }) {
  useLayoutEffect(() => {
    seen.push(shortcuts.list().map((shortcut) => shortcut.key));
  }, [seen]);
  return null;
}

describe('useShortcut', () => {
  it('is registered in the commit that shows its component, so a key pressed at once is not lost', () => {
    const seen: string[][] = [];
    const root = createRoot(document.createElement('div'));
    act(() =>
      root.render(
        <>
          <WithShortcut />
          <Probe seen={seen} />
        </>,
      ),
    );
    expect(seen[0]).toContain('q');
    act(() => root.unmount());
    expect(shortcuts.list().map((shortcut) => shortcut.key)).not.toContain('q');
  });
});
