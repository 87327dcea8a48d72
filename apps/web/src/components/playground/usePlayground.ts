import { SCENARIOS } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { PlaygroundController, type PlaygroundState } from '../../model/playground/controller.ts';
import { docFromScenario } from '../../model/playground/playground-doc.ts';
import type { AppStore } from '../../store/app-store.ts';
import { type AgentActions, useAgent } from '../../store/ClientContext.tsx';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { playgroundFollow } from './follow-wire.ts';

/** One controller per app store: the run survives switching tabs (the views unmount, the run does not). */
const controllers = new WeakMap<AppStore, PlaygroundController>();

/** Lets the browser paint between slices of a long run: an animation frame when visible, else a macrotask. */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof document !== 'undefined' && document.visibilityState === 'visible' && typeof requestAnimationFrame === 'function') {
      requestAnimationFrame(() => resolve());
    } else setTimeout(resolve, 0);
  });
}

function createController(store: AppStore, agent: AgentActions, language: 'en' | 'zh'): PlaygroundController {
  const first = SCENARIOS[0];
  const doc = first === undefined ? { name: '', code: '', inputs: [], setup: '' } : docFromScenario(first, language);
  return new PlaygroundController(
    {
      call: (fn, args, process) => agent.call(fn, args, process),
      lastSeq: () => store.getState().timeline?.lastSeq ?? 0,
      firstSeq: () => store.getState().timeline?.firstSeq ?? 0,
      followLive: () => store.getState().setCursor('live'),
      callsPerSecond: () => store.getState().session?.limits.callsPerSecond ?? 0,
      yieldControl: yieldToBrowser,
      now: () => performance.now(),
    },
    doc,
    first === undefined ? { kind: 'new' } : { kind: 'builtin', id: first.id },
  );
}

export function usePlaygroundController(): PlaygroundController {
  const store = useStoreApi();
  const agent = useAgent();
  const { i18n } = useTranslation();
  let controller = controllers.get(store);
  if (controller === undefined) {
    controller = createController(store, agent, i18n.language === 'zh' ? 'zh' : 'en');
    controllers.set(store, controller);
    // The follow channel's source: the store holds the playground as viewers would see it (the client publishes it when driving).
    const own = controller;
    const publish = () => store.getState().setOwnPlayground(playgroundFollow(own.state));
    // Not during this render: other components read the store.
    queueMicrotask(publish);
    own.store.subscribe(publish);
  }
  return controller;
}

export function usePlayground<T>(selector: (state: PlaygroundState) => T): T {
  return useStore(usePlaygroundController().store, selector);
}
