import { ASCEND_910B2, encodeSnapshot, SimHost } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { createAppStore } from './app-store.ts';
import { selectHostResets } from './replica-slice.ts';

describe('host resets', () => {
  it('count only snapshots that reset the host, not the first snapshot or a resync', () => {
    const store = createAppStore();
    const host = new SimHost({ devices: [ASCEND_910B2] });
    const snapshot = encodeSnapshot(host.state);
    store.getState().applySnapshot(snapshot, false);
    store.getState().applySnapshot(snapshot, false);
    expect(selectHostResets(store.getState())).toBe(0);
    store.getState().setCursor(0);
    store.getState().applySnapshot(snapshot, true);
    expect(selectHostResets(store.getState())).toBe(1);
    expect(store.getState().cursor).toBe('live');
    store.getState().applySnapshot(snapshot, true);
    expect(selectHostResets(store.getState())).toBe(2);
  });
});

describe('cursor and play', () => {
  it('wake the subscribers only when they change (a step stops play first, and it is usually stopped)', () => {
    const store = createAppStore();
    const host = new SimHost({ devices: [ASCEND_910B2] });
    store.getState().applySnapshot(encodeSnapshot(host.state), false);
    let wakes = 0;
    const stop = store.subscribe(() => {
      wakes += 1;
    });
    store.getState().setPlaying(false);
    store.getState().setCursor('live');
    store.getState().setCursor(0);
    expect(wakes).toBe(0);
    store.getState().setPlaying(true);
    store.getState().setPlaying(true);
    expect(wakes).toBe(1);
    stop();
  });
});
