import type { AclCall } from '../acl/invoke.ts';
import { type Hex, toHex } from '../units/hex.ts';
import type { HostState } from './state.ts';

/**
 * The ACL calls that release everything process `pid` holds, in the order RULES.md gives
 * (VM-8, LT-3): unmap → release reservations → free physical handles → free device memory →
 * unregister and free host memory → destroy events and streams, context by context, and the
 * created contexts (CX-2) → reset devices → finalize. Running the plan
 * through any AclRuntime tears the process down; planning again afterwards gives an empty plan,
 * which makes teardown idempotent.
 */
export function planTeardown(state: HostState, pid: number): AclCall[] {
  const process = state.processes.get(pid);
  if (process === undefined) return [];
  const calls: AclCall[] = [];
  const mine = <T extends { pid: number }>(items: Iterable<T>): T[] => [...items].filter((item) => item.pid === pid);
  // The current device and context as the plan's own calls change them (CX-1, CX-2).
  let currentDevice = process.currentDevice;
  let current = process.currentContext;
  // Devices the process holds a reference to once the plan's own aclrtSetDevice calls ran: the ones to reset.
  const held = new Set(process.deviceRefs.keys());
  const setDevice = (device: number) => {
    calls.push({ fn: 'aclrtSetDevice', args: { deviceId: device } });
    held.add(device);
    currentDevice = device;
    current = process.primaryContexts.get(device) ?? -1;
  };

  for (const mapping of mine(state.mappings.values())) calls.push({ fn: 'aclrtUnmapMem', args: { virPtr: toHex(mapping.addr) } });
  for (const reservation of mine(state.reservations.values()))
    calls.push({ fn: 'aclrtReleaseMemAddress', args: { virPtr: toHex(reservation.addr) } });
  for (const handle of mine(state.handles.values())) {
    // One aclrtFreePhysical for the handle and one for each reference aclrtMemRetainAllocationHandle took (VM-12).
    if (!handle.freed)
      for (let n = 0; n <= handle.retains; n += 1) calls.push({ fn: 'aclrtFreePhysical', args: { handle: toHex(handle.handle) } });
  }
  // IPC keys are closed before the memory goes: imports of others' memory, then keys of its own (IP-4).
  const keys = new Set<string>();
  for (const item of mine(state.ipcImports.values())) keys.add(item.key);
  for (const key of mine(state.ipcKeys.values())) keys.add(key.key);
  for (const key of keys) calls.push({ fn: 'aclrtIpcMemClose', args: { key } });
  // Device memory is freed with its device current (ACL contexts are per device).
  const byDevice = new Map<number, Hex[]>();
  for (const allocation of mine(state.allocations.values())) {
    const list = byDevice.get(allocation.device) ?? [];
    list.push(toHex(allocation.addr));
    byDevice.set(allocation.device, list);
  }
  for (const [device, pointers] of [...byDevice].sort((a, b) => a[0] - b[0])) {
    if (currentDevice !== device) setDevice(device);
    for (const devPtr of pointers) calls.push({ fn: 'aclrtFree', args: { devPtr } });
  }
  for (const buffer of mine(state.hostBuffers.values())) {
    const hostPtr = toHex(buffer.addr);
    if (buffer.registration !== undefined) calls.push({ fn: 'aclrtHostUnregister', args: { ptr: hostPtr } });
    if (buffer.memory === 'pinned') calls.push({ fn: 'aclrtFreeHost', args: { hostPtr } });
    else calls.push({ fn: 'free', args: { ptr: hostPtr } });
  }
  // Events and streams are released in the context that made them (CX-3): each created context in
  // turn, then the device's default context, made current again by aclrtSetDevice.
  const contexts = mine(state.contexts.values()).sort((a, b) => Number(a.isDefault) - Number(b.isDefault) || a.id - b.id);
  const owned = (context: number | undefined) => ({
    events: mine(state.aclEvents.values()).filter((event) => event.context === context),
    streams: mine(state.streams.values()).filter((stream) => stream.context === context && !stream.isDefault),
  });
  const release = ({ events, streams }: ReturnType<typeof owned>) => {
    for (const event of events) calls.push({ fn: 'aclrtDestroyEvent', args: { event: toHex(event.handle) } });
    for (const stream of streams) calls.push({ fn: 'aclrtDestroyStream', args: { stream: toHex(stream.handle) } });
  };
  for (const context of contexts) {
    const objects = owned(context.id);
    if (context.isDefault) {
      if (objects.events.length + objects.streams.length === 0) continue;
      if (current !== context.id) setDevice(context.device);
      release(objects);
      continue;
    }
    if (current !== context.id) calls.push({ fn: 'aclrtSetCurrentContext', args: { context: toHex(context.handle) } });
    current = context.id;
    currentDevice = context.device;
    release(objects);
    calls.push({ fn: 'aclrtDestroyContext', args: { context: toHex(context.handle) } });
    // The thread falls back to the device's default context, if the device is set (CX-2).
    current = process.primaryContexts.get(context.device) ?? -1;
    currentDevice = current === -1 && !process.deviceRefs.has(context.device) ? -1 : context.device;
  }
  // Streams from journals made before contexts were modeled belong to no context.
  release(owned(undefined));
  for (const device of [...held].sort((a, b) => a - b)) calls.push({ fn: 'aclrtResetDeviceForce', args: { deviceId: device } });
  if (process.initialized) calls.push({ fn: 'aclFinalize', args: {} });
  return calls;
}
