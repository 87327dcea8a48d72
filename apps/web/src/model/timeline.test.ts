import { ASCEND_910B2, encodeSnapshot, fingerprint, type Hex, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_EVERY, Timeline } from './timeline.ts';

async function recorded(calls: number) {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const start = encodeSnapshot(host.state);
  const events: MemoryEvent[] = [];
  const prints = new Map<number, string>();
  let batches = 0;
  host.subscribe((batch) => {
    events.push(...batch);
    // A fingerprint of every 150th state is plenty to compare replays against.
    if (batches++ % 150 === 0) prints.set(host.state.seq, fingerprint(host.state));
  });
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const live: Hex[] = [];
  for (let i = 0; i < calls; i += 1) {
    if (i % 3 === 2 && live.length > 0) await rt.aclrtFree({ devPtr: live.shift() ?? '0x0' });
    else {
      const { devPtr } = await rt.aclrtMalloc({ size: 4096 * ((i % 7) + 1) + (i % 5) * 1024 * 1024, policy: i % 3 });
      if (devPtr !== undefined) live.push(devPtr);
    }
  }
  return { host, start, events, prints };
}

describe('Timeline', () => {
  it('replays to any seq and matches the state the simulator had then', async () => {
    const { start, events, prints } = await recorded(4000);
    const timeline = new Timeline(start);
    timeline.append(events.slice(0, 100));
    timeline.append(events.slice(50));
    expect(timeline.events).toHaveLength(events.length);
    for (const seq of prints.keys()) {
      expect(fingerprint(timeline.stateAt(seq)) === prints.get(seq), `seq ${seq}`).toBe(true);
    }
    expect(events.length).toBeGreaterThan(CHECKPOINT_EVERY);
  });

  it('going back and forth reuses checkpoints and never changes the live state', async () => {
    const { host, start, events } = await recorded(3000);
    const timeline = new Timeline(start);
    timeline.append(events);
    const live = fingerprint(timeline.live);
    const early = timeline.stateAt(events[10]?.seq ?? 0);
    expect(early.allocations.size).toBeLessThan(host.state.allocations.size + 1);
    timeline.stateAt(events[events.length - 20]?.seq ?? 0);
    timeline.stateAt(events[200]?.seq ?? 0);
    expect(fingerprint(timeline.live)).toBe(live);
    expect(fingerprint(timeline.live)).toBe(fingerprint(host.state));
  });

  it('tells the story of an object: the call that made it, the event, the call that freed it', async () => {
    const { start, events } = await recorded(6);
    const timeline = new Timeline(start);
    timeline.append(events);
    const alloc = events.find((e) => e.kind === 'alloc');
    if (alloc?.kind !== 'alloc') throw new Error('no allocation');
    const story = timeline.story(alloc.id).map((e) => (e.kind === 'call' ? `call:${e.fn}` : e.kind));
    expect(story).toEqual(['call:aclrtMalloc', 'alloc', 'call:aclrtFree', 'free']);
  });
});
