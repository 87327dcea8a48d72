import { type MemoryEvent, toHex } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { eventScene } from '../../../test/event-scene.ts';
import { HostWaitIndex, layoutCopies } from './copy-lanes.ts';
import { EventMarkIndex, markAt, marksUpTo } from './event-marks.ts';

describe('event marks', () => {
  it('puts a record on its stream at completion and a wait on the waiting stream, from that record (EV-2, EV-3)', async () => {
    const { host, events, aclEvents } = await eventScene();
    const marks = new EventMarkIndex().update(events);
    const done = [...host.state.aclEvents.values()].find((event) => toHex(event.handle) === aclEvents.done);
    const copy = host.state.copies[0];
    if (done === undefined || copy === undefined) throw new Error('scene incomplete');
    expect(marks.map((mark) => mark.kind)).toEqual(['record', 'wait']);
    const [record, wait] = marks;
    expect(record).toMatchObject({ event: done.id, handle: done.handle, stream: copy.stream, at: copy.end, rule: 'EV-2', device: 0 });
    expect(wait).toMatchObject({ event: done.id, at: copy.end, rule: 'EV-3', from: { stream: copy.stream, at: copy.end } });
    expect(wait?.stream).not.toBe(copy.stream);
  });

  it('reads only new events, starts over on a new list, and forgets a reset record', () => {
    const base = { t: 0, provenance: 'simulated' } as const;
    const list: MemoryEvent[] = [
      { ...base, seq: 1, kind: 'streamCreate', pid: 7, device: 1, id: 2, handle: 0x20, isDefault: false },
      { ...base, seq: 2, kind: 'eventCreate', pid: 7, device: 1, context: 1, id: 3, handle: 0x30, flags: 0x0e, ex: false },
      { ...base, seq: 3, kind: 'eventRecord', id: 3, stream: 2, at: 500 },
    ];
    const index = new EventMarkIndex();
    expect(index.update(list)).toHaveLength(1);
    list.push(
      { ...base, seq: 4, kind: 'eventReset', id: 3 },
      { ...base, seq: 5, kind: 'eventWait', id: 3, stream: 2, until: 0 },
      // An event whose creation predates the list: known by its stream's process and device.
      { ...base, seq: 6, kind: 'eventRecord', id: 9, stream: 2, at: 800 },
    );
    const marks = index.update(list);
    expect(marks.map((mark) => `${mark.kind} ${mark.seq}`)).toEqual(['record 3', 'wait 5', 'record 6']);
    expect(marks[1]?.from).toBeUndefined();
    expect(marks[2]).toMatchObject({ handle: 0, pid: 7, device: 1 });
    expect(marksUpTo(marks, 4).map((mark) => mark.seq)).toEqual([3]);
    expect(marksUpTo(marks, 99)).toBe(marks);
    expect(index.update(list.slice(0, 3))).toHaveLength(1);
  });

  it('marks a value write where the word is set and a met wait with an arrow from it; an unmet wait has none (CP-12)', () => {
    const base = { t: 0, provenance: 'simulated' } as const;
    const list: MemoryEvent[] = [
      { ...base, seq: 1, kind: 'streamCreate', pid: 7, device: 1, id: 2, handle: 0x20, isDefault: false },
      { ...base, seq: 2, kind: 'streamCreate', pid: 7, device: 1, id: 4, handle: 0x40, isDefault: false },
      { ...base, seq: 3, kind: 'valueWrite', pid: 7, stream: 2, device: 1, addr: 0x1000, value: 5, at: 900 },
      { ...base, seq: 4, kind: 'valueWait', pid: 7, stream: 4, addr: 0x1000, value: 5, flag: 1, met: true, until: 900, reasons: [] },
      {
        ...base,
        seq: 5,
        kind: 'valueWait',
        pid: 7,
        stream: 4,
        addr: 0x2000,
        value: 1,
        flag: 1,
        met: false,
        until: 900,
        reasons: [{ code: 'value-wait-unmet', rules: ['CP-12'] }],
      },
    ];
    const marks = new EventMarkIndex().update(list);
    expect(marks.map((mark) => [mark.kind, mark.stream, mark.at, mark.rule, mark.device])).toEqual([
      ['valueWrite', 2, 900, 'CP-12', 1],
      ['valueWait', 4, 900, 'CP-12', 1],
      ['valueWait', 4, 900, 'CP-12', 1],
    ]);
    expect(marks[0]).toMatchObject({ event: -1, value: { addr: 0x1000, value: 5, observed: false } });
    expect(marks[1]?.from).toEqual({ stream: 2, at: 900 });
    expect(marks[2]?.from).toBeUndefined();
    // On a real runtime a wait is only a call: no arrow from a write PageLens would have to guess.
    const observed = list.map((event) => ({ ...event, provenance: 'observed' as const }));
    const real = new EventMarkIndex().update(observed);
    expect(real[1]).toMatchObject({ kind: 'valueWait', value: { observed: true } });
    expect(real[1]?.from).toBeUndefined();
  });

  it('gives marks lanes (a destroyed stream keeps one), stretches the time span, and hit-tests them', async () => {
    const { host, events } = await eventScene();
    const marks = new EventMarkIndex().update(events);
    const layout = layoutCopies([], host.state.streams, [], marks);
    expect(layout.marks).toHaveLength(2);
    const [record, wait] = layout.marks;
    if (record === undefined || wait === undefined) throw new Error('two marks expected');
    expect(layout.lanes[record.lane]).toMatchObject({ kind: 'stream', stream: record.mark.stream });
    expect(layout.lanes[wait.lane]).toMatchObject({ kind: 'stream', stream: wait.mark.stream });
    expect(wait.fromLane).toBe(record.lane);
    expect(layout.t1).toBe(record.mark.at);
    expect(markAt(layout.marks, record.lane, record.mark.at + 10, 20)).toBe(0);
    expect(markAt(layout.marks, record.lane, record.mark.at + 30, 20)).toBeUndefined();
    expect(markAt(layout.marks, wait.lane, wait.mark.at, 1)).toBe(1);
    // The created context's default stream says whose it is; the device's NULL stream does not (CX-1).
    const created = [...host.state.contexts.values()].find((context) => !context.isDefault);
    const defaults = layout.lanes.filter((entry) => entry.isDefault);
    expect(defaults.map((entry) => entry.ownerContext)).toEqual([undefined, created?.id]);
    const gone = layoutCopies([], new Map(), [], marks);
    expect(gone.lanes.filter((lane) => lane.kind === 'stream').every((lane) => !lane.alive)).toBe(true);
    expect(gone.marks).toHaveLength(2);
  });

  it('names the call a host wait comes from: aclrtSynchronizeEvent waits for the captured work (EV-4)', async () => {
    const { rt, events, aclEvents } = await eventScene();
    await rt.aclrtSynchronizeEvent({ event: aclEvents.done });
    const waits = new HostWaitIndex().update(events);
    expect(waits.map((wait) => wait.fn)).toEqual(['aclrtSynchronizeEvent']);
    const layout = layoutCopies([], new Map(), waits, []);
    expect(layout.busy[0]).toMatchObject({ cause: 'synchronize', fn: 'aclrtSynchronizeEvent' });
  });
});
