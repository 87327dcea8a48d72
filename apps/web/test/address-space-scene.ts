import { ASCEND_910B2, aclrtMemAttr, aclrtMemMallocPolicy, type Hex, type HostState, parseHex, SimHost, SimRuntime } from '@pagelens/core';

const POLICY = aclrtMemMallocPolicy.byName;

export const MiB = 1024 * 1024;

export interface AddressScene {
  readonly state: HostState;
  readonly pid: number;
  readonly otherPid: number;
  /** 3 MiB HUGE_FIRST: two 2 MiB huge pages. */
  readonly huge: number;
  /** 64 KiB NORMAL_ONLY: 17 normal pages after padding. */
  readonly small: number;
  /** A 4 MiB reservation whose first 2 MiB map a 2 MiB huge handle. */
  readonly virPtr: number;
  readonly handle: number;
  /** The other process's 2 MiB HUGE_ONLY allocation (same VA window, separate address space). */
  readonly otherAlloc: number;
}

function value(hex: Hex | undefined, what: string): number {
  const parsed = parseHex(hex ?? '');
  if (!parsed.ok) throw new Error(`${what}: ${parsed.message}`);
  return parsed.value;
}

async function ok<T extends { ret: number; message?: string }>(result: Promise<T>): Promise<T> {
  const done = await result;
  if (done.ret !== 0) throw new Error(done.message ?? `ret ${done.ret}`);
  return done;
}

/** The scene the address-space tests use, made by the real simulator. */
export async function addressScene(): Promise<AddressScene> {
  const host = new SimHost({ devices: [ASCEND_910B2], seed: 1 });
  const rt = new SimRuntime(host, 'app');
  await ok(rt.aclInit({ configPath: null }));
  await ok(rt.aclrtSetDevice({ deviceId: 0 }));
  const huge = await ok(rt.aclrtMalloc({ size: 3 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST }));
  const small = await ok(rt.aclrtMalloc({ size: 64 * 1024, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY }));
  const prop = {
    handleType: 0,
    allocationType: 0,
    memAttr: aclrtMemAttr.byName.ACL_HBM_MEM_HUGE,
    location: { type: 1, id: 0 },
    reserve: 0,
  };
  const physical = await ok(rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 }));
  const reserved = await ok(rt.aclrtReserveMemAddress({ size: 4 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 }));
  const virPtr = value(reserved.virPtr, 'virPtr');
  await ok(rt.aclrtMapMem({ virPtr: reserved.virPtr ?? '0x0', size: 2 * MiB, offset: 0, handle: physical.handle ?? '0x0', flags: 0 }));
  const other = new SimRuntime(host, 'other');
  await ok(other.aclInit({ configPath: null }));
  await ok(other.aclrtSetDevice({ deviceId: 0 }));
  const otherAlloc = await ok(other.aclrtMalloc({ size: 2 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY }));
  return {
    state: host.state,
    pid: rt.pid,
    otherPid: other.pid,
    huge: value(huge.devPtr, 'huge'),
    small: value(small.devPtr, 'small'),
    virPtr,
    handle: value(physical.handle, 'handle'),
    otherAlloc: value(otherAlloc.devPtr, 'otherAlloc'),
  };
}
