import {
  ASCEND_910B2,
  aclrtMemAttr,
  aclrtMemLocationType,
  aclrtMemMallocPolicy,
  type DeviceProfile,
  type Hex,
  type HostState,
  parseHex,
  SimHost,
  SimRuntime,
  toHex,
} from '@pagelens/core';

/** A simulated host with one process and device 0 set, for TLB model tests built on real state. */
export interface Scene {
  readonly state: HostState;
  readonly rt: SimRuntime;
  malloc(size: number, policy: keyof typeof aclrtMemMallocPolicy.byName, fn?: 'aclrtMalloc' | 'aclrtMallocAlign32'): Promise<number>;
  physical(size: number, attr: 'ACL_HBM_MEM_HUGE' | 'ACL_HBM_MEM_NORMAL'): Promise<Hex>;
  reserve(size: number): Promise<number>;
  map(va: number, size: number, handle: Hex): Promise<void>;
}

function addressOf(hex: string | undefined): number {
  const parsed = parseHex(hex ?? '');
  if (!parsed.ok) throw new Error(`not a pointer: ${hex}`);
  return parsed.value;
}

function check(result: { ret: number; message?: string }): void {
  if (result.ret !== 0) throw new Error(`ACL call failed: ${result.ret} ${result.message ?? ''}`);
}

export async function scene(profile: DeviceProfile = ASCEND_910B2): Promise<Scene> {
  const host = new SimHost({ devices: [profile], seed: 1 });
  const rt = new SimRuntime(host);
  check(await rt.aclInit({ configPath: null }));
  check(await rt.aclrtSetDevice({ deviceId: 0 }));
  return {
    state: host.state,
    rt,
    async malloc(size, policy, fn = 'aclrtMalloc') {
      const result = await rt[fn]({ size, policy: aclrtMemMallocPolicy.byName[policy] });
      check(result);
      return addressOf(result.devPtr);
    },
    async physical(size, attr) {
      const prop = {
        handleType: 0,
        allocationType: 0,
        memAttr: aclrtMemAttr.byName[attr],
        location: { type: aclrtMemLocationType.byName.ACL_MEM_LOCATION_TYPE_DEVICE, id: 0 },
        reserve: 0,
      };
      const result = await rt.aclrtMallocPhysical({ size, prop, flags: 0 });
      check(result);
      if (result.handle === undefined) throw new Error('no handle');
      return result.handle;
    },
    async reserve(size) {
      const result = await rt.aclrtReserveMemAddress({ size, alignment: 0, expectPtr: '0x0', flags: 0 });
      check(result);
      return addressOf(result.virPtr);
    },
    async map(va, size, handle) {
      check(await rt.aclrtMapMem({ virPtr: toHex(va), size, offset: 0, handle, flags: 0 }));
    },
  };
}
