import { alignUp, MiB } from '../units/bytes.ts';
import type { SimContext } from './context.ts';
import { unregister } from './ops-host.ts';
import { closeKey } from './ops-ipc.ts';
import { freeHandle, unmap } from './ops-vmm.ts';

/**
 * What the runtime releases when a process's last reference to a device goes (LT-2): everything
 * the process holds there, in the order RULES.md gives (unmap → release → free physical → free
 * device memory → destroy events and streams → contexts).
 */
export function releaseDeviceResources(context: SimContext, device: number): void {
  const { state, pid } = context;
  // IPC first: this process's imports of memory on the device, then the keys it exported there (IP-4).
  const keys = new Set<string>();
  for (const item of state.ipcImports.values()) if (item.pid === pid && item.device === device) keys.add(item.key);
  for (const key of state.ipcKeys.values())
    if (key.pid === pid && state.allocations.get(key.allocation)?.device === device) keys.add(key.key);
  for (const key of keys) closeKey(context, key);
  for (const mapping of [...state.mappings.values()]) {
    if (mapping.pid === pid && mapping.device === device) unmap(context, mapping);
  }
  for (const reservation of [...state.reservations.values()]) {
    if (reservation.pid !== pid || reservation.device !== device) continue;
    for (const mapping of [...state.mappings.values()]) if (mapping.reservation === reservation.id) unmap(context, mapping);
    context.space.deviceVa[device]?.release(reservation.addr, alignUp(reservation.size, 2 * MiB));
    context.emit({ kind: 'release', id: reservation.id });
  }
  for (const handle of [...state.handles.values()]) {
    if (handle.pid === pid && handle.device === device && !handle.freed) freeHandle(context, handle);
  }
  for (const allocation of [...state.allocations.values()]) {
    if (allocation.pid !== pid || allocation.device !== device) continue;
    context.space.deviceVa[device]?.release(allocation.addr, allocation.pages * allocation.pageSize);
    context.emit({ kind: 'free', id: allocation.id });
  }
  // Host memory stays, but its registration with this device goes with the context (LT-2, HM-5).
  for (const buffer of [...state.hostBuffers.values()]) {
    if (buffer.pid === pid && buffer.registration?.device === device) unregister(context, buffer);
  }
  for (const event of [...state.aclEvents.values()]) {
    if (event.pid === pid && event.device === device) context.emit({ kind: 'eventDestroy', id: event.id });
  }
  for (const stream of [...state.streams.values()]) {
    if (stream.pid === pid && stream.device === device) context.emit({ kind: 'streamDestroy', id: stream.id });
  }
  // Created contexts first, the device's default context last (CX-2).
  const contexts = [...state.contexts.values()].filter((item) => item.pid === pid && item.device === device);
  for (const item of contexts.sort((a, b) => Number(a.isDefault) - Number(b.isDefault)))
    context.emit({ kind: 'contextDestroy', id: item.id });
}
