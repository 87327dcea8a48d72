import { describe, expect, it } from 'vitest';
import type { MemoryEvent } from '../src/model/events.ts';
import { reduce } from '../src/model/reduce.ts';
import { fingerprint } from '../src/model/snapshot.ts';
import { cloneHostState, createHostState, type HostState } from '../src/model/state.ts';
import { ASCEND_910B4 } from '../src/profiles/builtin.ts';
import { freshSession, runRandomSession } from './support/random-session.ts';

async function recordedSession(seed: number): Promise<{ events: MemoryEvent[]; final: HostState }> {
  const { host, rt, events } = await freshSession(seed);
  await runRandomSession(rt, seed, 250);
  return { events, final: host.state };
}

/** The maps whose values a clone shares (state.ts, `shareValues`). */
function sharedValues(state: HostState): object[] {
  return [...state.allocations.values(), ...state.physical.values(), ...state.reservations.values(), ...state.ipcImports.values()];
}

describe('cloneHostState', () => {
  it.each([1, 2, 3, 17, 4242])('seed %i: reduce never edits a value the clones share (each is frozen once applied)', async (seed) => {
    const { events, final } = await recordedSession(seed);
    const state = createHostState([ASCEND_910B4]);
    let shared = 0;
    for (const event of events) {
      reduce(state, event);
      // ES modules are strict: writing a field of a frozen object throws.
      for (const value of sharedValues(state)) Object.freeze(value);
      shared = Math.max(shared, sharedValues(state).length);
    }
    expect(shared).toBeGreaterThan(0);
    expect(fingerprint(state)).toBe(fingerprint(final));
  });

  it('a clone keeps its state however the original goes on, and the original however the clone does', async () => {
    const { events } = await recordedSession(99);
    const original = createHostState([ASCEND_910B4]);
    const half = Math.floor(events.length / 2);
    for (const event of events.slice(0, half)) reduce(original, event);
    const atHalf = fingerprint(original);
    const clone = cloneHostState(original);
    for (const event of events.slice(half)) reduce(original, event);
    expect(fingerprint(clone)).toBe(atHalf);
    const afterAll = fingerprint(original);
    for (const event of events.slice(half)) reduce(clone, event);
    expect(fingerprint(clone)).toBe(afterAll);
    expect(fingerprint(original)).toBe(afterAll);
  });
});
