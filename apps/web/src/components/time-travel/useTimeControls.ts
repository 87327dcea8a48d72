import { useEffect } from 'react';
import { type CursorTarget, callEndsOf, playStep, stepCall, stepEvent } from '../../model/time-travel/call-steps.ts';
import { cursorSeq } from '../../store/replica-slice.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';

/** Calls per second while playing: slow enough to read each one. */
export const PLAY_RATE = 4;

export interface TimeControls {
  stepCall(direction: 1 | -1): void;
  stepEvent(direction: 1 | -1): void;
  togglePlay(): void;
  live(): void;
}

/** Cursor moves that read the store when they run (shortcuts and buttons share them). */
export function useTimeControls(): TimeControls {
  const store = useStoreApi();
  const move = (compute: (seq: number) => CursorTarget) => {
    const state = store.getState();
    const timeline = state.timeline;
    if (timeline === undefined) return;
    state.setPlaying(false);
    state.setCursor(compute(cursorSeq(state)));
  };
  return {
    stepCall: (direction) =>
      move((seq) => {
        const timeline = store.getState().timeline;
        if (timeline === undefined) return 'live';
        return stepCall(callEndsOf(timeline.events, timeline.calls), seq, direction, timeline);
      }),
    stepEvent: (direction) =>
      move((seq) => {
        const timeline = store.getState().timeline;
        return timeline === undefined ? 'live' : stepEvent(timeline.events, seq, direction, timeline);
      }),
    togglePlay: () => {
      const state = store.getState();
      state.setPlaying(!state.playing);
    },
    live: () => {
      const state = store.getState();
      state.setPlaying(false);
      state.setCursor('live');
    },
  };
}

/** While `playing`, moves the cursor one call forward PLAY_RATE times a second and stops at live. */
export function usePlayer(playing: boolean): void {
  const store = useStoreApi();
  useEffect(() => {
    if (!playing) return undefined;
    const tick = () => {
      const state = store.getState();
      const timeline = state.timeline;
      if (timeline === undefined || !state.playing) return;
      const { target, done } = playStep(callEndsOf(timeline.events, timeline.calls), state.cursor, timeline);
      state.setCursor(target);
      if (done) state.setPlaying(false);
    };
    // From live, play starts over at once; from a point in the past, the first step waits its turn.
    if (store.getState().cursor === 'live') tick();
    const timer = setInterval(tick, 1000 / PLAY_RATE);
    return () => clearInterval(timer);
  }, [playing, store]);
}
