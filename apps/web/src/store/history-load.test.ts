import { ASCEND_910B2, encodeSnapshot, fingerprint, type MemoryEvent, SimHost, SimRuntime, type Snapshot } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { callAtSeq, callEndsOf, stepCall } from '../model/time-travel/call-steps.ts';
import { createAppStore } from './app-store.ts';

/** A host that made `calls` calls; its snapshot at any point and every event it emitted. */
async function session(calls: number) {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const start = encodeSnapshot(host.state);
  const events: MemoryEvent[] = [];
  const prints = new Map<number, string>();
  host.subscribe((batch) => {
    events.push(...batch);
    prints.set(host.state.seq, fingerprint(host.state));
  });
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  for (let i = 0; i < calls - 2; i += 1) await rt.aclrtMalloc({ size: 4096 * (i + 1), policy: i % 3 });
  return { host, start, events, prints };
}

/** Pages of at most `size` events, as the agent cuts them. */
function pages(events: readonly MemoryEvent[], size: number): MemoryEvent[][] {
  const out: MemoryEvent[][] = [];
  for (let i = 0; i < events.length; i += size) out.push(events.slice(i, i + size));
  return out;
}

describe('a late joiner builds its timeline from base + history + live', () => {
  it('after 19 calls: the same events, seqs and calls as a client that was there, and time travel to call 1', async () => {
    const { host, start, events, prints } = await session(19);
    // The client that was there all along.
    const driver = createAppStore();
    driver.getState().applySnapshot(start, false);
    driver.getState().applyEvents(events);
    // The late joiner: the snapshot now, then the history in pages, while live events keep coming.
    const viewer = createAppStore();
    const now: Snapshot = encodeSnapshot(host.state);
    const history = events.slice();
    viewer.getState().applySnapshot(now, false);
    expect(viewer.getState().timeline?.calls).toHaveLength(0);
    viewer.getState().beginHistory({ from: start.seq, to: now.seq, events: history.length, callsBefore: 0 });
    expect(viewer.getState().history).toEqual({ total: history.length, received: 0, callsBefore: 0 });
    viewer.getState().applyHistoryBase(start.seq, start);
    const chunks = pages(history, 7);
    const received: number[] = [];
    for (const [i, chunk] of chunks.entries()) {
      if (i === 1) {
        // A live call happens while the history arrives: both clients get its events live.
        await new SimRuntime(host).aclrtMalloc({ size: 1 << 20, policy: 0 });
        const live = events.slice(history.length);
        expect(live.length).toBeGreaterThan(1);
        viewer.getState().applyEvents(live);
        driver.getState().applyEvents(live);
        // The views show the live state at once; time travel does not reach back yet.
        expect(viewer.getState().timeline?.calls).toHaveLength(1);
      }
      viewer.getState().applyHistoryPage(chunk[0]?.seq ?? 0, chunk);
      received.push(viewer.getState().history?.received ?? -1);
    }
    // Progress went up page by page; the last page put the history in front of the live timeline.
    expect(received.slice(0, -1)).toEqual(chunks.slice(0, -1).map((_, i) => Math.min(history.length, (i + 1) * 7)));
    expect(viewer.getState().history).toBeUndefined();
    const timeline = viewer.getState().timeline;
    if (timeline === undefined) throw new Error('no timeline');
    expect(timeline.events.map((e) => e.seq)).toEqual(driver.getState().timeline?.events.map((e) => e.seq));
    expect(timeline.calls).toEqual(driver.getState().timeline?.calls);
    expect(timeline.calls).toHaveLength(20);
    expect(timeline.lastSeq).toBe(host.state.seq);
    expect(timeline.firstSeq).toBe(start.seq);
    // Call 1 (aclInit): the state right after it, as the simulator had it.
    const ends = callEndsOf(timeline.events, timeline.calls);
    const target = stepCall(ends, timeline.firstSeq, 1, timeline);
    if (target === 'live') throw new Error('no first call');
    viewer.getState().setCursor(target);
    expect(callAtSeq(ends, target) + 1).toBe(1);
    expect(fingerprint(timeline.stateAt(target))).toBe(prints.get(target));
    expect(timeline.eventAtSeq(timeline.events[timeline.calls[0] ?? 0]?.seq ?? -1)).toMatchObject({ kind: 'call', fn: 'aclInit' });
  });

  it('live events that arrive after the history holds: it waits for the live stream, then adopts', async () => {
    const { host, start, events } = await session(6);
    const viewer = createAppStore();
    // The snapshot is at the end of the history; the live stream since it comes later.
    const now = encodeSnapshot(host.state);
    viewer.getState().applySnapshot(now, false);
    viewer.getState().beginHistory({ from: start.seq, to: now.seq, events: events.length, callsBefore: 3 });
    viewer.getState().applyHistoryBase(start.seq, start);
    viewer.getState().applyHistoryPage(events[0]?.seq ?? 0, events);
    const timeline = viewer.getState().timeline;
    expect(timeline?.events).toHaveLength(events.length);
    // Calls before the held history are counted (the agent's cap).
    expect(timeline?.callsBefore).toBe(3);
  });

  it('a reset or a new snapshot drops a history still arriving; a page that does not follow abandons it', async () => {
    const { host, start, events } = await session(8);
    const viewer = createAppStore();
    const now = encodeSnapshot(host.state);
    viewer.getState().applySnapshot(now, false);
    const announce = { from: start.seq, to: now.seq, events: events.length, callsBefore: 0 };
    viewer.getState().beginHistory(announce);
    viewer.getState().applyHistoryBase(start.seq, start);
    viewer.getState().applyHistoryPage(events[0]?.seq ?? 0, events.slice(0, 5));
    viewer.getState().applySnapshot(now, true);
    expect(viewer.getState().history).toBeUndefined();
    // Pages of the dropped history change nothing.
    viewer.getState().applyHistoryPage(events[5]?.seq ?? 0, events.slice(5));
    expect(viewer.getState().timeline?.events).toHaveLength(0);
    // A gap abandons the load rather than building a wrong past.
    viewer.getState().beginHistory(announce);
    viewer.getState().applyHistoryBase(start.seq, start);
    viewer.getState().applyHistoryPage(events[3]?.seq ?? 0, events.slice(3));
    expect(viewer.getState().history).toBeUndefined();
    expect(viewer.getState().timeline?.events).toHaveLength(0);
    // An empty history with calls folded away says where history starts.
    viewer.getState().beginHistory({ from: now.seq, to: now.seq, events: 0, callsBefore: 12 });
    expect(viewer.getState().timeline?.callsBefore).toBe(12);
  });
});
