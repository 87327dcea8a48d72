import { createHostState, type Hex, type MemoryEvent, Rng, reduce, SimHost, SimRuntime } from '@pagelens/core';
import type { BenchResult, BenchSuite } from '../support/result.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The simulator's seeded PRNG as a function, so a failing case can be repeated. */
function prng(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

async function session(): Promise<{ host: SimHost; rt: SimRuntime }> {
  const host = new SimHost();
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  return { host, rt };
}

const POLICIES = [0, 1, 2, 3, 4, 5, 6, 7];
const LIVE_TARGET = 1000;

/** Mixed aclrtMalloc/aclrtFree through the AclRuntime interface: sizes log-uniform 1 KiB–256 MiB, every policy, about half the calls free. */
async function mallocFree(calls: number): Promise<{ perSecond: number; failed: number }> {
  const { rt } = await session();
  const next = prng(42);
  const sizes = Float64Array.from({ length: calls }, () =>
    Math.round(Math.exp(Math.log(KiB) + next() * (Math.log(256 * MiB) - Math.log(KiB)))),
  );
  const policies = Uint8Array.from({ length: calls }, () => POLICIES[Math.floor(next() * POLICIES.length)] ?? 0);
  const coin = Float64Array.from({ length: calls }, () => next());
  const live: Hex[] = [];
  let failed = 0;
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) {
    if (live.length > 0 && (live.length >= LIVE_TARGET || (coin[i] ?? 0) < 0.5)) {
      const index = Math.floor((coin[i] ?? 0) * 2 * live.length) % live.length;
      const devPtr = live[index] ?? '0x0';
      live[index] = live[live.length - 1] ?? '0x0';
      live.pop();
      if ((await rt.aclrtFree({ devPtr })).ret !== 0) failed += 1;
    } else {
      const result = await rt.aclrtMalloc({ size: sizes[i] ?? 1, policy: policies[i] ?? 0 });
      if (result.devPtr !== undefined) live.push(result.devPtr);
      else failed += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: calls / seconds, failed };
}

/** aclrtMapMem + aclrtUnmapMem pairs on 2 MiB handles inside one reservation. */
async function mapUnmap(pairs: number): Promise<number> {
  const { rt } = await session();
  const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 };
  const handles: Hex[] = [];
  for (let i = 0; i < 64; i += 1) {
    const { handle } = await rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 });
    if (handle !== undefined) handles.push(handle);
  }
  const { virPtr } = await rt.aclrtReserveMemAddress({ size: 64 * 2 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 });
  if (virPtr === undefined) throw new Error('reserve failed');
  const base = Number.parseInt(virPtr.slice(2), 16);
  const addresses = handles.map((_, i): Hex => `0x${(base + i * 2 * MiB).toString(16)}`);
  const started = performance.now();
  for (let i = 0; i < pairs; i += 1) {
    const slot = i % handles.length;
    const at = addresses[slot] ?? virPtr;
    const mapped = await rt.aclrtMapMem({ virPtr: at, size: 2 * MiB, offset: 0, handle: handles[slot] ?? '0x0', flags: 0 });
    const unmapped = await rt.aclrtUnmapMem({ virPtr: at });
    if (mapped.ret !== 0 || unmapped.ret !== 0) throw new Error(`map/unmap failed: ${mapped.message ?? unmapped.message ?? ''}`);
  }
  return pairs / ((performance.now() - started) / 1000);
}

/** Replays a recorded stream of a mixed session into a fresh state. */
async function reducer(calls: number): Promise<{ perSecond: number; events: number }> {
  const host = new SimHost();
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => {
    for (const event of batch) events.push(event);
  });
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const next = prng(9);
  const live: Hex[] = [];
  for (let i = 0; i < calls; i += 1) {
    if (live.length > 500 || (live.length > 0 && next() < 0.5)) {
      await rt.aclrtFree({ devPtr: live.pop() ?? '0x0' });
    } else {
      const { devPtr } = await rt.aclrtMalloc({ size: Math.round(Math.exp(Math.log(KiB) + next() * 10)), policy: Math.floor(next() * 3) });
      if (devPtr !== undefined) live.push(devPtr);
    }
  }
  let best = 0;
  for (let run = 0; run < 3; run += 1) {
    const state = createHostState(host.state.devices.map((d) => d.profile));
    const started = performance.now();
    for (const event of events) reduce(state, event);
    best = Math.max(best, events.length / ((performance.now() - started) / 1000));
  }
  return { perSecond: best, events: events.length };
}

export const simSuite: BenchSuite = {
  name: 'sim',
  async run(): Promise<BenchResult[]> {
    await mallocFree(100_000);
    const malloc = await mallocFree(1_000_000);
    await mapUnmap(50_000);
    const vmm = await mapUnmap(500_000);
    const replay = await reducer(400_000);
    return [
      {
        name: 'sim.malloc_free.calls_per_sec',
        value: malloc.perSecond,
        unit: 'calls/s',
        higherIsBetter: true,
        detail: `1,000,000 mixed aclrtMalloc/aclrtFree through AclRuntime (sizes log-uniform 1 KiB–256 MiB, all 8 policies, ~${LIVE_TARGET} live, ${malloc.failed.toLocaleString('en-US')} refused for lack of pages); target from DESIGN.md`,
        target: 1_000_000,
      },
      {
        name: 'sim.vmm.map_unmap_pairs_per_sec',
        value: vmm,
        unit: 'pairs/s',
        higherIsBetter: true,
        detail: '500,000 aclrtMapMem + aclrtUnmapMem pairs of 2 MiB huge-page handles in one reservation; target from DESIGN.md',
        target: 500_000,
      },
      {
        name: 'sim.reducer.events_per_sec',
        value: replay.perSecond,
        unit: 'events/s',
        higherIsBetter: true,
        detail: `reduce() over ${replay.events.toLocaleString('en-US')} recorded events of a malloc/free session (best of 3); target from DESIGN.md`,
        target: 2_000_000,
      },
    ];
  },
};
