// @vitest-environment happy-dom
import type { RunInfo } from '@pagelens/core';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import { installShortcutHandler } from '../../hooks/shortcuts.ts';
import { createAppStore } from '../../store/app-store.ts';
import { ProcessesPanel } from './ProcessesPanel.tsx';
import { ProcessFilterChip, ProcessFilterShortcut } from './ProcessFilterChip.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  uninstall = undefined;
  document.body.innerHTML = '';
});

const RUNS: RunInfo[] = [
  {
    run: 1,
    pid: 4002,
    osPid: 31337,
    command: '/tmp/build/train --steps 3',
    mode: 'simulated',
    state: 'running',
    calls: 12,
    errors: 1,
    dropped: 0,
  },
  {
    run: 2,
    pid: 4003,
    osPid: 31400,
    command: '/usr/bin/python3 infer.py',
    mode: 'traced',
    state: 'killed',
    signal: 'SIGSEGV',
    calls: 1,
    errors: 0,
  },
  { run: 3, pid: 4004, osPid: 31500, command: 'probe', mode: 'traced', state: 'exited', code: 3, calls: 5, errors: 0, dropped: 2 },
];

function mount(language: 'en' | 'zh', runs: readonly RunInfo[]) {
  const store = createAppStore();
  store.getState().setRuns(runs);
  uninstall = installShortcutHandler(window);
  const { container } = mountDom(
    <>
      <ProcessFilterShortcut />
      <ProcessFilterChip />
      <ProcessesPanel />
    </>,
    { language, store },
  );
  return { store, container };
}

const rows = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[data-testid="process-row"]')];

describe('the processes panel', () => {
  it('is absent while no program has come', () => {
    const { container } = mount('en', []);
    expect(container.querySelector('[data-testid="processes"]')).toBeNull();
  });

  it.each([
    [
      'en',
      ['train --steps 3', 'simulated', 'process 4002 · pid 31337', 'running', '12 calls', '1 error', '0 dropped'],
      'killed by SIGSEGV',
      'dropped: not yet known',
      'exited with code 3',
    ],
    [
      'zh',
      ['train --steps 3', '模拟', '进程 4002 · pid 31337', '运行中', '12 次调用', '1 个错误', '丢弃 0 条'],
      '被 SIGSEGV 终止',
      '丢弃：尚不知道',
      '已退出，退出码 3',
    ],
  ] as const)('%s: each run’s command, mode, pids, state and counts', (language, first, killed, unknown, exited) => {
    const { container } = mount(language, RUNS);
    const [a, b, c] = rows(container);
    for (const text of first) expect(a?.textContent).toContain(text);
    expect(b?.textContent).toContain(killed);
    expect(b?.textContent).toContain(unknown);
    expect(c?.textContent).toContain(exited);
    expect(b?.getAttribute('data-state')).toBe('killed');
  });

  it('filters the views by one process and back, by keyboard-reachable buttons', () => {
    const { store, container } = mount('en', RUNS);
    const button = (index: number) => rows(container)[index]?.querySelector('button');
    act(() => button(1)?.click());
    expect(store.getState().processFilter).toBe(4003);
    expect(button(1)?.getAttribute('aria-pressed')).toBe('true');
    expect(button(0)?.getAttribute('aria-pressed')).toBe('false');
    act(() => button(1)?.click());
    expect(store.getState().processFilter).toBeUndefined();
    act(() => button(0)?.click());
    act(() => container.querySelector<HTMLButtonElement>('[data-testid="processes-all"]')?.click());
    expect(store.getState().processFilter).toBeUndefined();
  });

  it.each([
    ['en', 'Showing process 4003 (python3 infer.py)', 'Show all', 'Showing process 4002 (train --steps 3)'],
    ['zh', '正在显示进程 4003（python3 infer.py）', '显示全部', '正在显示进程 4002（train --steps 3）'],
  ] as const)('%s: a chip says which process the views show, and its button shows all again', (language, showing, all, first) => {
    const { store, container } = mount(language, RUNS);
    const chip = () => container.querySelector<HTMLElement>('[data-testid="process-filter-chip"]');
    expect(chip()).toBeNull();
    act(() => rows(container)[1]?.querySelector('button')?.click());
    expect(chip()?.textContent).toContain(showing);
    expect(chip()?.getAttribute('data-pid')).toBe('4003');
    const clear = container.querySelector<HTMLButtonElement>('[data-testid="process-filter-clear"]');
    expect(clear?.textContent).toBe(all);
    act(() => clear?.click());
    expect(store.getState().processFilter).toBeUndefined();
    expect(chip()).toBeNull();
    // The filter set elsewhere (the address space picks a process too) shows the chip as well.
    act(() => store.getState().setProcessFilter(4002));
    expect(chip()?.textContent).toContain(first);
  });

  it('Shift+P steps the filter through the runs in the panel’s order, then back to all', () => {
    const { store } = mount('en', RUNS);
    const press = () => act(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'P', shiftKey: true, bubbles: true })));
    const seen: (number | undefined)[] = [];
    for (let i = 0; i < 4; i += 1) {
      press();
      seen.push(store.getState().processFilter);
    }
    expect(seen).toEqual([4002, 4003, 4004, undefined]);
    // A plain p is the playground's stop, not this.
    act(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'p', bubbles: true })));
    expect(store.getState().processFilter).toBeUndefined();
  });

  it.each([
    ['en', 'before the reset · its memory is gone'],
    ['zh', '重置之前 · 其内存已不存在'],
  ] as const)('%s: a run from before a host reset stays listed as history, marked, and cannot be chosen', (language, marked) => {
    const gone: RunInfo = { ...(RUNS[0] as RunInfo), state: 'exited', code: 0, beforeReset: true };
    // The new host gave pid 4002 again, to another program: a separate run.
    const again: RunInfo = { ...(RUNS[0] as RunInfo), run: 4, command: '/tmp/next' };
    const { store, container } = mount(language, [gone, again]);
    const [old, now] = rows(container);
    expect(old?.getAttribute('data-before-reset')).toBe('true');
    expect(old?.textContent).toContain(marked);
    expect(now?.textContent).not.toContain(marked);
    expect(old?.querySelector('button')?.disabled).toBe(true);
    act(() => old?.querySelector('button')?.click());
    expect(store.getState().processFilter).toBeUndefined();
    act(() => now?.querySelector('button')?.click());
    expect(store.getState().processFilter).toBe(4002);
    expect(now?.querySelector('button')?.getAttribute('aria-pressed')).toBe('true');
    expect(old?.querySelector('button')?.getAttribute('aria-pressed')).toBe('false');
    expect(container.querySelector('[data-testid="process-filter-chip"]')?.textContent).toContain('next');
  });

  it('Shift+P skips the runs from before a reset', () => {
    const { store } = mount('en', [{ ...(RUNS[0] as RunInfo), beforeReset: true }, RUNS[1] as RunInfo]);
    const press = () => act(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'P', shiftKey: true, bubbles: true })));
    press();
    expect(store.getState().processFilter).toBe(4003);
    press();
    expect(store.getState().processFilter).toBeUndefined();
  });
});
