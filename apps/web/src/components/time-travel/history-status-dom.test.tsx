// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import { MiB, malloc, startScene } from '../../../test/log-scene.ts';
import { createAppStore } from '../../store/app-store.ts';
import { TimeTravelBar } from './TimeTravelBar.tsx';

async function mount(language: 'en' | 'zh') {
  const scene = await startScene();
  for (let i = 0; i < 3; i += 1) await malloc(scene.rt, MiB, 2);
  scene.sync();
  const store = createAppStore();
  store.setState({ timeline: scene.timeline, version: 1 });
  const { container } = mountDom(<TimeTravelBar />, { language, store });
  return { store, container, calls: scene.timeline.calls.length };
}

const status = (container: HTMLElement) => container.querySelector('[data-testid="tt-history"]');
const position = (container: HTMLElement) => container.querySelector('[data-testid="tt-position"]')?.textContent ?? '';

describe('the time bar says where the history starts and how far it has come', () => {
  it.each([
    ['en', 'loading history 40 %', 'history from call 8', 'call 12 / 12'],
    ['zh', '正在载入历史 40%', '历史从第 8 次调用开始', '调用 12 / 12'],
  ] as const)('%s', async (language, loading, from, calls) => {
    const { store, container } = await mount(language);
    expect(status(container)).toBeNull();
    act(() => store.setState({ history: { total: 50, received: 20, callsBefore: 0 } }));
    expect(status(container)?.textContent).toBe(loading);
    expect(status(container)?.getAttribute('data-loading')).toBe('true');
    // The history is in, and the agent's cap had left 7 calls out: calls count from the host's reset.
    act(() => {
      const timeline = store.getState().timeline;
      if (timeline !== undefined) timeline.callsBefore = 7;
      store.setState({ history: undefined, version: 2 });
    });
    expect(status(container)?.textContent).toBe(from);
    expect(position(container)).toContain(calls);
  });
});
