import { type AclCall, invokeCall } from '../../src/acl/invoke.ts';
import type { MemoryEvent } from '../../src/model/events.ts';
import type { HostState } from '../../src/model/state.ts';
import { ASCEND_910B4 } from '../../src/profiles/builtin.ts';
import { Rng } from '../../src/sim/rng.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { GiB, KiB, MiB } from '../../src/units/bytes.ts';
import { toHex } from '../../src/units/hex.ts';

/** A size log-uniform in [min, max] bytes. */
function logUniform(rng: Rng, min: number, max: number): number {
  return Math.round(Math.exp(rng.between(Math.log(min), Math.log(max))));
}

function pick<T>(rng: Rng, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(rng.next() * items.length)];
}

const PROP = { handleType: 0, allocationType: 0, location: { type: 1, id: 0 }, reserve: 0 };

/** One random but meaningful call against the live state of process `pid` (valid and invalid calls both occur). */
export function randomCall(rng: Rng, state: HostState, pid: number): AclCall {
  const mine = <T extends { pid: number }>(map: Map<number, T>): T[] => [...map.values()].filter((item) => item.pid === pid);
  const roll = rng.next();
  if (roll < 0.3) {
    const fn = pick(rng, ['aclrtMalloc', 'aclrtMallocAlign32', 'aclrtMallocCached', 'aclrtMallocWithCfg'] as const) ?? 'aclrtMalloc';
    const size = rng.next() < 0.05 ? 0 : logUniform(rng, 1, 2 * GiB);
    const policy = pick(rng, [0, 1, 2, 3, 4, 5, 6, 7, 0x100, 9]) ?? 0;
    if (fn === 'aclrtMallocWithCfg') return { fn, args: { size, policy, cfg: null } };
    return { fn, args: { size, policy } };
  }
  if (roll < 0.5) {
    const a = pick(rng, mine(state.allocations));
    return { fn: 'aclrtFree', args: { devPtr: toHex(a === undefined || rng.next() < 0.05 ? 0x1234 : a.addr) } };
  }
  if (roll < 0.55) return { fn: 'aclrtMallocHost', args: { size: logUniform(rng, 1, 64 * MiB) } };
  if (roll < 0.6) return { fn: 'malloc', args: { size: logUniform(rng, 4 * KiB, 64 * MiB) } };
  if (roll < 0.65) {
    const b = pick(rng, mine(state.hostBuffers));
    if (b === undefined) return { fn: 'aclrtGetDeviceCount', args: {} };
    if (b.registration !== undefined && rng.next() < 0.5) return { fn: 'aclrtHostUnregister', args: { ptr: toHex(b.addr) } };
    if (rng.next() < 0.5) return { fn: 'aclrtHostRegisterV2', args: { ptr: toHex(b.addr), size: b.size, flag: 0x10000002 } };
    return b.memory === 'pinned' ? { fn: 'aclrtFreeHost', args: { hostPtr: toHex(b.addr) } } : { fn: 'free', args: { ptr: toHex(b.addr) } };
  }
  if (roll < 0.72) {
    const memAttr = pick(rng, [4, 5, 10, 1]) ?? 4;
    const size =
      (Math.floor(rng.next() * 8) + (rng.next() < 0.05 ? 0 : 1)) * (memAttr === 10 ? GiB : 2 * MiB) + (rng.next() < 0.05 ? 4096 : 0);
    return { fn: 'aclrtMallocPhysical', args: { size, prop: { ...PROP, memAttr }, flags: 0 } };
  }
  if (roll < 0.76)
    return {
      fn: 'aclrtReserveMemAddress',
      args: { size: (Math.floor(rng.next() * 16) + 1) * 2 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 },
    };
  if (roll < 0.84) {
    const h = pick(
      rng,
      mine(state.handles).filter((item) => !item.freed),
    );
    const r = pick(rng, mine(state.reservations));
    const memory = h === undefined ? undefined : state.physical.get(h.memory);
    if (h === undefined || r === undefined || memory === undefined) return { fn: 'aclrtGetDevice', args: {} };
    const slots = Math.max(1, Math.floor((r.size - memory.size) / (2 * MiB)) + 1);
    const virPtr = toHex(r.addr + Math.floor(rng.next() * slots) * 2 * MiB);
    return { fn: 'aclrtMapMem', args: { virPtr, size: memory.size, offset: 0, handle: toHex(h.handle), flags: 0 } };
  }
  if (roll < 0.88) {
    const m = pick(rng, mine(state.mappings));
    return m === undefined ? { fn: 'aclrtSynchronizeDevice', args: {} } : { fn: 'aclrtUnmapMem', args: { virPtr: toHex(m.addr) } };
  }
  if (roll < 0.92) {
    const h = pick(
      rng,
      mine(state.handles).filter((item) => !item.freed),
    );
    return h === undefined ? { fn: 'aclrtGetDevice', args: {} } : { fn: 'aclrtFreePhysical', args: { handle: toHex(h.handle) } };
  }
  if (roll < 0.95) {
    const r = pick(rng, mine(state.reservations));
    return r === undefined ? { fn: 'aclrtGetDevice', args: {} } : { fn: 'aclrtReleaseMemAddress', args: { virPtr: toHex(r.addr) } };
  }
  const src = pick(rng, mine(state.hostBuffers));
  const dst = pick(rng, mine(state.allocations));
  if (src === undefined || dst === undefined) return { fn: 'aclrtCreateStream', args: {} };
  const count = Math.min(src.size, dst.size);
  return { fn: 'aclrtMemcpy', args: { dst: toHex(dst.addr), destMax: dst.size, src: toHex(src.addr), count, kind: 1 } };
}

/**
 * One random call about contexts, streams and events (CX, EV, CP-4 … CP-7) against the live state:
 * creations, switches, records, waits, synchronizations and destructions, valid or not.
 */
export function randomSyncCall(rng: Rng, state: HostState, pid: number): AclCall {
  const mine = <T extends { pid: number }>(map: Map<number, T>): T[] => [...map.values()].filter((item) => item.pid === pid);
  const stream = () => {
    const s = pick(rng, mine(state.streams));
    return toHex(s === undefined || rng.next() < 0.15 ? 0 : s.handle);
  };
  const event = () => toHex(pick(rng, mine(state.aclEvents))?.handle ?? 0x4321);
  const context = () => toHex(pick(rng, mine(state.contexts))?.handle ?? 0x4321);
  const devices = state.devices.length;
  switch (Math.floor(rng.next() * 18)) {
    case 0:
      return { fn: 'aclrtCreateContext', args: { deviceId: Math.floor(rng.next() * (devices + 1)) } };
    case 1:
      return { fn: 'aclrtDestroyContext', args: { context: context() } };
    case 2:
      return { fn: 'aclrtSetCurrentContext', args: { context: context() } };
    case 3:
      return rng.next() < 0.5
        ? { fn: 'aclrtCreateStream', args: {} }
        : { fn: 'aclrtCreateStreamWithConfig', args: { priority: 0, flag: 1 } };
    case 4:
      return { fn: rng.next() < 0.5 ? 'aclrtDestroyStream' : 'aclrtDestroyStreamForce', args: { stream: stream() } };
    case 5:
      return { fn: 'aclrtCreateEvent', args: {} };
    case 6:
      return { fn: 'aclrtCreateEventWithFlag', args: { flag: pick(rng, [1, 8, 9, 0x10, 0x21]) ?? 1 } };
    case 7:
      return { fn: 'aclrtCreateEventExWithFlag', args: { flag: pick(rng, [1, 0x40, 0x41]) ?? 1 } };
    case 8:
      return { fn: 'aclrtRecordEvent', args: { event: event(), stream: stream() } };
    case 9:
      return { fn: 'aclrtStreamWaitEvent', args: { stream: stream(), event: event() } };
    case 10:
      return { fn: 'aclrtSynchronizeEventWithTimeout', args: { event: event(), timeout: pick(rng, [-1, 0, 1, 1000]) ?? -1 } };
    case 11:
      return { fn: 'aclrtResetEvent', args: { event: event(), stream: stream() } };
    case 12:
      return { fn: 'aclrtDestroyEvent', args: { event: event() } };
    case 13:
      return { fn: 'aclrtSetStreamFailureMode', args: { stream: stream(), mode: rng.next() < 0.5 ? 0 : 1 } };
    case 14:
      return { fn: 'aclrtSetDevice', args: { deviceId: Math.floor(rng.next() * devices) } };
    case 15: {
      // VM-12: a reference to a mapped handle, which teardown must give back.
      const m = pick(rng, mine(state.mappings));
      return { fn: 'aclrtMemRetainAllocationHandle', args: { virPtr: toHex(m?.addr ?? 0x1234) } };
    }
    case 16: {
      const d = pick(rng, mine(state.allocations));
      const h = pick(rng, mine(state.hostBuffers));
      const width = 4096;
      const height = Math.floor(rng.next() * 64);
      if (d === undefined || h === undefined) return { fn: 'aclrtGetDevice', args: {} };
      return {
        fn: 'aclrtMemcpy2dAsync',
        args: { dst: toHex(d.addr), dpitch: 8192, src: toHex(h.addr), spitch: 8192, width, height, kind: 1, stream: stream() },
      };
    }
    default:
      return { fn: 'aclrtSynchronizeDeviceWithTimeout', args: { timeout: pick(rng, [-1, 5]) ?? -1 } };
  }
}

/** Calls `calls` random calls; with `sync`, about a third are context, stream and event calls. */
export async function runRandomSession(
  runtime: SimRuntime,
  seed: number,
  calls: number,
  options: { sync?: boolean } = {},
): Promise<number[]> {
  const rng = new Rng(seed);
  const rets: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const state = runtime.host.state;
    const call = options.sync === true && rng.next() < 0.35 ? randomSyncCall(rng, state, runtime.pid) : randomCall(rng, state, runtime.pid);
    rets.push((await invokeCall(runtime, call)).ret);
  }
  return rets;
}

/** A 910B4 host with ACL initialised and device 0 set, recording every event it emits from the start. */
export async function freshSession(seed: number): Promise<{ host: SimHost; rt: SimRuntime; events: MemoryEvent[] }> {
  const host = new SimHost({ devices: [ASCEND_910B4], seed });
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  return { host, rt, events };
}
