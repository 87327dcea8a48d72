import { describe, expect, it } from 'vitest';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import type { MemorySnapshot, TraceEntry } from '../../src/formats/snapshot-types.ts';
import { packEvents, TraceCall, type TraceCallFields, TraceCalls, unpackEvents } from '../../src/formats/trace-calls.ts';
import type { MemoryEvent } from '../../src/model/events.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { writePickle } from './pickle-writer.ts';
import { entriesOf, makeSnapshot } from './snapshot-fixtures.ts';

const MODEL = { profile: ASCEND_910B2, pageSize1g: false, name: 'job.pickle' };
const hex = (value: bigint) => (value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`);

function opened(flavour: 'torch_npu' | 'pytorch_cuda', seed: number): MemorySnapshot {
  const result = openMemoryFile(writePickle(makeSnapshot({ flavour, events: 2000, seed, devices: 2, liveTarget: 40 }).data), 'job.pickle');
  if (!result.ok || result.file.kind !== 'snapshot') throw new Error(result.ok ? result.file.kind : result.message);
  return result.file;
}

/** Every field a reader can see, read one by one (a class's getters are not own properties). */
function fieldsOf(event: MemoryEvent): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ['kind', 'pid', 'fn', 'args', 'ret', 'durationNs', 'seq', 't', 'provenance', 'call', 'message'] as const)
    fields[key] = (event as unknown as Record<string, unknown>)[key];
  return fields;
}

describe('trace calls in columns', () => {
  for (const flavour of ['torch_npu', 'pytorch_cuda'] as const) {
    it(`${flavour}: each entry's call reads back as the entry wrote it (action, address, size, stream, device, pool, time)`, () => {
      const snapshot = opened(flavour, flavour === 'torch_npu' ? 3 : 4);
      const session = importSnapshot(snapshot, MODEL);
      let checked = 0;
      snapshot.deviceTraces.forEach((trace, device) => {
        entriesOf(trace).forEach((entry, index) => {
          const seq = session.entrySeqs[device]?.[index] ?? 0;
          const event = session.events[seq - 1];
          if (event?.kind !== 'call') throw new Error(`entry ${device}:${index} has no call`);
          expect(event.seq).toBe(seq);
          expect(event.fn).toBe(entry.action);
          expect(event.provenance).toBe('observed');
          if (entry.action === 'oom') return;
          expect(event).toBeInstanceOf(TraceCall);
          const args = event.args;
          expect(args.addr).toBe(hex(entry.addr));
          expect(args.size).toBe(entry.size);
          expect(args.stream).toBe(hex(entry.stream));
          expect(args.device).toBe(device);
          expect(args.pool_id).toBe(entry.poolId);
          expect(args.time_us).toBe(entry.timeUs);
          // The keys in the order a plain event had them; absent fields are not there at all.
          const keys = ['addr', 'size', 'stream', 'device', 'modelAddr', 'pool_id', 'time_us'].filter(
            (key) => (key === 'pool_id' ? entry.poolId : key === 'time_us' ? entry.timeUs : args[key]) !== undefined,
          );
          expect(Object.keys(args)).toEqual(keys);
          checked += 1;
        });
      });
      expect(checked).toBeGreaterThan(1000);
      // Times never go back, and seqs are the events' places.
      session.events.forEach((event, i) => {
        expect(event.seq).toBe(i + 1);
        if (i > 0) expect(event.t).toBeGreaterThanOrEqual(session.events[i - 1]?.t ?? 0);
      });
    });
  }

  it('JSON of a trace call is the plain event, field for field', () => {
    const session = importSnapshot(opened('torch_npu', 5), MODEL);
    const call = session.events.find((event) => event instanceof TraceCall);
    if (call === undefined) throw new Error('no trace call');
    expect(JSON.parse(JSON.stringify(call))).toEqual(JSON.parse(JSON.stringify(fieldsOf(call))));
  });

  it('packed, cloned with transfer and unpacked, the events read the same and the columns moved', () => {
    const session = importSnapshot(opened('pytorch_cuda', 6), MODEL);
    const before = session.events.map(fieldsOf);
    const { packed, transfer } = packEvents(session.events);
    expect(packed.plain.length).toBeLessThan(session.events.length / 2);
    const received = structuredClone(packed, { transfer });
    expect(transfer.every((buffer) => buffer.byteLength === 0)).toBe(true);
    const events = unpackEvents(received);
    expect(events.length).toBe(session.events.length);
    events.forEach((event, i) => {
      expect(fieldsOf(event)).toEqual(before[i]);
    });
    // The columns sized for the file were handed on, not copied: the session's own calls now read nothing.
    const call = session.events.find((event) => event instanceof TraceCall);
    expect(call?.seq).toBe(0);
  });

  it("the session's own pack (what the worker sends) is packEvents of its events, without making them first", () => {
    for (const flavour of ['torch_npu', 'pytorch_cuda'] as const) {
      const reference = importSnapshot(opened(flavour, 7), MODEL);
      const want = reference.events.map(fieldsOf);
      const session = importSnapshot(opened(flavour, 7), MODEL);
      const { packed, transfer } = session.recorded.pack();
      expect(packed.traceAt.length).toBe(want.length);
      const events = unpackEvents(structuredClone(packed, { transfer }));
      expect(transfer.every((buffer) => buffer.byteLength === 0)).toBe(true);
      expect(events.map(fieldsOf)).toEqual(want);
      // Handed on: the session can neither be read as events nor take more.
      expect(() => session.events).toThrow(/after pack/);
    }
  });

  it('an address a column cannot hold exactly stays a plain event with its exact text', () => {
    const beyond = (1n << 64n) + 0x1000n;
    const entry = (action: TraceEntry['action'], addr: bigint, size: number): TraceEntry => ({
      action,
      addr,
      size,
      stream: 0n,
      timeUs: undefined,
      poolId: undefined,
      deviceFree: undefined,
      frames: [],
    });
    const snapshot: MemorySnapshot = {
      kind: 'snapshot',
      format: 'torch_npu',
      formatEvidence: 'test',
      segments: [],
      deviceTraces: [
        [
          entry('segment_alloc', beyond, 2 * 1024 * 1024),
          entry('alloc', beyond, 512),
          entry('segment_alloc', 0x2000_0000n, 2 * 1024 * 1024),
        ],
      ],
      allocatorSettings: undefined,
      hostSegments: undefined,
      hostTraces: undefined,
      otherKeys: [],
    };
    const session = importSnapshot(snapshot, MODEL);
    const calls = session.events.filter((event) => event.kind === 'call' && event.provenance === 'observed');
    expect(calls.map((call) => call.kind === 'call' && call.args.addr)).toEqual([hex(beyond), hex(beyond), '0x20000000']);
    expect(calls.map((call) => call instanceof TraceCall)).toEqual([false, false, true]);
    // Mixed, they still pack and unpack in order, by either packer.
    const addrs = session.events.map((event) => event.kind === 'call' && event.args.addr);
    const events = unpackEvents(structuredClone(packEvents(session.events).packed));
    expect(events.map((event) => event.kind === 'call' && event.args.addr)).toEqual(addrs);
    const again = unpackEvents(structuredClone(importSnapshot(snapshot, MODEL).recorded.pack().packed));
    expect(again.map((event) => event.kind === 'call' && event.args.addr)).toEqual(addrs);
  });

  it('grows past the capacity it was given, keeping every call', () => {
    const calls = new TraceCalls(0);
    const made: TraceCallFields[] = [];
    for (let i = 0; i < 100; i += 1) {
      const fields: TraceCallFields = {
        seq: i + 1,
        t: i * 1000,
        action: i % 2 === 0 ? 'alloc' : 'free_completed',
        device: i % 3,
        addr: 0xffff_ffff_ffff_f000n - BigInt(i),
        size: i * 512,
        stream: `0x${(i % 5).toString(16)}`,
        modelAddr: i % 4 === 0 ? undefined : 0x1000 * i,
        poolId: i % 7 === 0 ? `${i},0` : undefined,
        timeUs: i % 2 === 0 ? 1.5e12 + i : undefined,
      };
      expect(TraceCalls.fits(fields)).toBe(true);
      made.push(fields);
      calls.push(fields);
    }
    expect(calls.length).toBe(100);
    made.forEach((fields, i) => {
      const event = new TraceCall(calls, i);
      expect(event.seq).toBe(fields.seq);
      expect(event.t).toBe(fields.t);
      expect(event.fn).toBe(fields.action);
      expect(event.args).toEqual({
        addr: hex(fields.addr),
        size: fields.size,
        stream: fields.stream,
        device: fields.device,
        ...(fields.modelAddr === undefined ? {} : { modelAddr: `0x${fields.modelAddr.toString(16)}` }),
        ...(fields.poolId === undefined ? {} : { pool_id: fields.poolId }),
        ...(fields.timeUs === undefined ? {} : { time_us: fields.timeUs }),
      });
    });
  });

  it('a file naming a million streams packs and unpacks (no call spreads the texts as arguments)', () => {
    const calls = new TraceCalls(0);
    const n = 1_000_000;
    for (let i = 0; i < n; i += 1)
      calls.push({
        seq: i + 1,
        t: i,
        action: 'alloc',
        device: 0,
        addr: BigInt(i) * 512n,
        size: 512,
        stream: `0x${i.toString(16)}`,
        modelAddr: undefined,
        poolId: `${i},0`,
        timeUs: undefined,
      });
    const { parts } = calls.parts();
    expect(parts.streams).toHaveLength(n);
    const back = TraceCalls.from(parts);
    expect(new TraceCall(back, n - 1).args).toMatchObject({ stream: `0x${(n - 1).toString(16)}`, pool_id: `${n - 1},0` });
  });

  it('refuses what the columns cannot hold', () => {
    const fields: TraceCallFields = {
      seq: 1,
      t: 0,
      action: 'alloc',
      device: 0,
      addr: 0n,
      size: 1,
      stream: '0x0',
      modelAddr: undefined,
      poolId: undefined,
      timeUs: undefined,
    };
    expect(TraceCalls.fits(fields)).toBe(true);
    expect(TraceCalls.fits({ ...fields, addr: -1n })).toBe(false);
    expect(TraceCalls.fits({ ...fields, addr: 1n << 64n })).toBe(false);
    expect(TraceCalls.fits({ ...fields, device: 256 })).toBe(false);
    expect(TraceCalls.fits({ ...fields, seq: 2 ** 32 })).toBe(false);
    expect(TraceCalls.fits({ ...fields, modelAddr: 2 ** 60 })).toBe(false);
  });
});
