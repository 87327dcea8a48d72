import { ASCEND_910B2, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { eventsEntryText } from '../src/journal/entries.ts';
import { eventsFrameText } from '../src/session/event-frames.ts';

/** Events of a short session, failures (with their messages) included. */
async function someEvents(): Promise<MemoryEvent[]> {
  const host = new SimHost({ devices: [ASCEND_910B2], seed: 3 });
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const runtime = new SimRuntime(host, 'app "quoted" ünïcode');
  await runtime.aclInit({ configPath: null });
  await runtime.aclrtSetDevice({ deviceId: 0 });
  const { devPtr } = await runtime.aclrtMalloc({ size: 3 * 1024 * 1024, policy: 0 });
  if (devPtr === undefined) throw new Error('aclrtMalloc failed');
  await runtime.aclrtMalloc({ size: 0, policy: 0 });
  await runtime.aclrtFree({ devPtr });
  await runtime.aclrtFree({ devPtr });
  return events;
}

describe('event texts built from an events array serialized once', () => {
  it('a frame is exactly what JSON.stringify gives for the events message', async () => {
    const events = await someEvents();
    expect(events.some((e) => e.kind === 'call' && e.ret !== 0)).toBe(true);
    const from = events[0]?.seq ?? 0;
    const to = events.at(-1)?.seq ?? 0;
    expect(eventsFrameText(from, to, JSON.stringify(events))).toBe(JSON.stringify({ type: 'events', from, to, events }));
  });

  it('the journal line joins the frames’ arrays into exactly the entry JSON.stringify gives', async () => {
    const events = await someEvents();
    const parts = [events.slice(0, 1), events.slice(1, 4), events.slice(4)].map((part) => JSON.stringify(part));
    expect(eventsEntryText(parts)).toBe(JSON.stringify({ type: 'events', events }));
    expect(eventsEntryText([JSON.stringify(events)])).toBe(JSON.stringify({ type: 'events', events }));
  });
});
