import type { FollowDoc, FollowRun, FollowState } from '@pagelens/core';
import type { StateCreator } from 'zustand';
import type { ClassroomSlice } from './classroom-slice.ts';
import type { SessionSlice } from './session-slice.ts';

/** A playground as the follow channel carries it: what it shows and where its run is (the lesson is the classroom slice's). */
export interface PlaygroundFollow {
  readonly doc: FollowDoc;
  readonly run: FollowRun;
}

/**
 * The follow channel, seen from the page (issue 17 item 1). A driver's page keeps its own
 * playground here and the agent client publishes it; a viewer's page keeps what the driver last
 * published and whether it follows it or explores on its own.
 */
export interface FollowSlice {
  /** This page's playground now (the client publishes it while this page drives). */
  readonly ownPlayground: PlaygroundFollow | null;
  setOwnPlayground(playground: PlaygroundFollow | null): void;
  /** The driver's playground as last heard; null before the driver published one, or after its session ended. */
  readonly driverPlayground: PlaygroundFollow | null;
  /** The driver's own label, when its client gave one. */
  readonly driverLabel: string | undefined;
  /** A viewer's choice: show the driver's playground (the default) or its own. */
  readonly following: boolean;
  receiveFollowState(state: FollowState | null, driver?: string): void;
  detach(): void;
  followAgain(): void;
}

export const createFollowSlice: StateCreator<FollowSlice & ClassroomSlice, [], [], FollowSlice> = (set, get) => ({
  ownPlayground: null,
  setOwnPlayground: (playground) => set({ ownPlayground: playground }),
  driverPlayground: null,
  driverLabel: undefined,
  following: true,
  receiveFollowState: (state, driver) => {
    set({ driverPlayground: state === null ? null : { doc: state.doc, run: state.run }, driverLabel: driver });
    get().receiveDriverLesson(state?.lesson ?? null);
  },
  detach: () => set({ following: false }),
  followAgain: () => set({ following: true }),
});

/**
 * What a page's playground shows: its own (`driving`, or a viewer that `detached`), the driver's
 * (`following`), or its own while it waits for the driver to publish one (`waiting`).
 */
export type FollowMode = 'driving' | 'following' | 'waiting' | 'detached';

export function selectFollowMode(state: FollowSlice & SessionSlice): FollowMode {
  if (state.session?.role !== 'viewer') return 'driving';
  if (!state.following) return 'detached';
  return state.driverPlayground === null ? 'waiting' : 'following';
}
