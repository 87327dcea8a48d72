// @vitest-environment happy-dom
import { aclrtMemMallocPolicy, LESSONS, lessonById, scenarioById } from '@pagelens/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MiB, malloc, type Scene, startScene } from '../../../test/log-scene.ts';
import { installShortcutHandler } from '../../hooks/shortcuts.ts';
import { createI18n } from '../../i18n/setup.ts';
import { type AppStore, createAppStore } from '../../store/app-store.ts';
import { type AgentActions, ClientProvider } from '../../store/ClientContext.tsx';
import { StoreProvider } from '../../store/StoreProvider.tsx';
import type { Session } from '../../store/session-slice.ts';
import { LessonsPanel } from './LessonsPanel.tsx';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

let root: Root | undefined;
let uninstall: (() => void) | undefined;
afterEach(() => {
  act(() => root?.unmount());
  vi.useRealTimers();
  uninstall?.();
  document.body.innerHTML = '';
});

function session(role: 'driver' | 'viewer'): Session {
  return {
    sessionId: 's1',
    role,
    backend: 'sim',
    host: { provenance: 'simulated', hostname: 'test', kernelVersion: '5.15.0', hostPageSize: 4096 },
    devices: [],
    functions: new Set(),
    limits: { deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
  };
}

interface Mounted {
  readonly store: AppStore;
  readonly scene: Scene;
  readonly resets: unknown[];
  readonly container: HTMLElement;
  readonly remount: () => void;
}

async function mount(language: 'en' | 'zh', role: 'driver' | 'viewer'): Promise<Mounted> {
  const scene = await startScene();
  const store = createAppStore();
  store.setState({ timeline: scene.timeline, version: 1, session: session(role) });
  const resets: unknown[] = [];
  const agent: AgentActions = {
    call: () => Promise.reject(new Error('no calls in this test')),
    callUnchecked: () => Promise.reject(new Error('no calls in this test')),
    reset: (options) => {
      resets.push(options);
      return Promise.resolve({ ok: true });
    },
    retry: () => undefined,
  };
  const container = document.createElement('div');
  document.body.append(container);
  uninstall = installShortcutHandler(window);
  root = createRoot(container);
  const i18n = createI18n(language);
  // A new key remounts the panel, as moving between the right column and the split does.
  const render = (key: string) =>
    act(() =>
      root?.render(
        <I18nextProvider i18n={i18n}>
          <StoreProvider store={store}>
            <ClientProvider actions={agent}>
              <LessonsPanel key={key} />
            </ClientProvider>
          </StoreProvider>
        </I18nextProvider>,
      ),
    );
  render('first');
  return { store, scene, resets, container, remount: () => render('moved') };
}

const q = (container: HTMLElement, id: string) => container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const click = (element: HTMLElement | null) => act(() => element?.click());
const press = (key: string, shiftKey = false) =>
  act(() => window.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey, bubbles: true })));

function choose(container: HTMLElement, lessonId: string): void {
  const select = q(container, 'lesson-pick');
  if (!(select instanceof HTMLSelectElement)) throw new Error('no lesson picker');
  act(() => {
    select.value = lessonId;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const WORDS = {
  en: { open: 'not yet', met: '✓ met', trainer: 'The trainer is on step 3 of “TLB reach and 1 GiB pages”.' },
  zh: { open: '尚未达成', met: '✓ 已达成', trainer: '讲师在“TLB覆盖范围与1 GiB页”的第 3 步。' },
} as const;

describe('the lessons panel', () => {
  it.each(['en', 'zh'] as const)('%s: Shift+L opens it; a goal ticks as soon as the replica shows it, and only then', async (language) => {
    const { store, scene, container } = await mount(language, 'driver');
    // Goals are checked at most every 250 ms under a stream: the test moves the clock past that.
    vi.useFakeTimers();
    const publish = (version: number) =>
      act(() => {
        scene.sync();
        store.setState({ version });
        vi.advanceTimersByTime(300);
      });
    expect(q(container, 'lessons')).toBeNull();
    press('L', true);
    expect(q(container, 'lessons')).not.toBeNull();
    choose(container, 'page-policies');
    const status = () => q(container, 'lesson-goal-status')?.textContent;
    expect(status()).toBe(WORDS[language].open);
    // 1 MiB with NORMAL_ONLY is not the goal: normal pages.
    await malloc(scene.rt, MiB, aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_NORMAL_ONLY);
    publish(2);
    expect(status()).toBe(WORDS[language].open);
    await malloc(scene.rt, MiB, aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_FIRST);
    publish(3);
    expect(status()).toBe(WORDS[language].met);
    expect(q(container, 'lesson-chip-padding-crosses')?.dataset.met).toBe('true');
    expect(q(container, 'lesson-chip-align32-stays')?.dataset.met).toBe('false');
    expect(q(container, 'lesson-why')?.hasAttribute('open')).toBe(true);
    press('L', true);
    expect(q(container, 'lessons')).toBeNull();
  });

  it('shows hints one by one and the explanation with its rule IDs', async () => {
    const { container } = await mount('en', 'driver');
    press('L', true);
    choose(container, 'page-policies');
    expect(container.querySelectorAll('[data-testid="lesson-hint"]')).toHaveLength(0);
    expect(q(container, 'lesson-why')?.hasAttribute('open')).toBe(false);
    click(q(container, 'lesson-show-hint'));
    expect(container.querySelectorAll('[data-testid="lesson-hint"]')).toHaveLength(1);
    click(q(container, 'lesson-show-hint'));
    expect(container.querySelectorAll('[data-testid="lesson-hint"]')).toHaveLength(2);
    expect(q(container, 'lesson-show-hint')?.hasAttribute('disabled')).toBe(true);
    expect(q(container, 'lesson-why')?.textContent).toContain('DM-3, DM-4');
  });

  it('a driver publishes the position only after "Start for all", and resets to the host its first scenario declares on confirmation', async () => {
    const { store, container, resets } = await mount('en', 'driver');
    press('L', true);
    choose(container, 'fragmentation');
    click(q(container, 'lesson-next'));
    expect(store.getState().ownLesson).toBeNull();
    click(q(container, 'lesson-start-all'));
    expect(store.getState().ownLesson).toEqual({ lessonId: 'fragmentation', step: 1 });
    click(q(container, 'lesson-next'));
    expect(store.getState().ownLesson).toEqual({ lessonId: 'fragmentation', step: 2 });
    click(q(container, 'lesson-stop-all'));
    expect(store.getState().ownLesson).toBeNull();
    click(q(container, 'lesson-fresh-host'));
    expect(resets).toEqual([]);
    click(q(container, 'lesson-fresh-confirm'));
    const declared = scenarioById(lessonById('fragmentation')?.startsFrom ?? '')?.host;
    expect(declared).toBeDefined();
    expect(resets).toEqual([{ profile: declared?.profile, devices: declared?.devices }]);
  });

  it('keeps its lesson, step and published position when a layout change remounts it', async () => {
    const { store, container, remount } = await mount('en', 'driver');
    press('L', true);
    choose(container, 'fragmentation');
    click(q(container, 'lesson-next'));
    click(q(container, 'lesson-start-all'));
    remount();
    expect(q(container, 'lessons')?.dataset.lesson).toBe('fragmentation');
    expect(q(container, 'lesson-step')?.dataset.step).toBe('huge-only-fails');
    expect(q(container, 'lesson-stop-all')).not.toBeNull();
    expect(store.getState().ownLesson).toEqual({ lessonId: 'fragmentation', step: 1 });
  });

  it('a remounted viewer panel does not take in the trainer’s step a second time', async () => {
    const { store, container, remount } = await mount('en', 'viewer');
    act(() => store.getState().receiveDriverLesson({ lessonId: 'tlb-reach', step: 2 }));
    click(q(container, 'lesson-prev'));
    remount();
    expect(q(container, 'lesson-step')?.dataset.step).toBe('huge-covers');
    expect(q(container, 'lesson-jump')).not.toBeNull();
  });

  it.each(['en', 'zh'] as const)(
    '%s: a viewer’s panel opens the lesson the trainer starts and shows the trainer’s step',
    async (language) => {
      const { store, container } = await mount(language, 'viewer');
      expect(q(container, 'lesson-start-all')).toBeNull();
      act(() => store.getState().receiveDriverLesson({ lessonId: 'tlb-reach', step: 2 }));
      expect(q(container, 'lessons')?.dataset.lesson).toBe('tlb-reach');
      expect(q(container, 'lesson-step')?.dataset.step).toBe(LESSONS.find((l) => l.id === 'tlb-reach')?.steps[2]?.id);
      expect(q(container, 'lesson-trainer')?.textContent).toContain(WORDS[language].trainer);
      expect(q(container, 'lesson-jump')).toBeNull();
      // Browsing away detaches; the trainer's next step then only shows in the note, with a jump.
      click(q(container, 'lesson-prev'));
      act(() => store.getState().receiveDriverLesson({ lessonId: 'tlb-reach', step: 3 }));
      expect(q(container, 'lesson-step')?.dataset.step).toBe('huge-covers');
      expect(q(container, 'lesson-trainer')?.dataset.step).toBe('4');
      click(q(container, 'lesson-jump'));
      expect(q(container, 'lesson-step')?.dataset.step).toBe('giant');
      expect(q(container, 'lesson-fresh-host')?.hasAttribute('disabled')).toBe(true);
      expect(store.getState().ownLesson).toBeNull();
    },
  );
});
