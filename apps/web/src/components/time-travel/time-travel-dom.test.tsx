// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import { MiB, malloc, startScene } from '../../../test/log-scene.ts';
import { installShortcutHandler } from '../../hooks/shortcuts.ts';
import { createAppStore } from '../../store/app-store.ts';
import { OperationLogView } from '../log/OperationLogView.tsx';
import { TimeTravelBar } from './TimeTravelBar.tsx';

let uninstall: (() => void) | undefined;

afterEach(() => {
  uninstall?.();
  document.body.innerHTML = '';
});

async function mount(calls: number) {
  const scene = await startScene();
  for (let i = 0; i < calls; i += 1) await malloc(scene.rt, MiB, 2);
  scene.sync();
  const store = createAppStore();
  store.setState({ timeline: scene.timeline, version: 1 });
  uninstall = installShortcutHandler(window);
  const { container } = mountDom(
    <>
      <OperationLogView />
      <TimeTravelBar />
    </>,
    { store },
  );
  return { store, container, scene };
}

function press(key: string, shiftKey = false) {
  act(() => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey, bubbles: true }));
  });
}

describe('time travel bar and log in the DOM', () => {
  it('← and → move the cursor call by call, L returns to live, and the log dims the calls after the cursor', async () => {
    const { store, container } = await mount(3);
    expect(store.getState().cursor).toBe('live');
    press('ArrowLeft');
    const afterOne = store.getState().cursor;
    expect(typeof afterOne).toBe('number');
    expect(container.querySelectorAll('.log-row.future')).toHaveLength(1);
    press('ArrowLeft');
    expect(container.querySelectorAll('.log-row.future')).toHaveLength(2);
    press('ArrowRight');
    expect(store.getState().cursor).toBe(afterOne);
    press('l');
    expect(store.getState().cursor).toBe('live');
    expect(container.querySelector('[data-testid="tt-live"]')?.getAttribute('aria-pressed')).toBe('true');
  });

  it('marks A and B with the keys and opens Compare with what was allocated in between', async () => {
    const { store, container } = await mount(2);
    press('ArrowLeft');
    press('a');
    press('l');
    press('b');
    const compare = store.getState().compare;
    expect(compare?.to).toBe(store.getState().timeline?.lastSeq);
    const button = container.querySelector<HTMLButtonElement>('[data-testid="tt-compare"]');
    expect(button?.disabled).toBe(false);
    act(() => button?.click());
    expect(container.querySelectorAll('[data-testid="compare-allocated"] [data-testid="compare-item"]')).toHaveLength(1);
  });

  it('renders a window of rows, not every call', async () => {
    const { container } = await mount(300);
    const rows = container.querySelectorAll('[data-testid="log-row"]');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(container.querySelector('[data-testid="log-count"]')?.textContent).toBe('302 calls');
  });
});
