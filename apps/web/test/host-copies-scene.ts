import { ACL_HOST_REG, aclrtMallocAttrType, aclrtMemcpyKind, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';

const MiB = 1024 * 1024;
const K = aclrtMemcpyKind.byName;
const REG = ACL_HOST_REG.byName;

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`missing ${what}`);
  return value;
}

export interface CopyScene {
  readonly host: SimHost;
  readonly events: MemoryEvent[];
  readonly pid: number;
  readonly stream: string;
  readonly ptrs: {
    readonly pageable: string;
    readonly pinned: string;
    readonly dev: string;
    readonly registered: string;
    readonly sameVa: string;
  };
}

/**
 * A simulated host (910B2, seed 1) with the lesson of view 5 in it: a pageable and a pinned 64 MiB
 * H2D copy, an async pinned copy on a created stream, a sync D2H copy while it runs, a blocking
 * async copy from pageable memory, a synchronize, two async copies queued on one link, a device
 * synchronize; and two registered buffers, one VA-consistent.
 */
export async function copyScene(): Promise<CopyScene> {
  const host = new SimHost({ seed: 1 });
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const size = 64 * MiB;
  const pageable = need((await rt.malloc({ size })).ptr, 'pageable');
  const pinned = need((await rt.aclrtMallocHost({ size })).hostPtr, 'pinned');
  const dev = need((await rt.aclrtMalloc({ size, policy: 0 })).devPtr, 'dev');
  const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
  await rt.aclrtMemcpy({ dst: dev, destMax: size, src: pageable, count: size, kind: K.ACL_MEMCPY_HOST_TO_DEVICE });
  await rt.aclrtMemcpy({ dst: dev, destMax: size, src: pinned, count: size, kind: K.ACL_MEMCPY_HOST_TO_DEVICE });
  await rt.aclrtMemcpyAsync({ dst: dev, destMax: size, src: pinned, count: size, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream });
  await rt.aclrtMemcpy({ dst: pageable, destMax: size, src: dev, count: size, kind: K.ACL_MEMCPY_DEVICE_TO_HOST });
  await rt.aclrtMemcpyAsync({ dst: dev, destMax: size, src: pageable, count: size, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream });
  await rt.aclrtMemcpyAsync({ dst: dev, destMax: size, src: pinned, count: size, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream });
  await rt.aclrtSynchronizeStream({ stream });
  // Two async pinned H2D copies on two streams: the second queues behind the first on the link (CP-4).
  const stream2 = need((await rt.aclrtCreateStream({})).stream, 'stream2');
  await rt.aclrtMemcpyAsync({ dst: dev, destMax: size, src: pinned, count: size, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream });
  await rt.aclrtMemcpyAsync({ dst: dev, destMax: size, src: pinned, count: size, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream: stream2 });
  await rt.aclrtSynchronizeDevice({});
  const registered = need((await rt.malloc({ size: 2 * MiB })).ptr, 'registered');
  await rt.aclrtHostRegisterV2({ ptr: registered, size: 2 * MiB, flag: REG.ACL_HOST_REG_PINNED | REG.ACL_HOST_REG_MAPPED });
  const cfg = { attrs: [{ attr: aclrtMallocAttrType.byName.ACL_RT_MEM_ATTR_VA_FLAG, value: { vaFlag: 1 } }], numAttrs: 1 };
  const sameVa = need((await rt.aclrtMallocHostWithCfg({ size: 2 * MiB, cfg })).ptr, 'sameVa');
  await rt.aclrtHostRegisterV2({ ptr: sameVa, size: 2 * MiB, flag: REG.ACL_HOST_REG_MAPPED });
  const pid = need(host.state.copies[0], 'a copy').pid;
  return { host, events, pid, stream, ptrs: { pageable, pinned, dev, registered, sameVa } };
}
