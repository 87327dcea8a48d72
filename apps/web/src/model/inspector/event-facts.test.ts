import { cloneHostState, type HostState } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { eventScene } from '../../../test/event-scene.ts';
import { createdBy, targetOf } from '../log/effects.ts';
import { isAbout } from '../timeline-index.ts';
import { aclEventInspection, contextInspection, eventFlagsText, eventStatus, failureModeText } from './event-facts.ts';
import type { Fact, Inspection } from './fact.ts';
import { existsIn, inspectObject } from './inspect.ts';
import { storyEntries } from './story.ts';

const PREFS = { units: 'binary', addresses: 'hex' } as const;

function fact(inspection: Inspection | undefined, name: string): Fact | undefined {
  return inspection?.facts.find((entry) => entry.label === `inspector.fact.${name}`);
}

function at(state: HostState, time: number): HostState {
  const later = cloneHostState(state);
  later.time = time;
  return later;
}

describe('event flags and status', () => {
  it('names ACL_EVENT bits and keeps the ones the table does not name (the default 0x0E has 0x04)', () => {
    expect(eventFlagsText(0x0e)).toBe('ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE | 0x4 (0xe)');
    expect(eventFlagsText(0x01)).toBe('ACL_EVENT_SYNC (0x1)');
    expect(eventFlagsText(0)).toBe('0x0');
    expect(failureModeText(0)).toBe('ACL_CONTINUE_ON_FAILURE');
    expect(failureModeText(1)).toBe('ACL_STOP_ON_FAILURE');
  });

  it('is never recorded, then not ready until its captured work is done, then complete (EV-2, EV-4)', async () => {
    const { host } = await eventScene();
    const [done, idle] = [...host.state.aclEvents.values()];
    if (done === undefined || idle === undefined) throw new Error('two events expected');
    expect(eventStatus(idle, 0)).toBe('never');
    expect(eventStatus(done, done.at - 1)).toBe('notReady');
    expect(eventStatus(done, done.at)).toBe('complete');
  });
});

describe('context inspection', () => {
  it('a created context: device, handle, current, its streams (default one first) and events (CX-1 … CX-3)', async () => {
    const { host, context } = await eventScene();
    const created = [...host.state.contexts.values()].find((entry) => !entry.isDefault);
    if (created === undefined) throw new Error('no created context');
    const inspection = contextInspection(created, host.state);
    expect(fact(inspection, 'device')?.text).toBe('0');
    expect(fact(inspection, 'origin')?.key).toBe('inspector.value.createdContext');
    expect(fact(inspection, 'contextHandle')?.text).toBe(context);
    expect(fact(inspection, 'current')).toMatchObject({ key: 'inspector.value.currentContext', tone: 'ok' });
    expect(fact(inspection, 'ownDefaultStream')?.link).toEqual({ kind: 'stream', id: created.defaultStream, device: 0 });
    expect(fact(inspection, 'streams')?.text).toBe('3');
    expect(fact(inspection, 'events')?.text).toBe('2');
    expect(inspection.related.map((entry) => `${entry.label.split('.').pop()} ${entry.target.kind}`)).toEqual([
      'defaultStream stream',
      'stream stream',
      'stream stream',
      'event event',
      'event event',
    ]);
    expect(inspection.rules).toEqual(['CX-1', 'CX-2', 'CX-3']);
  });

  it('the device’s default context: made by aclrtSetDevice, not current once another one is', async () => {
    const { host } = await eventScene();
    const primary = [...host.state.contexts.values()].find((entry) => entry.isDefault);
    if (primary === undefined) throw new Error('no default context');
    const inspection = contextInspection(primary, host.state);
    expect(fact(inspection, 'origin')?.key).toBe('inspector.value.defaultContext');
    expect(fact(inspection, 'current')?.key).toBe('inspector.value.no');
    expect(fact(inspection, 'streams')?.text).toBe('1');
    expect(inspection.rules).not.toContain('CX-2');
  });
});

describe('event inspection', () => {
  it('a recorded event: flags, context, the stream it was recorded on, when, simulated, and its status', async () => {
    const { host, aclEvents, streams } = await eventScene();
    const state = host.state;
    const done = [...state.aclEvents.values()].find((entry) => entry.recordedSeq >= 0);
    if (done === undefined) throw new Error('no recorded event');
    const copies = state.processes.get(done.pid)?.streamByHandle.get(Number(BigInt(streams.copies)));
    const inspection = aclEventInspection(done, state);
    expect(fact(inspection, 'eventHandle')?.text).toBe(aclEvents.done);
    expect(fact(inspection, 'flags')?.text).toContain('ACL_EVENT_TIME_LINE');
    expect(fact(inspection, 'context')?.link).toEqual({ kind: 'context', id: done.context, device: 0 });
    expect(fact(inspection, 'recordedOn')?.link).toEqual({ kind: 'stream', id: copies, device: 0 });
    expect(fact(inspection, 'recordedAt')).toMatchObject({
      key: 'inspector.value.recordedAtSimulated',
      params: { time: '1.22 ms' },
      provenance: 'simulated',
    });
    expect(fact(inspection, 'status')).toMatchObject({ key: 'inspector.value.eventNotReady', tone: 'warn' });
    expect(fact(aclEventInspection(done, at(state, done.at)), 'status')).toMatchObject({
      key: 'inspector.value.eventComplete',
      tone: 'ok',
    });
    expect(fact(aclEventInspection(done, state, 'observed'), 'recordedAt')?.key).toBe('inspector.value.recordedAtObserved');
    expect(inspection.rules).toEqual(expect.arrayContaining(['EV-1', 'EV-2', 'EV-3', 'EV-4', 'CX-3']));
  });

  it('an event never recorded says so and has no stream', async () => {
    const { host } = await eventScene();
    const idle = [...host.state.aclEvents.values()].find((entry) => entry.recordedSeq < 0);
    if (idle === undefined) throw new Error('no idle event');
    const inspection = aclEventInspection(idle, host.state);
    expect(fact(inspection, 'recordedOn')?.key).toBe('inspector.value.neverRecorded');
    expect(fact(inspection, 'recordedAt')).toBeUndefined();
    expect(fact(inspection, 'status')?.key).toBe('inspector.value.eventNeverRecorded');
  });

  it('contexts and events are selectable objects: inspected, present, with stories and targets', async () => {
    const { host, events } = await eventScene();
    const state = host.state;
    const done = [...state.aclEvents.values()][0];
    const created = [...state.contexts.values()].find((entry) => !entry.isDefault);
    if (done === undefined || created === undefined) throw new Error('scene incomplete');
    const context = { prefs: PREFS, device: 0, copyReasons: () => [] };
    expect(inspectObject({ kind: 'event', id: done.id }, state, context)?.facts.length).toBeGreaterThan(4);
    expect(inspectObject({ kind: 'context', id: created.id }, state, context)?.facts.length).toBeGreaterThan(4);
    expect(existsIn({ kind: 'event', id: done.id }, state)).toBe(true);
    expect(existsIn({ kind: 'context', id: 999 }, state)).toBe(false);
    const story = events.filter((event) => isAbout(event, done.id));
    expect(story.map((event) => event.kind)).toEqual(['eventCreate', 'eventRecord', 'eventWait']);
    expect(storyEntries(story, events, PREFS).map((entry) => [entry.key, entry.tone])).toEqual([
      ['inspector.story.eventCreate', 'create'],
      ['inspector.story.eventRecord', 'change'],
      ['inspector.story.eventWait', 'change'],
    ]);
    expect(storyEntries(story, events, PREFS)[1]?.params).toMatchObject({ at: '1.22 ms' });
    const contextStory = events.filter((event) => isAbout(event, created.id)).map((event) => event.kind);
    expect(contextStory).toEqual([
      'contextCreate',
      'streamCreate',
      'contextCurrent',
      'streamCreate',
      'streamCreate',
      'eventCreate',
      'eventCreate',
    ]);
    const made = events.filter((event) => createdBy(event) !== undefined).map((event) => createdBy(event)?.kind);
    // The device's default context and stream are the runtime's; the created context is the call's.
    expect(made).toEqual(['context', 'stream', 'stream', 'host', 'allocation', 'event', 'event']);
    const record = events.find((event) => event.kind === 'eventRecord');
    expect(record === undefined ? undefined : targetOf(record)).toEqual({ kind: 'event', id: done.id });
  });
});

describe('stream inspection', () => {
  it('shows the stream’s context and failure mode (CX-3, CP-7)', async () => {
    const { host } = await eventScene();
    const stream = [...host.state.streams.values()].find((entry) => !entry.isDefault);
    if (stream === undefined) throw new Error('no stream');
    const inspection = inspectObject({ kind: 'stream', id: stream.id }, host.state, { prefs: PREFS, device: 0, copyReasons: () => [] });
    expect(fact(inspection, 'context')?.link).toEqual({ kind: 'context', id: stream.context, device: 0 });
    expect(fact(inspection, 'failureMode')?.text).toBe('ACL_CONTINUE_ON_FAILURE');
    const stopped = cloneHostState(host.state);
    const copy = stopped.streams.get(stream.id);
    if (copy !== undefined) copy.failureMode = 1;
    expect(
      fact(inspectObject({ kind: 'stream', id: stream.id }, stopped, { prefs: PREFS, device: 0, copyReasons: () => [] }), 'failureMode')
        ?.text,
    ).toBe('ACL_STOP_ON_FAILURE');
    expect(inspection?.rules).toEqual(['CP-4', 'CP-7', 'CX-3']);
  });
});
