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

  it('a recording loaded with keyframes replays at most that many events for any jump, to the same states', async () => {
    const { start, events, prints } = await recorded(4000);
    const every = 700;
    const keyed = new Timeline(start, { keep: events.length, slack: 1000, keyframeEvery: every });
    keyed.append(events);
    const plain = new Timeline(start, { keep: events.length, slack: 1000 });
    plain.append(events);
    // Jumps in no particular order, the first one back from the end included.
    const seqs = [...prints.keys()].sort((a, b) => ((a * 7919) % 101) - ((b * 7919) % 101));
    seqs.unshift(events[events.length - 2]?.seq ?? 0);
    let most = 0;
    for (const seq of seqs) {
      expect(fingerprint(keyed.stateAt(seq)) === prints.get(seq) || !prints.has(seq), `seq ${seq}`).toBe(true);
      expect(fingerprint(keyed.stateAt(seq))).toBe(fingerprint(plain.stateAt(seq)));
      most = Math.max(most, keyed.lastReplay);
    }
    expect(most).toBeLessThan(every);
    // Without keyframes the first step back from the end replays from the start.
    const fresh = new Timeline(start, { keep: events.length, slack: 1000 });
    fresh.append(events);
    fresh.stateAt(events[events.length - 2]?.seq ?? 0);
    expect(fresh.lastReplay).toBeGreaterThan(events.length - every);
  });

  it('a recording handed over whole (appendRecording) is the same timeline as appended, its array kept, not copied', async () => {
    const { start, events, prints } = await recorded(3000);
    const limits = { keep: events.length, slack: 1000, keyframeEvery: 700 };
    const appended = new Timeline(start, limits);
    appended.append(events);
    const handed = new Timeline(start, limits);
    const given = [...events];
    expect(handed.appendRecording(given)).toBe(events.length);
    expect(handed.events).toBe(given);
    expect(handed.calls).toEqual(appended.calls);
    expect(handed.calls.length).toBeGreaterThan(1000);
    expect(fingerprint(handed.live)).toBe(fingerprint(appended.live));
    let most = 0;
    for (const seq of prints.keys()) {
      expect(fingerprint(handed.stateAt(seq))).toBe(fingerprint(appended.stateAt(seq)));
      most = Math.max(most, handed.lastReplay);
    }
    // Its keyframes were kept as it went.
    expect(most).toBeLessThan(700);
    // Not a fresh timeline, or not in order: appended as any events are.
    const again = new Timeline(start, limits);
    again.append(events.slice(0, 10));
    again.appendRecording(events);
    expect(again.events).toHaveLength(events.length);
    expect(again.calls).toEqual(appended.calls);
    const repeated = new Timeline(start, limits);
    const twice = [events[0], ...events] as MemoryEvent[];
    expect(repeated.appendRecording(twice)).toBe(events.length);
    expect(repeated.events).not.toBe(twice);
    expect(repeated.events).toEqual(events);
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

  it('keeps a bounded history: the oldest events fold into the base, and every seq still held replays exactly', async () => {
    const { host, start, events, prints } = await recorded(3000);
    const timeline = new Timeline(start, { keep: 1000, slack: 400 });
    for (let at = 0; at < events.length; at += 97) timeline.append(events.slice(at, at + 97));
    expect(timeline.events.length).toBeGreaterThanOrEqual(1000);
    expect(timeline.events.length).toBeLessThan(1400);
    const first = timeline.events[0]?.seq ?? 0;
    expect(timeline.firstSeq).toBe(first - 1);
    expect(fingerprint(timeline.live)).toBe(fingerprint(host.state));
    let compared = 0;
    for (const [seq, print] of prints) {
      if (seq < timeline.firstSeq) continue;
      expect(fingerprint(timeline.stateAt(seq)) === print, `seq ${seq}`).toBe(true);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(2);
    // Before the history held, time travel stops at the oldest state it can still show.
    expect(timeline.stateAt(0).seq).toBe(timeline.firstSeq);
    for (const index of timeline.calls) expect(timeline.events[index]?.kind).toBe('call');
    expect(timeline.calls.length).toBe(timeline.events.filter((event) => event.kind === 'call').length);
  });

  it('tells only the part of a story still held, with indices that follow the folding', async () => {
    const { start, events } = await recorded(900);
    const timeline = new Timeline(start, { keep: 300, slack: 100 });
    timeline.append(events);
    const last = timeline.events.findLast((event) => event.kind === 'alloc');
    if (last?.kind !== 'alloc') throw new Error('no allocation held');
    expect(timeline.story(last.id).map((event) => event.kind)).toContain('alloc');
    const early = events.find((event) => event.kind === 'alloc');
    if (early?.kind !== 'alloc') throw new Error('no allocation');
    expect(timeline.story(early.id)).toEqual([]);
    expect(timeline.eventAtSeq(early.seq)).toBeUndefined();
    expect(timeline.eventAtSeq(last.seq)).toBe(last);
  });

  it('a story asked for early grows with the events that arrive later', async () => {
    const { start, events } = await recorded(6);
    const timeline = new Timeline(start);
    const alloc = events.find((e) => e.kind === 'alloc');
    if (alloc?.kind !== 'alloc') throw new Error('no allocation');
    const cut = events.indexOf(alloc) + 1;
    timeline.append(events.slice(0, cut));
    expect(timeline.story(alloc.id).map((e) => e.kind)).toEqual(['call', 'alloc']);
    timeline.append(events.slice(cut));
    expect(timeline.story(alloc.id).map((e) => (e.kind === 'call' ? `call:${e.fn}` : e.kind))).toEqual([
      'call:aclrtMalloc',
      'alloc',
      'call:aclrtFree',
      'free',
    ]);
  });
});
