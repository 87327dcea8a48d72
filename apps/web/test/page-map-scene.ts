import { ASCEND_910B2, aclrtMemMallocPolicy, type DeviceProfile, type Hex, SimHost, SimRuntime } from '@pagelens/core';

/** A simulated host with device 0 set, for page-map and overview tests. */
export async function simulated(profile: DeviceProfile = ASCEND_910B2) {
  const host = new SimHost({ devices: [profile] });
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const malloc = async (size: number, policy: keyof typeof aclrtMemMallocPolicy.byName): Promise<Hex> => {
    const result = await rt.aclrtMalloc({ size, policy: aclrtMemMallocPolicy.byName[policy] });
    if (result.ret !== 0 || result.devPtr === undefined) throw new Error(`aclrtMalloc(${size}, ${policy}) failed: ${result.ret}`);
    return result.devPtr;
  };
  const idOf = (devPtr: Hex): number => {
    const addr = Number.parseInt(devPtr, 16);
    for (const allocation of host.state.allocations.values()) if (allocation.addr === addr) return allocation.id;
    throw new Error(`no allocation at ${devPtr}`);
  };
  const device = host.state.devices[0];
  if (device === undefined) throw new Error('no device 0');
  return { host, rt, state: host.state, device, table: device.frames, malloc, idOf };
}
