import { type FollowState, PROTOCOL_VERSION, type Role, SCENARIOS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/app-store.ts';
import type { PlaygroundFollow } from '../store/follow-slice.ts';
import { AgentClient, type ClientEnvironment } from './agent-client.ts';
import { FOLLOW_PUBLISH_MS } from './follow-publisher.ts';

// Issue 17 item 1: the client publishes a driver's playground and hands a viewer the driver's.

/** The part of a WebSocket the client uses, driven by hand. */
class FakeSocket {
  readonly sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {}
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  follows(): unknown[] {
    return this.sent.map((text) => JSON.parse(text) as { type: string }).filter((m) => m.type === 'followState');
  }
}

const welcome = (role: Role) => ({
  type: 'welcome',
  protocol: PROTOCOL_VERSION,
  sessionId: 's1',
  role,
  backend: 'sim',
  host: { provenance: 'simulated', hostname: 'h', kernelVersion: '6.1', hostPageSize: 4096 },
  devices: [],
  functions: [],
  limits: { deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
  seq: 0,
});

function connected(role: Role) {
  const sockets: FakeSocket[] = [];
  let timers: { callback: () => void; ms: number }[] = [];
  const environment: ClientEnvironment = {
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    fetch: async () => new Response('', { status: 426 }),
    setTimeout: (callback, ms) => timers.push({ callback, ms }),
    clearTimeout: () => {},
    now: () => 1000,
    random: () => 0,
  };
  const store = createAppStore();
  const client = new AgentClient({ pageUrl: 'http://127.0.0.1:7070/?token=t', token: 't', role, store, environment });
  client.start();
  const socket = sockets[0];
  if (socket === undefined) throw new Error('no socket');
  socket.onopen?.();
  socket.receive(welcome(role));
  /** Ends the follow channel's coalescing window (the only timer the client sets here). */
  const endWindow = () => {
    const due = timers.filter((t) => t.ms === FOLLOW_PUBLISH_MS);
    timers = timers.filter((t) => t.ms !== FOLLOW_PUBLISH_MS);
    for (const timer of due) timer.callback();
  };
  return { store, socket, endWindow, windows: () => timers.filter((t) => t.ms === FOLLOW_PUBLISH_MS).length };
}

const id = SCENARIOS[0]?.id ?? '';
const paused = (line: number): PlaygroundFollow => ({
  doc: { kind: 'scenario', id },
  run: { status: 'paused', line, marks: [], setupMarks: [] },
});

describe('the follow channel in the client', () => {
  it('a driver publishes its playground with its lesson position, coalesced per window', () => {
    const { store, socket, endWindow, windows } = connected('driver');
    store.getState().setOwnPlayground(paused(3));
    store.getState().setOwnPlayground(paused(4));
    store.getState().setOwnLesson({ lessonId: 'tlb-reach', step: 2 });
    expect(windows()).toBe(1);
    expect(socket.follows()).toEqual([]);
    endWindow();
    const expected: FollowState = { ...paused(4), lesson: { lessonId: 'tlb-reach', step: 2 } };
    expect(socket.follows()).toEqual([{ type: 'followState', state: expected }]);
    // A change elsewhere in the store publishes nothing.
    store.getState().select(undefined);
    endWindow();
    expect(socket.follows()).toHaveLength(1);
  });

  it('a driver publishes the playground it already had as soon as it is welcomed', () => {
    const { store, socket, endWindow } = connected('driver');
    store.getState().setOwnPlayground(paused(7));
    endWindow();
    expect(socket.follows()).toHaveLength(1);
    // The agent restarted: the same state goes out again on the next welcome.
    socket.receive(welcome('driver'));
    endWindow();
    expect(socket.follows()).toHaveLength(2);
  });

  it('a viewer never publishes, and hands what the driver published to the store', () => {
    const { store, socket, endWindow } = connected('viewer');
    store.getState().setOwnPlayground(paused(3));
    endWindow();
    expect(socket.follows()).toEqual([]);
    socket.receive({ type: 'followState', state: { ...paused(12), lesson: { lessonId: 'vmm', step: 4 } }, driver: 'trainer' });
    expect(store.getState().driverPlayground).toEqual(paused(12));
    expect(store.getState().driverLabel).toBe('trainer');
    expect(store.getState().driverLesson).toEqual({ lessonId: 'vmm', step: 4 });
    socket.receive({ type: 'followState', state: null });
    expect(store.getState().driverPlayground).toBeNull();
    expect(store.getState().driverLesson).toBeNull();
  });
});
