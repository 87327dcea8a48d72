import { type FollowState, SCENARIOS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { createAppStore } from './app-store.ts';
import { selectFollowMode } from './follow-slice.ts';
import type { Session } from './session-slice.ts';

const id = SCENARIOS[0]?.id ?? '';
const STATE: FollowState = {
  doc: { kind: 'scenario', id },
  run: { status: 'paused', line: 9, marks: [{ line: 8, kind: 'ok', executed: true, hits: 1, details: [] }], setupMarks: [] },
  lesson: { lessonId: 'rounding-waste', step: 1 },
};

const session = (role: Session['role']): Session => ({
  sessionId: 's1',
  role,
  backend: 'sim',
  host: { provenance: 'simulated', hostname: 'h', kernelVersion: '6.1', hostPageSize: 4096 },
  devices: [],
  functions: new Set(),
  limits: { deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
});

function viewerStore() {
  const store = createAppStore();
  store.getState().setSession(session('viewer'));
  return store;
}

describe('the follow slice', () => {
  it("keeps the driver's playground and hands its lesson position to the classroom slice", () => {
    const store = viewerStore();
    store.getState().receiveFollowState(STATE, 'trainer');
    const state = store.getState();
    expect(state.driverPlayground).toEqual({ doc: STATE.doc, run: STATE.run });
    expect(state.driverLabel).toBe('trainer');
    expect(state.driverLesson).toEqual({ lessonId: 'rounding-waste', step: 1 });
    // The viewer's own lesson position is its own.
    expect(state.ownLesson).toBeNull();
  });

  it('forgets both when the driver session ends', () => {
    const store = viewerStore();
    store.getState().receiveFollowState(STATE);
    store.getState().receiveFollowState(null);
    expect(store.getState().driverPlayground).toBeNull();
    expect(store.getState().driverLesson).toBeNull();
    expect(store.getState().driverLabel).toBeUndefined();
  });

  it('a viewer waits, follows, detaches and follows again; a driver always drives', () => {
    const store = viewerStore();
    expect(selectFollowMode(store.getState())).toBe('waiting');
    store.getState().receiveFollowState(STATE);
    expect(selectFollowMode(store.getState())).toBe('following');
    store.getState().detach();
    expect(selectFollowMode(store.getState())).toBe('detached');
    // Detached, the driver's state still arrives: following again shows its latest.
    store.getState().receiveFollowState({ ...STATE, run: { ...STATE.run, line: 10 } });
    expect(selectFollowMode(store.getState())).toBe('detached');
    store.getState().followAgain();
    expect(selectFollowMode(store.getState())).toBe('following');
    expect(store.getState().driverPlayground?.run.line).toBe(10);

    const driver = createAppStore();
    driver.getState().setSession(session('driver'));
    driver.getState().receiveFollowState(STATE);
    expect(selectFollowMode(driver.getState())).toBe('driving');
  });
});
