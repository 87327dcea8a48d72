import type { MemoryEvent } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { MiB, malloc, startScene } from '../../../test/log-scene.ts';
import { CallEnds, callAtSeq, callEndsOf, playStep, stepCall, stepEvent } from './call-steps.ts';

function event(seq: number, call?: number): MemoryEvent {
  return call === undefined
    ? { kind: 'call', seq, t: 0, provenance: 'simulated', pid: 1, fn: 'aclrtFree', args: {}, ret: 0, durationNs: 0 }
    : { kind: 'free', seq, t: 0, provenance: 'simulated', id: seq, call };
}

// Calls at 1 (effects 2, 3), 4 (no effect), 5 (effect 6); history starts at seq 0 and ends at 6.
const EVENTS = [event(1), event(2, 1), event(3, 1), event(4), event(5), event(6, 5)];
const CALLS = [0, 3, 4];
const SPAN = { firstSeq: 0, lastSeq: 6 };

describe('CallEnds', () => {
  it('ends each call at its last effect, incrementally, re-reading the newest call', () => {
    const ends = new CallEnds();
    expect([...ends.update(EVENTS.slice(0, 5), CALLS)]).toEqual([3, 4, 5]);
    // The effect of the last call arrives in a later batch (a new array = a new history here).
    expect([...ends.update(EVENTS, CALLS)]).toEqual([3, 4, 6]);
    const growing = EVENTS.slice(0, 5);
    const shared = new CallEnds();
    shared.update(growing, CALLS);
    growing.push(event(6, 5));
    expect([...shared.update(growing, CALLS)]).toEqual([3, 4, 6]);
  });

  it('shares one cache per events array', () => {
    expect(callEndsOf(EVENTS, CALLS)).toBe(callEndsOf(EVENTS, CALLS));
  });
});

describe('stepping', () => {
  const ends = [3, 4, 6];
  it('finds the last call complete at a seq', () => {
    expect(callAtSeq(ends, 0)).toBe(-1);
    expect(callAtSeq(ends, 2)).toBe(-1);
    expect(callAtSeq(ends, 3)).toBe(0);
    expect(callAtSeq(ends, 5)).toBe(1);
    expect(callAtSeq(ends, 6)).toBe(2);
  });

  it('steps one call at a time: forward to the next end, back to the previous one, to live and to the start', () => {
    expect(stepCall(ends, 0, 1, SPAN)).toBe(3);
    expect(stepCall(ends, 3, 1, SPAN)).toBe(4);
    expect(stepCall(ends, 4, 1, SPAN)).toBe('live');
    expect(stepCall(ends, 6, -1, SPAN)).toBe(4);
    expect(stepCall(ends, 4, -1, SPAN)).toBe(3);
    expect(stepCall(ends, 3, -1, SPAN)).toBe(0);
    // From the middle of a call's effects, back is the previous call's end.
    expect(stepCall(ends, 2, -1, SPAN)).toBe(0);
    expect(stepCall(ends, 5, -1, SPAN)).toBe(4);
  });

  it('steps one event at a time', () => {
    expect(stepEvent(EVENTS, 0, 1, SPAN)).toBe(1);
    expect(stepEvent(EVENTS, 3, 1, SPAN)).toBe(4);
    expect(stepEvent(EVENTS, 5, 1, SPAN)).toBe('live');
    expect(stepEvent(EVENTS, 6, -1, SPAN)).toBe(5);
    expect(stepEvent(EVENTS, 1, -1, SPAN)).toBe(0);
  });

  it('plays from live by starting over at the first call, then call by call until live', () => {
    expect(playStep(ends, 'live', SPAN)).toEqual({ target: 3, done: false });
    expect(playStep(ends, 3, SPAN)).toEqual({ target: 4, done: false });
    expect(playStep(ends, 4, SPAN)).toEqual({ target: 'live', done: true });
    expect(playStep([], 'live', SPAN)).toEqual({ target: 'live', done: true });
  });

  it('walks a real history call by call from start to live', async () => {
    const scene = await startScene();
    for (let i = 0; i < 3; i += 1) await malloc(scene.rt, MiB, 0);
    scene.sync();
    const { timeline } = scene;
    const ends = callEndsOf(timeline.events, timeline.calls);
    const stops: number[] = [];
    let cursor: number | 'live' = timeline.firstSeq;
    while (cursor !== 'live') {
      const next = stepCall(ends, cursor, 1, timeline);
      if (next !== 'live') stops.push(timeline.stateAt(next).allocations.size);
      cursor = next;
    }
    // aclrtSetDevice, then each malloc adds one allocation; the last step is live.
    expect(stops).toEqual([0, 0, 1, 2]);
  });
});
