import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invokeCall } from '../src/acl/invoke.ts';
import type { MemoryEvent } from '../src/model/events.ts';
import { FrameKind } from '../src/model/frames.ts';
import { devicePools } from '../src/model/pools.ts';
import { reduce } from '../src/model/reduce.ts';
import { decodeSnapshot, encodeSnapshot, fingerprint } from '../src/model/snapshot.ts';
import { createHostState, type HostState } from '../src/model/state.ts';
import { planTeardown } from '../src/model/teardown-plan.ts';
import { ASCEND_910B4 } from '../src/profiles/builtin.ts';
import { Rng } from '../src/sim/rng.ts';
import { SimHost } from '../src/sim/sim-host.ts';
import { SimRuntime } from '../src/sim/sim-runtime.ts';
import { freshSession, randomCall, runRandomSession } from './support/random-session.ts';

/** Every owner found in the frame table matches exactly the runs its object claims. */
function checkOwnership(state: HostState): void {
  for (const device of state.devices) {
    const { frames } = device;
    const owned = new Map<number, number>();
    for (let f = 0; f < frames.count; f += 1) {
      if (frames.kind[f] === FrameKind.huge || frames.kind[f] === FrameKind.giant)
        owned.set(frames.owner[f] ?? 0, (owned.get(frames.owner[f] ?? 0) ?? 0) + 1);
    }
    for (const owners of frames.pages.values()) for (const owner of owners) if (owner !== 0) owned.set(owner, (owned.get(owner) ?? 0) + 1);
    // A split frame held whole by one allocation keeps its owner per frame, not per page.
    for (let f = 0; f < frames.count; f += 1) {
      if (frames.kind[f] !== FrameKind.split || frames.pages.has(f)) continue;
      const owner = frames.owner[f] ?? 0;
      owned.set(owner, (owned.get(owner) ?? 0) + frames.pagesPerFrame);
      expect(frames.used[f]).toBe(frames.pagesPerFrame);
    }
    const expected = new Map<number, number>();
    for (const object of [...state.allocations.values(), ...state.physical.values()]) {
      if (object.device !== device.id) continue;
      let count = 0;
      for (let r = 1; r < object.runs.length; r += 2) count += object.runs[r] ?? 0;
      expected.set(object.id, count);
      expect(count).toBe(object.pageClass === 'giant' ? object.pages * 512 : object.pages);
    }
    expect(owned).toEqual(expected);
  }
}

describe('simulator invariants (property tests)', () => {
  it('no frame or page is owned twice, and every object owns exactly its pages', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        const { host, rt } = await freshSession(seed);
        await runRandomSession(rt, seed, 150);
        checkOwnership(host.state);
      }),
      { numRuns: 25 },
    );
  });

  it('R-1: a random session followed by its teardown plan returns every pool to its initial value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        const { host, rt } = await freshSession(seed);
        const device = host.state.devices[0];
        if (device === undefined) throw new Error('no device');
        const baseline = devicePools(device);
        await runRandomSession(rt, seed, 150);
        for (const call of planTeardown(host.state, rt.pid)) {
          const { ret, message } = await invokeCall(rt, call);
          expect(ret, `${call.fn}: ${message ?? ''}`).toBe(0);
        }
        expect(devicePools(device)).toEqual(baseline);
        expect(planTeardown(host.state, rt.pid)).toEqual([]);
        for (const map of [
          host.state.allocations,
          host.state.handles,
          host.state.physical,
          host.state.reservations,
          host.state.mappings,
          host.state.hostBuffers,
          host.state.streams,
        ]) {
          expect(map.size).toBe(0);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('R-1 with contexts, streams and events: any sequence of their calls leaves teardown able to return every pool to baseline', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        const host = new SimHost({ devices: [ASCEND_910B4, ASCEND_910B4], seed });
        const events: MemoryEvent[] = [];
        host.subscribe((batch) => events.push(...batch));
        const rt = new SimRuntime(host);
        await rt.aclInit({ configPath: null });
        await rt.aclrtSetDevice({ deviceId: 0 });
        const baseline = host.state.devices.map(devicePools);
        await runRandomSession(rt, seed, 200, { sync: true });
        for (const call of planTeardown(host.state, rt.pid)) {
          const { ret, message } = await invokeCall(rt, call);
          expect(ret, `${call.fn}: ${message ?? ''}`).toBe(0);
        }
        expect(host.state.devices.map(devicePools)).toEqual(baseline);
        expect(planTeardown(host.state, rt.pid)).toEqual([]);
        expect([host.state.contexts.size, host.state.aclEvents.size, host.state.streams.size, host.state.allocations.size]).toEqual([
          0, 0, 0, 0,
        ]);
        // The browser's replica, rebuilt from the events, agrees.
        let replica = createHostState(host.state.devices.map((device) => device.profile));
        for (const event of events) replica = reduce(replica, event);
        expect(fingerprint(replica)).toBe(fingerprint(host.state));
      }),
      { numRuns: 25 },
    );
  });

  it('replaying the event stream gives a state identical to the simulator’s own', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        const { host, rt, events } = await freshSession(seed);
        await runRandomSession(rt, seed, 150);
        const replica = createHostState([ASCEND_910B4]);
        for (const event of events) reduce(replica, event);
        expect(fingerprint(replica)).toBe(fingerprint(host.state));
      }),
      { numRuns: 20 },
    );
  });

  it('a snapshot decodes to the same state (frames rebuilt from placements)', async () => {
    const { host, rt } = await freshSession(7);
    await runRandomSession(rt, 7, 300);
    const decoded = decodeSnapshot(JSON.parse(JSON.stringify(encodeSnapshot(host.state))));
    expect(fingerprint(decoded)).toBe(fingerprint(host.state));
  });

  it('a snapshot of a long session with 300,000 copy records decodes (no call takes them all as arguments)', async () => {
    const { host, rt } = await freshSession(11);
    const { hostPtr } = await rt.aclrtMallocHost({ size: 4096 });
    const { devPtr } = await rt.aclrtMalloc({ size: 4096, policy: 0 });
    if (hostPtr === undefined || devPtr === undefined) throw new Error('setup failed');
    await rt.aclrtMemcpy({ dst: devPtr, destMax: 4096, src: hostPtr, count: 4096, kind: 1 });
    const snapshot = encodeSnapshot(host.state);
    const copy = snapshot.copies[0];
    if (copy === undefined) throw new Error('no copy recorded');
    const long = { ...snapshot, copies: Array.from({ length: 300_000 }, (_, index) => ({ ...copy, id: index + 1 })) };
    const decoded = decodeSnapshot(long);
    expect(decoded.copies).toHaveLength(300_000);
    expect(decoded.copies.at(-1)?.id).toBe(300_000);
  });

  it('a failed call leaves the state byte-identical (only the cursor moves)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        const { host, rt } = await freshSession(seed);
        const rng = new Rng(seed ^ 0x5a5a);
        let failures = 0;
        for (let i = 0; i < 150; i += 1) {
          const call = randomCall(rng, host.state, rt.pid);
          const before = fingerprint(host.state);
          const { seq, time } = host.state;
          const { ret } = await invokeCall(rt, call);
          if (ret === 0) continue;
          failures += 1;
          const after = fingerprint(host.state).replace(`"seq":${host.state.seq}`, `"seq":${seq}`);
          expect(after, `${call.fn} failed with ${ret} but changed the state`).toBe(before);
          expect(host.state.time).toBe(time);
        }
        expect(failures).toBeGreaterThan(0);
      }),
      { numRuns: 6 },
    );
  }, 120_000);

  it('an injected failure answers the chosen code and changes nothing', async () => {
    const { host, rt, events } = await freshSession(3);
    host.injectFailure({ fn: 'aclrtMalloc', ret: 207001 });
    const before = fingerprint(host.state);
    const result = await rt.aclrtMalloc({ size: 4096, policy: 0 });
    expect(result.ret).toBe(207001);
    expect(result.message).toContain('injected');
    expect(fingerprint(host.state).replace(/"seq":\d+/, '')).toBe(before.replace(/"seq":\d+/, ''));
    expect(events.at(-1)).toMatchObject({ kind: 'call', fn: 'aclrtMalloc', ret: 207001, injected: true });
    expect((await rt.aclrtMalloc({ size: 4096, policy: 0 })).ret).toBe(0);
  });

  it('is deterministic for a seed', async () => {
    const run = async () => {
      const { host, rt, events } = await freshSession(11);
      await runRandomSession(rt, 11, 200);
      return { print: fingerprint(host.state), events: JSON.stringify(events) };
    };
    const [a, b] = [await run(), await run()];
    expect(a.print).toBe(b.print);
    expect(a.events).toBe(b.events);
  });
});
