import { ASCEND_910B2, encodeSnapshot, errorName, type Hex, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { CallEnds, callEndsOf } from '../time-travel/call-steps.ts';
import { Timeline } from '../timeline.ts';
import { CallChoices, type CallFilter, FilteredCalls, matchesFilter, NO_FILTER } from './call-filter.ts';
import { callEndSeq } from './effects.ts';
import { droppedCalls } from './history-shift.ts';

/** A small seeded generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mallocs (some failing: size 0, or policy 9), frees and a few other calls, recorded as the simulator sends them. */
async function recorded(calls: number, next: () => number) {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const start = encodeSnapshot(host.state);
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const live: Hex[] = [];
  for (let i = 0; i < calls; i += 1) {
    const roll = next();
    if (roll < 0.4 && live.length > 0) await rt.aclrtFree({ devPtr: live.splice(Math.floor(next() * live.length), 1)[0] ?? '0x0' });
    else if (roll < 0.45) await rt.aclrtMalloc({ size: 0, policy: 0 });
    else if (roll < 0.47) await rt.aclrtGetDevice({});
    else {
      const { devPtr } = await rt.aclrtMalloc({ size: 4096 * (1 + Math.floor(next() * 64)), policy: Math.floor(next() * 3) });
      if (devPtr !== undefined) live.push(devPtr);
    }
  }
  return { start, events };
}

/** What each cache must equal: computed from scratch over the history held. */
function fromScratch(events: readonly MemoryEvent[], calls: readonly number[], filter: CallFilter) {
  const positions: number[] = [];
  const fns = new Set<string>();
  const errors = new Set<string>();
  const ends: number[] = [];
  calls.forEach((index, position) => {
    const event = events[index];
    if (event?.kind !== 'call') throw new Error('calls must index call events');
    if (matchesFilter(event, filter)) positions.push(position);
    fns.add(event.fn);
    if (event.ret !== 0) errors.add(errorName(event.ret));
    ends.push(callEndSeq(events, index));
  });
  return { positions, choices: { fns: [...fns].sort(), errors: [...errors].sort() }, ends };
}

describe('incremental log caches across folds', () => {
  const filters: CallFilter[] = [
    NO_FILTER,
    { ...NO_FILTER, result: 'error' },
    { ...NO_FILTER, fn: 'aclrtFree' },
    { ...NO_FILTER, text: 'normal' },
  ];

  for (const seed of [1, 2, 3, 4]) {
    it(`equal recomputing from scratch after every random batch, through folds (seed ${seed})`, async () => {
      const next = random(seed);
      const { start, events } = await recorded(1500, next);
      const timeline = new Timeline(start, { keep: 300, slack: 100 + Math.floor(next() * 100) });
      const filter = filters[seed % filters.length] ?? NO_FILTER;
      const filtered = new FilteredCalls();
      const choices = new CallChoices();
      const ends = new CallEnds();
      let folds = 0;
      let shifted = 0;
      for (let at = 0; at < events.length; ) {
        // Batches that end anywhere, so a call's effects sometimes arrive with the next batch.
        const size = 1 + Math.floor(next() * 60);
        const before = timeline.events;
        timeline.append(events.slice(at, at + size));
        at += size;
        if (timeline.events !== before) {
          folds += 1;
          const dropped = droppedCalls({ events: before, calls: [] }, timeline, 0);
          if (dropped !== undefined) shifted += 1;
        }
        // The views do not look after every batch.
        if (next() < 0.3) continue;
        const expected = fromScratch(timeline.events, timeline.calls, filter);
        expect([...filtered.update(timeline.events, timeline.calls, filter)]).toEqual(expected.positions);
        expect(choices.update(timeline.events, timeline.calls)).toEqual(expected.choices);
        expect([...ends.update(timeline.events, timeline.calls)]).toEqual(expected.ends);
        expect([...callEndsOf(timeline.events, timeline.calls)]).toEqual(expected.ends);
      }
      expect(folds).toBeGreaterThan(5);
      expect(shifted).toBe(folds);
    });
  }

  it('starts over for another history, even one with the same seqs', async () => {
    const { start, events } = await recorded(200, random(9));
    const one = new Timeline(start);
    one.append(events);
    // The same seqs and contents in other objects: a resync, not a fold.
    const copy = events.slice(40).map((event) => ({ ...event }));
    const other = { events: copy, calls: copy.flatMap((event, index) => (event.kind === 'call' ? [index] : [])) };
    expect(droppedCalls(one, other, one.calls.length)).toBeUndefined();
    const filtered = new FilteredCalls();
    filtered.update(one.events, one.calls, NO_FILTER);
    expect([...filtered.update(other.events, other.calls, NO_FILTER)]).toEqual(other.calls.map((_, position) => position));
  });

  it('counts the calls folded away', () => {
    const call = (seq: number): MemoryEvent => ({
      kind: 'call',
      seq,
      t: 0,
      provenance: 'simulated',
      pid: 1,
      fn: 'f',
      args: {},
      ret: 0,
      durationNs: 0,
    });
    const free = (seq: number, of: number): MemoryEvent => ({ kind: 'free', seq, t: 0, provenance: 'simulated', id: seq, call: of });
    const events = [call(1), free(2, 1), call(3), free(4, 3), call(5)];
    const seen = { events, calls: [0, 2, 4] };
    expect(droppedCalls(seen, { events: events.slice(1), calls: [1, 3] }, 3)).toBe(1);
    expect(droppedCalls(seen, { events: events.slice(3), calls: [1] }, 3)).toBe(2);
    // A fold that lost a call the cache had seen is no continuation.
    expect(droppedCalls(seen, { events: events.slice(3), calls: [] }, 3)).toBeUndefined();
  });
});
