import { ASCEND_910B2, type FollowState, parseAgentMessage, SCENARIOS } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SimBackend } from '../src/backends/sim/sim-backend.ts';
import { noJournal } from '../src/journal/entries.ts';
import { silentLogger } from '../src/server/logger.ts';
import { type Clock, Hub } from '../src/session/hub.ts';
import type { PeerHandler, PeerSocket } from '../src/session/peer-socket.ts';
import { DEFAULT_LIMITS } from '../src/session/quotas.ts';

// Issue 17 item 1: viewers follow the driver's playground through the agent.

/** Deferred work runs one turn at a time and timers fire only when the test says so. */
function manualClock(): Clock & { turn(): void; fire(ms: number): void } {
  let deferred: (() => void)[] = [];
  const timers = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  return {
    now: () => 0,
    setTimeout: (callback, ms) => {
      timers.set(next, { callback, ms });
      return next++ as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as unknown as number);
    },
    every: () => () => {},
    defer: (callback) => {
      deferred.push(callback);
    },
    turn: () => {
      const due = deferred;
      deferred = [];
      for (const callback of due) callback();
    },
    /** Fires the timers set for exactly `ms`. */
    fire: (ms) => {
      for (const [handle, timer] of [...timers]) {
        if (timer.ms !== ms) continue;
        timers.delete(handle);
        timer.callback();
      }
    },
  };
}

interface Peer {
  readonly handler: PeerHandler;
  readonly sent: string[];
  /** The parsed followState messages this peer got, in order. */
  follows(): Extract<ReturnType<typeof parseAgentMessage>, { ok: true }>['value'][];
  errors(): { code: string; message: string }[];
  types(): string[];
}

const GRACE_MS = 12_345;
const hubs: Hub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.shutdown();
});

function setUp() {
  const clock = manualClock();
  const hub = new Hub({
    backend: new SimBackend(ASCEND_910B2, 1, 1),
    journal: noJournal,
    log: silentLogger,
    limits: { ...DEFAULT_LIMITS, callsPerSecond: 0 },
    allowTakeover: false,
    resumeGraceMs: GRACE_MS,
    clock,
  });
  hubs.push(hub);
  const join = (role: 'driver' | 'viewer', client?: string): Peer => {
    const sent: string[] = [];
    const socket: PeerSocket = {
      send: (data) => sent.push(typeof data === 'string' ? data : Buffer.from(data).toString('utf8')),
      close: () => {},
      bufferedAmount: () => 0,
      flush: () => {},
    };
    const handler = hub.connect(socket, `${role}-peer`);
    handler.message(JSON.stringify({ type: 'hello', protocol: 1, role, ...(client === undefined ? {} : { client }) }));
    const parsed = () =>
      sent.map((text) => {
        const result = parseAgentMessage(text);
        if (!result.ok) throw new Error(result.message);
        return result.value;
      });
    return {
      handler,
      sent,
      follows: () => parsed().filter((m) => m.type === 'followState'),
      errors: () => parsed().flatMap((m) => (m.type === 'error' ? [{ code: m.code, message: m.message }] : [])),
      types: () => parsed().map((m) => m.type),
    };
  };
  return { clock, hub, join };
}

const scenarioId = SCENARIOS[0]?.id ?? '';

/** The driver's playground paused before `line`. */
function pausedAt(line: number): FollowState {
  return {
    doc: { kind: 'scenario', id: scenarioId },
    run: {
      status: 'paused',
      line,
      marks: [{ line: Math.max(1, line - 1), kind: 'ok', executed: true, hits: 1, details: [] }],
      setupMarks: [],
    },
    lesson: null,
  };
}

/** Lets the session's queue run, up to `limit` I/O turns, until `done`. */
async function until(done: () => boolean, limit = 1000): Promise<void> {
  for (let i = 0; i < limit && !done(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  if (!done()) throw new Error('condition not met');
}

const publish = (peer: Peer, state: unknown) => peer.handler.message(JSON.stringify({ type: 'followState', state }));

describe('the follow relay', () => {
  it('relays what the driver publishes to every viewer, once per turn, with the last state of the turn', () => {
    const { clock, join } = setUp();
    const driver = join('driver');
    const viewers = [join('viewer'), join('viewer')];
    publish(driver, pausedAt(3));
    publish(driver, pausedAt(4));
    publish(driver, pausedAt(5));
    for (const viewer of viewers) expect(viewer.follows()).toEqual([]);
    clock.turn();
    for (const viewer of viewers) expect(viewer.follows()).toEqual([{ type: 'followState', state: pausedAt(5) }]);
    // The driver is not sent its own state back.
    expect(driver.follows()).toEqual([]);
    publish(driver, pausedAt(6));
    clock.turn();
    expect(viewers[0]?.follows().map((m) => (m.type === 'followState' ? m.state?.run.line : undefined))).toEqual([5, 6]);
  });

  it('gives a viewer that joins later the latest state, after its welcome and snapshot', () => {
    const { clock, join } = setUp();
    const driver = join('driver', 'trainer laptop');
    publish(driver, pausedAt(8));
    clock.turn();
    publish(driver, pausedAt(9));
    clock.turn();
    const late = join('viewer');
    expect(late.follows()).toEqual([{ type: 'followState', state: pausedAt(9), driver: 'trainer laptop' }]);
    const types = late.types();
    expect(types.indexOf('followState')).toBeGreaterThan(types.indexOf('snapshot'));
    expect(types.indexOf('snapshot')).toBeGreaterThan(types.indexOf('welcome'));
  });

  it('gives a joining viewer nothing when the driver has published nothing', () => {
    const { clock, join } = setUp();
    join('driver');
    clock.turn();
    expect(join('viewer').follows()).toEqual([]);
  });

  it("refuses a viewer's state with a clear error and relays nothing", () => {
    const { clock, join } = setUp();
    const driver = join('driver');
    publish(driver, pausedAt(2));
    clock.turn();
    const viewer = join('viewer');
    const other = join('viewer');
    publish(viewer, pausedAt(40));
    clock.turn();
    expect(viewer.errors()).toEqual([
      { code: 'not-driver', message: expect.stringContaining('only the driver publishes the playground state') },
    ]);
    expect(other.follows()).toEqual([{ type: 'followState', state: pausedAt(2) }]);
    expect(join('viewer').follows()).toEqual([{ type: 'followState', state: pausedAt(2) }]);
  });

  it('refuses a state whose code is over the cap, saying the cap, and keeps the last good one', () => {
    const { clock, join } = setUp();
    const driver = join('driver');
    publish(driver, pausedAt(2));
    clock.turn();
    publish(driver, { ...pausedAt(3), doc: { kind: 'code', name: 'big', code: 'x'.repeat(100_001), setup: '', inputs: [] } });
    clock.turn();
    expect(driver.errors()).toEqual([
      { code: 'bad-message', message: expect.stringMatching(/field "state\.doc\.code".*at most 100,000 characters/) },
    ]);
    expect(join('viewer').follows()).toEqual([{ type: 'followState', state: pausedAt(2) }]);
  });

  it('tells viewers there is nothing to follow once the driver session ends, and forgets the state', async () => {
    const { clock, join } = setUp();
    const driver = join('driver');
    const viewer = join('viewer');
    publish(driver, pausedAt(4));
    clock.turn();
    driver.handler.closed(1001, 'tab closed');
    // Within the grace period the driver may come back: the state stays.
    expect(join('viewer').follows()).toEqual([{ type: 'followState', state: pausedAt(4) }]);
    clock.fire(GRACE_MS);
    // The session's teardown runs in its queue (promises, not timers).
    await until(() => viewer.follows().length === 2);
    expect(viewer.follows()[1]).toEqual({ type: 'followState', state: null });
    expect(join('viewer').follows()).toEqual([]);
  });
});
