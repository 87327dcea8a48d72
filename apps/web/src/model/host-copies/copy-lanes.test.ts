import type { CopyRecord, HostState, MemoryEvent } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { copyScene } from '../../../test/host-copies-scene.ts';
import { copyAt, HostWaitIndex, hostBusyAt, layoutCopies, overlapping, waitsUpTo } from './copy-lanes.ts';

function copy(over: Partial<CopyRecord>): CopyRecord {
  return {
    seq: 1,
    id: 1,
    pid: 10,
    fn: 'aclrtMemcpy',
    memcpyKind: 1,
    dst: 0,
    src: 0,
    bytes: 1024,
    device: 0,
    mode: 'sync',
    path: 'pinned',
    submit: 0,
    start: 0,
    end: 100,
    bytesPerSec: 1e9,
    stages: 0,
    ...over,
  };
}

const noStreams: HostState['streams'] = new Map();

describe('copy lanes', () => {
  it('lays out only the filtered process: its lanes, copies and waits; the others get lane -1', () => {
    const copies = [
      copy({ id: 1, pid: 10 }),
      copy({ id: 2, pid: 11, submit: 500, start: 500, end: 900 }),
      copy({ id: 3, pid: 10, start: 100, end: 200 }),
    ];
    const waits = [
      { seq: 5, pid: 11, start: 900, end: 2000 },
      { seq: 6, pid: 10, start: 200, end: 300 },
    ];
    const all = layoutCopies(copies, noStreams, waits);
    expect(all.lanes.map((lane) => lane.pid)).toEqual([10, 11]);
    expect(all.t1).toBe(2000);
    const only = layoutCopies(copies, noStreams, waits, [], 10);
    expect(only.lanes.map((lane) => `${lane.kind} ${lane.pid}`)).toEqual(['host 10']);
    expect([...only.laneOf]).toEqual([0, -1, 0]);
    expect(only.byLane.map((list) => [...list])).toEqual([[0, 2]]);
    expect(only.busy.map((busy) => busy.cause)).toEqual(['sync-copy', 'sync-copy', 'synchronize']);
    expect([only.t0, only.t1]).toEqual([0, 300]);
    expect(layoutCopies(copies, noStreams, waits, [], 12).lanes).toEqual([]);
  });

  it('puts synchronous copies on the host lane and stream copies on their stream lane, host lane first', async () => {
    const scene = await copyScene();
    const { copies, streams } = scene.host.state;
    const layout = layoutCopies(copies, streams, []);
    const [first, second] = [...streams.values()].filter((s) => !s.isDefault).map((s) => s.id);
    const defaultStream = [...streams.values()].find((s) => s.isDefault)?.id;
    expect(layout.lanes.map((l) => (l.kind === 'host' ? 'host' : `${l.isDefault ? 'default' : 'stream'} ${l.stream}`))).toEqual([
      'host',
      `default ${defaultStream}`,
      `stream ${first}`,
      `stream ${second}`,
    ]);
    const laneName = (i: number) => {
      const lane = layout.lanes[layout.laneOf[i] ?? -1];
      return lane?.kind === 'host' ? 'host' : `stream ${lane?.stream}`;
    };
    expect(copies.map((c, i) => `${c.fn} ${c.mode} → ${laneName(i)}`)).toEqual([
      'aclrtMemcpy sync → host',
      'aclrtMemcpy sync → host',
      `aclrtMemcpyAsync async → stream ${first}`,
      'aclrtMemcpy sync → host',
      `aclrtMemcpyAsync async-blocking → stream ${first}`,
      `aclrtMemcpyAsync async → stream ${first}`,
      `aclrtMemcpyAsync async → stream ${first}`,
      `aclrtMemcpyAsync async → stream ${second}`,
    ]);
    // byLane lists every copy once, ordered by start.
    const listed = layout.byLane.flatMap((list) => [...list]).sort((a, b) => a - b);
    expect(listed).toEqual(copies.map((_, i) => i));
    for (const list of layout.byLane) {
      const starts = [...list].map((i) => copies[i]?.start ?? 0);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
  });

  it('HM-3: the host lane is busy during sync and blocking copies and synchronize, free during async copies', async () => {
    const scene = await copyScene();
    const { copies, streams } = scene.host.state;
    const waits = new HostWaitIndex().update(scene.events);
    const layout = layoutCopies(copies, streams, waits);
    expect(layout.busy.map((b) => b.cause)).toEqual(['sync-copy', 'sync-copy', 'sync-copy', 'blocking-copy', 'synchronize', 'synchronize']);
    const asyncPinned = copies[2];
    const syncD2h = copies[3];
    expect([asyncPinned?.mode, syncD2h?.mode]).toEqual(['async', 'sync']);
    if (asyncPinned === undefined || syncD2h === undefined) return;
    // The async copy and the sync one move bytes at the same time (different links), on different lanes.
    expect(overlapping(copies, 2)).toContain(3);
    expect(layout.laneOf[2]).not.toBe(layout.laneOf[3]);
    // While the async copy runs the host thread is busy only because of the sync copy it issued next.
    expect(hostBusyAt(layout, scene.pid, asyncPinned.start + 1)?.copy).toBe(3);
    // The last async copies leave the host free until the device synchronize.
    const last = copies[7];
    expect(hostBusyAt(layout, scene.pid, (last?.submit ?? 0) + 1)?.cause).toBe('synchronize');
    const afterAll = layout.t1 + 1;
    expect(hostBusyAt(layout, scene.pid, afterAll)).toBeUndefined();
  });

  it('an async copy alone leaves the host free; a blocking one holds it from submit to end', () => {
    const free = layoutCopies([copy({ mode: 'async', stream: 3, submit: 0, start: 50, end: 200 })], noStreams, []);
    expect(hostBusyAt(free, 10, 100)).toBeUndefined();
    const blocked = layoutCopies([copy({ mode: 'async-blocking', stream: 3, submit: 0, start: 50, end: 200 })], noStreams, []);
    expect(hostBusyAt(blocked, 10, 10)?.cause).toBe('blocking-copy');
    expect(hostBusyAt(blocked, 10, 199)?.cause).toBe('blocking-copy');
    expect(hostBusyAt(blocked, 10, 200)).toBeUndefined();
  });

  it('keeps a lane for a destroyed stream and one host lane per process, in pid order', () => {
    const layout = layoutCopies(
      [copy({ pid: 20, id: 1 }), copy({ pid: 10, id: 2, stream: 9, mode: 'async' }), copy({ pid: 10, id: 3 })],
      noStreams,
      [],
    );
    expect(layout.lanes.map((l) => `${l.pid}:${l.kind}${l.stream ?? ''}:${l.alive}`)).toEqual([
      '10:host:true',
      '10:stream9:false',
      '20:host:true',
    ]);
    expect([...layout.laneOf]).toEqual([2, 1, 0]);
  });

  it('extent covers submits, ends and waits; empty input gives an empty layout', () => {
    const layout = layoutCopies([copy({ submit: 100, start: 150, end: 300 })], noStreams, [{ seq: 5, pid: 10, start: 300, end: 900 }]);
    expect([layout.t0, layout.t1]).toEqual([100, 900]);
    const empty = layoutCopies([], noStreams, []);
    expect([empty.lanes.length, empty.t0, empty.t1]).toEqual([0, 0, 0]);
  });

  it('collects synchronize waits incrementally and restarts on a new event list', () => {
    const sync = (seq: number, t: number, until: number): MemoryEvent => ({
      kind: 'sync',
      seq,
      t,
      pid: 1,
      until,
      provenance: 'simulated',
      stream: 4,
    });
    const events: MemoryEvent[] = [sync(1, 0, 10), sync(2, 10, 10)];
    const index = new HostWaitIndex();
    expect(index.update(events).map((w) => w.seq)).toEqual([1]);
    events.push(sync(3, 20, 50));
    expect(index.update(events).map((w) => [w.seq, w.start, w.end, w.stream])).toEqual([
      [1, 0, 10, 4],
      [3, 20, 50, 4],
    ]);
    expect(index.update([sync(9, 0, 5)]).map((w) => w.seq)).toEqual([9]);
    const waits = index.update(events);
    expect(waitsUpTo(waits, 2).map((w) => w.seq)).toEqual([1]);
    expect(waitsUpTo(waits, 0)).toEqual([]);
    expect(waitsUpTo(waits, 99)).toBe(waits);
  });

  it('hit-tests a bar, its queued wait, and thin bars with slack', () => {
    const copies = [
      copy({ id: 1, start: 0, end: 100 }),
      copy({ id: 2, submit: 50, start: 100, end: 200 }),
      copy({ id: 3, start: 500, end: 501 }),
    ];
    const layout = layoutCopies(copies, noStreams, []);
    expect(copyAt(layout, copies, 0, 60, 2)).toBe(0); // inside bar 1 beats the wait of bar 2
    expect(copyAt(layout, copies, 0, 150, 2)).toBe(1);
    expect(copyAt(layout, copies, 0, 503, 4)).toBe(2);
    expect(copyAt(layout, copies, 0, 520, 4)).toBeUndefined();
    expect(copyAt(layout, copies, 3, 60, 2)).toBeUndefined();
  });
});
