import type { AclFunctionName, WireArgs } from '@pagelens/core';
import { useState } from 'react';
import { firstUnavailable, type Unavailable, unavailable } from '../../model/acl/backend.ts';
import type { BuiltCall } from '../../model/actions/built-call.ts';
import { currentDeviceOf, ownPid } from '../../model/actions/live-objects.ts';
import { callPid, createdObjects } from '../../model/actions/outcome.ts';
import type { CallOutcome } from '../../store/actions-slice.ts';
import type { AppState } from '../../store/app-store.ts';
import { useAgent } from '../../store/ClientContext.tsx';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';

/** The pid of this client's process in the live state (read when needed, not subscribed). */
export function pidOf(state: AppState): number | undefined {
  const timeline = state.timeline;
  if (timeline === undefined) return undefined;
  let last: number | undefined;
  for (let index = state.outcomes.length - 1; index >= 0 && last === undefined; index -= 1) {
    const outcome = state.outcomes[index];
    if (outcome !== undefined) last = callPid(outcome, timeline);
  }
  return ownPid(timeline.live, state.session?.sessionId, last);
}

export interface Caller {
  /** The driver may call; viewers may not. */
  readonly canCall: boolean;
  /** Calls of this form are in flight. */
  readonly busy: boolean;
  /** Why `fn` cannot be called from this page (viewer, read-only agent, missing symbol); undefined when it can. */
  why(fn: string): Unavailable | undefined;
  /** The first of `fns` that cannot be called, and why. */
  blocker(fns: readonly string[]): { readonly fn: string; readonly why: Unavailable } | undefined;
  /** Calls `fn` with arguments typed by the catalogue. */
  run<F extends AclFunctionName>(fn: F, args: WireArgs<F>): Promise<CallOutcome>;
  /** Calls a call a generated form built (its argument names come from the catalogue; the agent judges the values). */
  runBuilt(call: BuiltCall): Promise<CallOutcome>;
  /** aclrtSetDevice(device) when the process's current device differs (LT-2); the failed outcome if it failed. */
  ensureDevice(device: number): Promise<CallOutcome | undefined>;
  /** Selects the first object the outcome created, in every view. */
  selectCreated(outcome: CallOutcome): void;
}

/** What every action form needs to call the agent: role, busy state, device set-up, selection of results. */
export function useCaller(): Caller {
  const agent = useAgent();
  const store = useStoreApi();
  const canCall = useAppStore((state) => state.session?.role === 'driver');
  const session = useAppStore((state) => state.session);
  const [inFlight, setInFlight] = useState(0);
  const runBuilt = async ({ fn, args }: BuiltCall): Promise<CallOutcome> => {
    setInFlight((count) => count + 1);
    try {
      return await agent.callUnchecked(fn, args);
    } finally {
      setInFlight((count) => count - 1);
    }
  };
  const run = <F extends AclFunctionName>(fn: F, args: WireArgs<F>): Promise<CallOutcome> => runBuilt({ fn, args });
  return {
    canCall,
    busy: inFlight > 0,
    why: (fn) => unavailable(fn, session),
    blocker: (fns) => firstUnavailable(fns, session),
    run,
    runBuilt,
    ensureDevice: async (device) => {
      const state = store.getState();
      const live = state.timeline?.live;
      if (live !== undefined && currentDeviceOf(live, pidOf(state)) === device) return undefined;
      const outcome = await run('aclrtSetDevice', { deviceId: device });
      return outcome.ok ? undefined : outcome;
    },
    selectCreated: (outcome) => {
      const state = store.getState();
      const timeline = state.timeline;
      if (timeline === undefined) return;
      const [first] = createdObjects(outcome, timeline);
      if (first !== undefined) state.select(first.device === undefined ? { kind: first.kind, id: first.id } : first);
    },
  };
}

/** The live state (not the time cursor's): pickers offer what exists now. */
export function useLiveState() {
  useAppStore((state) => state.version);
  return useAppStore((state) => state.timeline?.live);
}

/**
 * The process's current device, re-read whenever the replica changes. Selected as a number, so the
 * forms using it re-render only when it changes, not for every batch of events.
 */
export function useCurrentDevice(): number {
  return useAppStore((state) => {
    const live = state.timeline?.live;
    return live === undefined ? -1 : currentDeviceOf(live, pidOf(state));
  });
}

/** Brings a form's result into view once it has rendered (the left column scrolls). */
export function revealResult(element: HTMLElement | null): void {
  requestAnimationFrame(() => element?.scrollIntoView({ block: 'nearest' }));
}
