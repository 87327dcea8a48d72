import { describe, expect, it } from 'vitest';
import { readMemScopeDump } from '../../src/formats/memscope-session.ts';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { HOST_PID, toChromeTrace } from '../../src/formats/perfetto.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import type { MemorySnapshot } from '../../src/formats/snapshot-types.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { type Py, writePickle } from './pickle-writer.ts';
import { A, B, C, HOST_TRACE, PINNED_HOST_DATA } from './pinned-host-fixture.ts';

/**
 * Pinned host memory a file recorded, from the pickle to `stats`, the Perfetto export and the
 * session's host buffers. The expected figures are worked out here from the literal the file is
 * written from, not from the code under test.
 */
const MiB = 1024 * 1024;
const MODEL = { profile: ASCEND_910B2, pageSize1g: false };

function snapshot(): MemorySnapshot {
  const opened = openMemoryFile(writePickle(PINNED_HOST_DATA), 'pinned.pickle');
  if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error('the pickle did not open');
  return opened.file;
}

describe('pinned host memory of a snapshot: host_segments and host_traces', () => {
  const file = snapshot();

  it('stats: the host segments and bytes of the final state and the host trace by action', () => {
    expect(snapshotStats(file, MODEL).host).toEqual({
      segments: 2,
      reservedBytes: 6 * MiB,
      traceEvents: 7,
      actions: {
        alloc: 2,
        free_requested: 1,
        free_completed: 1,
        segment_alloc: 2,
        segment_free: 1,
        segment_map: 0,
        segment_unmap: 0,
        snapshot: 0,
        oom: 0,
        workspace_snapshot: 0,
      },
    });
  });

  it('a file without host keys has no host figures', () => {
    expect(snapshotStats({ ...file, hostSegments: undefined, hostTraces: undefined }, MODEL).host).toBeUndefined();
  });

  it('Perfetto: a host process whose counters follow the host trace from before its start to the final host segments', () => {
    const events = JSON.parse(JSON.stringify(toChromeTrace(file, MODEL))).traceEvents as {
      name: string;
      ph: string;
      ts: number;
      pid: number;
      args: Record<string, number | string>;
    }[];
    const samples = events.filter((e) => e.pid === HOST_PID && e.ph === 'C').map((e) => [e.ts, e.args.reserved, e.args.allocated]);
    // C was live before the trace began (2 MiB reserved); A and B come and go as the trace says.
    expect(samples).toEqual([
      [110, 2 * MiB, 0],
      [110, 6 * MiB, 0],
      [120, 6 * MiB, MiB],
      [130, 14 * MiB, MiB],
      [140, 14 * MiB, 4 * MiB],
      [150, 14 * MiB, MiB],
      [160, 14 * MiB, MiB],
      [170, 6 * MiB, MiB],
    ]);
    const instants = events.filter((e) => e.pid === HOST_PID && e.ph === 'i');
    expect(instants.map((e) => e.name)).toEqual(HOST_TRACE.map((e) => e.action));
    expect(instants[0]?.args).toEqual({ size: 4 * MiB, address: `0x${A.toString(16)}`, stack: 'pin_memory (loader.py:12)' });
    expect(events.find((e) => e.pid === HOST_PID && e.ph === 'M')?.args.name).toBe('host (pinned memory)');
  });

  it('the session: each host segment is a pinned host buffer, live as the trace says, among the device calls by time', () => {
    const session = importSnapshot(file, { ...MODEL, name: 'pinned.pickle' });
    expect(session.inconsistent).toBe(0);
    const live = [...session.final.hostBuffers.values()].map((b) => [b.addr, b.size, b.memory, b.fn]);
    expect(live).toEqual([
      [C, 2 * MiB, 'pinned', 'aclrtMallocHost'],
      [A, 4 * MiB, 'pinned', 'aclrtMallocHost'],
    ]);
    const order = session.events
      .filter((e) => e.kind === 'hostAlloc' || e.kind === 'hostFree' || e.kind === 'alloc')
      .map((e) => (e.kind === 'hostAlloc' ? `host ${e.size / MiB}` : e.kind));
    // C first (before the trace); the device's segment at 100 µs, A at 110, the device block at 125, B at 130.
    expect(order).toEqual(['host 2', 'alloc', 'host 4', 'host 8', 'hostFree']);
  });
});

describe('pinned host memory of an msMemScope dump', () => {
  const HEADER = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
  const row = (id: number, event: string, dt: number, ptr: number, attr: string): string =>
    `${id},${event},HOST,N/A,${1732000000000000000n + BigInt(dt)},1,1,host,0x${ptr.toString(16)},"{${attr}}",,`;
  const dump = readMemScopeDump(
    [
      HEADER,
      row(1, 'MALLOC', 0, A, `size:${4 * MiB},pinned:true`),
      row(2, 'MALLOC', 1000, B, `size:${MiB},pinned:true`),
      row(3, 'FREE', 2000, A, 'size:0'),
    ].join('\n'),
  );

  it('the pinned buffers still live at the end are its final host segments, and stats counts them', () => {
    expect(dump.snapshot.hostSegments?.map((s) => [s.address, s.totalSize])).toEqual([[BigInt(B), MiB]]);
    const host = snapshotStats(dump.snapshot, MODEL).host;
    expect([host?.segments, host?.reservedBytes, host?.traceEvents, host?.actions.segment_alloc, host?.actions.segment_free]).toEqual([
      1,
      MiB,
      3,
      2,
      1,
    ]);
    const session = importSnapshot(dump.snapshot, { ...MODEL, name: 'memscope_dump.csv' });
    expect([...session.final.hostBuffers.values()].map((b) => [b.addr, b.size])).toEqual([[B, MiB]]);
    expect(session.inconsistent).toBe(0);
  });
});

describe('hostile or damaged host entries', () => {
  const open = (hostTraces: Py) => openMemoryFile(writePickle({ segments: [], device_traces: [], host_traces: hostTraces }), 'x.pickle');
  const refusal = (hostTraces: Py): string => {
    const opened = open(hostTraces);
    return opened.ok ? 'opened' : opened.message;
  };

  it('are refused with where and what was expected', () => {
    expect(refusal('x')).toBe('host_traces: expected a list, found a str');
    expect(refusal(['x'])).toBe('host_traces[0]: expected a dict, found a str');
    expect(refusal([{ action: 'explode', addr: 1, size: 1 }])).toMatch(/^host_traces\[0\]\.action: "explode" is not a trace action/);
    expect(refusal([{ action: 'segment_alloc', addr: 1, size: -5 }])).toBe(
      'host_traces[0].size: expected a non-negative int, found an int',
    );
  });

  it('an address the model cannot hold stays in the log and makes no buffer', () => {
    const opened = open([{ action: 'segment_alloc', addr: 2n ** 70n, size: 4096, stream: 0 }]);
    if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error('did not open');
    const session = importSnapshot(opened.file, { ...MODEL, name: 'x.pickle' });
    expect(session.pinnedHost).toEqual({ entries: 1, live: 0 });
    expect(session.final.hostBuffers.size).toBe(0);
    expect(session.events.some((e) => e.kind === 'call' && e.args.host === true && e.args.addr === `0x${(2n ** 70n).toString(16)}`)).toBe(
      true,
    );
  });
});
