import { ACL_HOST_REG, type AgentMessage, paddedSize, toHex } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { type Limits, usageOf } from '../src/session/quotas.ts';
import { agentPerTest, HUGE_PROP as PROP } from './support/agent-per-test.ts';
import type { TestClient } from './support/ws-client.ts';

// Issue 11 items 3 and 4: a quota holds however the calls arrive. Every burst is sent at once,
// without waiting for a single result; before the fix, quotas were judged when a call was queued.

const MiB = 1024 * 1024;
const REG = ACL_HOST_REG.byName;
const agent = agentPerTest();

async function driverWith(limits: Partial<Limits>): Promise<TestClient> {
  await agent.start({ limits: { callsPerSecond: 0, ...limits } });
  const client = await agent.connect();
  await client.hello('driver');
  await client.ok('aclInit', { configPath: null });
  await client.ok('aclrtSetDevice', { deviceId: 0 });
  return client;
}

type Reply = Extract<AgentMessage, { type: 'result' | 'error' }>;

/** Sends `count` copies of one call at once; resolves with every reply. */
function burst(client: TestClient, count: number, fn: string, args: (i: number) => Record<string, unknown>): Promise<Reply[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => client.call(fn, args(i))));
}

const succeeded = (replies: readonly Reply[]) => replies.filter((r) => r.type === 'result' && r.ret === 0).length;
const refused = (replies: readonly Reply[]) => replies.filter((r) => r.type === 'error' && r.code === 'quota-exceeded').length;

/** What the session holds, computed from the state itself (independent of the hub's running tally). */
function held() {
  const state = agent.harness().backend.state();
  return usageOf(state, new Set(state.processes.keys()));
}

describe('quotas under bursts', () => {
  it('device bytes: 40 × 8 MiB at once under a 64 MiB quota — each takes 10 MiB of huge pages, so exactly 6 succeed', async () => {
    const d = await driverWith({ deviceBytes: 64 * MiB });
    // DM-3, DM-4: 8 MiB pads past 8 MiB, so HUGE_FIRST takes five 2 MiB huge pages.
    const footprint = Math.ceil(paddedSize('aclrtMalloc', 8 * MiB, 0, 32) / (2 * MiB)) * 2 * MiB;
    expect(footprint).toBe(10 * MiB);
    const replies = await burst(d, 40, 'aclrtMalloc', () => ({ size: 8 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' }));
    expect(succeeded(replies)).toBe(Math.floor((64 * MiB) / footprint));
    expect(refused(replies)).toBe(40 - 6);
    expect(held().deviceBytes).toBeLessThanOrEqual(64 * MiB);
  });

  it('device bytes are charged as pages, not as requested bytes: 1-byte HUGE_ONLY allocations take 2 MiB each', async () => {
    const d = await driverWith({ deviceBytes: 8 * MiB });
    const replies = await burst(d, 20, 'aclrtMalloc', () => ({ size: 1, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' }));
    expect(succeeded(replies)).toBe(4);
    expect(held().deviceBytes).toBe(8 * MiB);
  });

  it('device bytes through aclrtMallocPhysical', async () => {
    const d = await driverWith({ deviceBytes: 8 * MiB });
    const replies = await burst(d, 10, 'aclrtMallocPhysical', () => ({ size: 2 * MiB, prop: PROP, flags: 0 }));
    expect(succeeded(replies)).toBe(4);
    expect(held().deviceBytes).toBe(8 * MiB);
  });

  it('pinned bytes through aclrtMallocHost and aclrtMallocHostWithCfg', async () => {
    const d = await driverWith({ pinnedHostBytes: 8 * MiB });
    const replies = await burst(d, 10, 'aclrtMallocHost', () => ({ size: 3 * MiB }));
    expect(succeeded(replies)).toBe(2);
    const more = await burst(d, 4, 'aclrtMallocHostWithCfg', () => ({ size: 2 * MiB, cfg: null }));
    expect(succeeded(more)).toBe(1);
    expect(held().pinnedHostBytes).toBe(8 * MiB);
  });

  it('item 4: registering pageable memory as PINNED counts against the pinned quota', async () => {
    const d = await driverWith({ pinnedHostBytes: 8 * MiB });
    const { ptr } = await d.ok('malloc', { size: 16 * MiB });
    expect(
      await d.call('aclrtHostRegisterV2', { ptr, size: 16 * MiB, flag: REG.ACL_HOST_REG_PINNED | REG.ACL_HOST_REG_MAPPED }),
    ).toMatchObject({ type: 'error', code: 'quota-exceeded', message: expect.stringContaining('--max-pinned-bytes') });
    // Mapping without pinning pins nothing.
    expect(await d.call('aclrtHostRegisterV2', { ptr, size: 16 * MiB, flag: REG.ACL_HOST_REG_MAPPED })).toMatchObject({
      type: 'result',
      ret: 0,
    });
    expect(held().pinnedHostBytes).toBe(0);
  });

  it('item 4: registrations in a burst, and an unregistration gives the pinned bytes back', async () => {
    const d = await driverWith({ pinnedHostBytes: 8 * MiB });
    const buffers: string[] = [];
    for (let i = 0; i < 4; i += 1) buffers.push(String((await d.ok('malloc', { size: 4 * MiB })).ptr));
    const replies = await burst(d, 4, 'aclrtHostRegisterV2', (i) => ({ ptr: buffers[i], size: 4 * MiB, flag: REG.ACL_HOST_REG_PINNED }));
    expect(succeeded(replies)).toBe(2);
    expect(held().pinnedHostBytes).toBe(8 * MiB);
    const registered = buffers.filter((_, i) => replies[i]?.type === 'result');
    for (const ptr of registered) await d.ok('aclrtHostUnregister', { ptr });
    expect(held().pinnedHostBytes).toBe(0);
    expect(await d.call('aclrtMallocHost', { size: 8 * MiB })).toMatchObject({ type: 'result', ret: 0 });
  });

  it('aclrtHostRegister (V1) pins too', async () => {
    const d = await driverWith({ pinnedHostBytes: 4 * MiB });
    const { ptr } = await d.ok('malloc', { size: 8 * MiB });
    expect(await d.call('aclrtHostRegister', { ptr, size: 8 * MiB, type: 'ACL_HOST_REGISTER_MAPPED' })).toMatchObject({
      type: 'error',
      code: 'quota-exceeded',
    });
  });

  it('pageable host bytes through malloc (--max-host-bytes)', async () => {
    const d = await driverWith({ pageableHostBytes: 10 * MiB });
    const replies = await burst(d, 10, 'malloc', () => ({ size: 3 * MiB }));
    expect(succeeded(replies)).toBe(3);
    expect(refused(replies)).toBe(7);
    expect(replies.find((r) => r.type === 'error')).toMatchObject({ message: expect.stringContaining('--max-host-bytes') });
  });

  it.each([
    ['aclrtMalloc', () => ({ size: 4096, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' })],
    ['aclrtMallocHost', () => ({ size: 4096 })],
    ['malloc', () => ({ size: 4096 })],
    ['aclrtCreateStream', () => ({})],
    ['aclrtCreateStreamWithConfig', () => ({ priority: 0, flag: 0 })],
    ['aclrtCreateContext', () => ({ deviceId: 0 })],
    ['aclrtCreateEvent', () => ({})],
    ['aclrtCreateEventWithFlag', () => ({ flag: 'ACL_EVENT_SYNC' })],
    ['aclrtCreateEventExWithFlag', () => ({ flag: 'ACL_EVENT_SYNC' })],
    ['aclrtReserveMemAddress', () => ({ size: 2 * MiB, alignment: 0, expectPtr: null, flags: 0 })],
    ['aclrtMallocPhysical', () => ({ size: 2 * MiB, prop: PROP, flags: 0 })],
  ] as const)('live objects: a burst of %s stops at the limit', async (fn, args) => {
    const d = await driverWith({ liveObjects: 3 });
    const replies = await burst(d, 8, fn, args);
    expect(succeeded(replies)).toBe(3);
    expect(refused(replies)).toBe(5);
    expect(held().liveObjects).toBe(3);
  });

  it('live objects: maps and imports count too', async () => {
    const d = await driverWith({ liveObjects: 4 });
    const { handle } = await d.ok('aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
    const { virPtr } = await d.ok('aclrtReserveMemAddress', { size: 8 * MiB, alignment: 0, expectPtr: null, flags: 0 });
    const base = Number.parseInt(String(virPtr), 16);
    const maps = await burst(d, 3, 'aclrtMapMem', (i) => ({
      virPtr: toHex(base + i * 2 * MiB),
      size: 2 * MiB,
      offset: 0,
      handle,
      flags: 0,
    }));
    // Two objects held, two places left: a physical handle maps once per range, all three ranges are distinct.
    expect(succeeded(maps)).toBe(2);
    expect(held().liveObjects).toBe(4);
  });

  it('live objects: each reference aclrtMemRetainAllocationHandle takes counts, and aclrtFreePhysical gives it back (VM-12)', async () => {
    const d = await driverWith({ liveObjects: 5 });
    const { handle } = await d.ok('aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
    const { virPtr } = await d.ok('aclrtReserveMemAddress', { size: 2 * MiB, alignment: 0, expectPtr: null, flags: 0 });
    await d.ok('aclrtMapMem', { virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
    // Three objects held: two references fit, the other four are refused.
    const retains = await burst(d, 6, 'aclrtMemRetainAllocationHandle', () => ({ virPtr }));
    expect(succeeded(retains)).toBe(2);
    expect(refused(retains)).toBe(4);
    expect(held().liveObjects).toBe(5);
    // One reference given back: the running tally follows, and one more retain fits.
    await d.ok('aclrtFreePhysical', { handle });
    expect(held().liveObjects).toBe(4);
    expect(succeeded(await burst(d, 3, 'aclrtMemRetainAllocationHandle', () => ({ virPtr })))).toBe(1);
    expect(held().liveObjects).toBe(5);
  });

  it('live objects: each IPC key and each import counts until aclrtIpcMemClose (IP-1, IP-3, IP-4)', async () => {
    const d = await driverWith({ liveObjects: 4 });
    const { devPtr } = await d.ok('aclrtMalloc', { size: 2 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    // One allocation held: three keys fit (each call makes a new key), the other three are refused.
    const exports = await burst(d, 6, 'aclrtIpcMemGetExportKey', () => ({ devPtr, size: MiB, len: 65, flags: 1 }));
    expect(succeeded(exports)).toBe(3);
    expect(refused(exports)).toBe(3);
    expect(held().liveObjects).toBe(4);
    const bytes = held().deviceBytes;
    const keys = exports.flatMap((r) => (r.type === 'result' && r.ret === 0 ? [String(r.out?.key)] : []));
    await d.ok('aclrtIpcMemClose', { key: keys[0] });
    expect(held().liveObjects).toBe(3);
    // The session's second process imports: an import takes no pages, but it is one more object.
    const p1 = { process: 1 };
    expect(await d.call('aclrtSetDevice', { deviceId: 0 }, p1)).toMatchObject({ ret: 0 });
    const imports = await Promise.all([1, 2].map((n) => d.call('aclrtIpcMemImportByKey', { key: keys[n], flags: 0 }, p1)));
    expect(succeeded(imports)).toBe(1);
    expect(refused(imports)).toBe(1);
    expect(held()).toMatchObject({ liveObjects: 4, deviceBytes: bytes });
    // The importer's close ends its import only; the exporter's ends the key.
    const [imported] = [...agent.harness().backend.state().ipcImports.values()];
    expect(await d.call('aclrtIpcMemClose', { key: imported?.key }, p1)).toMatchObject({ ret: 0 });
    expect(held().liveObjects).toBe(3);
    await d.ok('aclrtIpcMemClose', { key: imported?.key });
    expect(held().liveObjects).toBe(2);
    // A freed allocation ends its last key with it.
    await d.ok('aclrtFree', { devPtr });
    expect(held().liveObjects).toBe(0);
    expect(agent.harness().backend.state().ipcKeys.size).toBe(0);
  });
});
