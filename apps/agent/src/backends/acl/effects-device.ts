import type { EffectContext } from './effects-context.ts';

/*
 * State changes of the process, device and stream calls, recorded after the runtime succeeded.
 * Releases that follow from a reset or aclFinalize are what the runtime documents (LT-2, LT-3),
 * not something it reports: they are emitted with provenance "modeled".
 */

/** Unmaps a mapping and, when its handle was freed while mapped, releases the memory (VM-8). */
export function unmapRecorded(context: EffectContext, mappingId: number, modeled: boolean): void {
  const mapping = context.state.mappings.get(mappingId);
  if (mapping === undefined) return;
  context.emit({ kind: 'unmap', id: mapping.id }, modeled);
  const handle = context.state.handles.get(mapping.handle);
  if (handle?.freed === true && handle.mappings === 0) dropHandle(context, handle.id, modeled);
}

/** A handle with no mappings left goes; its memory goes when no handle refers to it (VM-8). */
export function dropHandle(context: EffectContext, handleId: number, modeled: boolean): void {
  const handle = context.state.handles.get(handleId);
  if (handle === undefined) return;
  context.emit({ kind: 'physFree', id: handle.id, deferred: false }, modeled);
  for (const other of context.state.handles.values()) if (other.memory === handle.memory) return;
  context.emit({ kind: 'physRelease', id: handle.memory }, modeled);
}

/** What the runtime releases with the process's last reference to `device` (all devices when undefined). */
export function releaseModeled(context: EffectContext, device: number | undefined): void {
  const { state, pid } = context;
  const on = (d: number): boolean => device === undefined || d === device;
  for (const mapping of [...state.mappings.values()])
    if (mapping.pid === pid && on(mapping.device)) unmapRecorded(context, mapping.id, true);
  for (const reservation of [...state.reservations.values()]) {
    if (reservation.pid === pid && on(reservation.device)) context.emit({ kind: 'release', id: reservation.id }, true);
  }
  for (const handle of [...state.handles.values()]) {
    if (handle.pid !== pid || !on(handle.device)) continue;
    if (handle.freed) continue;
    if (handle.mappings > 0) context.emit({ kind: 'physFree', id: handle.id, deferred: true }, true);
    else dropHandle(context, handle.id, true);
  }
  for (const allocation of [...state.allocations.values()]) {
    if (allocation.pid === pid && on(allocation.device)) context.emit({ kind: 'free', id: allocation.id }, true);
  }
  for (const buffer of [...state.hostBuffers.values()]) {
    if (buffer.pid !== pid) continue;
    if (buffer.registration !== undefined && on(buffer.registration.device)) context.emit({ kind: 'hostUnregister', id: buffer.id }, true);
    // Pinned memory belongs to the runtime: aclFinalize takes it; malloc memory stays with the process.
    if (device === undefined && buffer.memory === 'pinned') context.emit({ kind: 'hostFree', id: buffer.id }, true);
  }
  for (const stream of [...state.streams.values()]) {
    if (stream.pid === pid && on(stream.device)) context.emit({ kind: 'streamDestroy', id: stream.id }, true);
  }
}

export function recordInit(context: EffectContext): void {
  context.emit({ kind: 'init', pid: context.pid });
}

export function recordFinalize(context: EffectContext): void {
  releaseModeled(context, undefined);
  for (const device of [...context.process.deviceRefs.keys()]) {
    context.emit({ kind: 'deviceReset', pid: context.pid, device, refs: 0 }, true);
  }
  context.emit({ kind: 'finalize', pid: context.pid });
}

/** LT-2: reference-counted; the first set creates the device's default stream. */
export function recordSetDevice(context: EffectContext, device: number): void {
  const refs = (context.process.deviceRefs.get(device) ?? 0) + 1;
  context.emit({ kind: 'deviceSet', pid: context.pid, device, refs });
  if (refs === 1) {
    context.emit({ kind: 'streamCreate', pid: context.pid, device, id: context.host.newId(), handle: 0, isDefault: true }, true);
  }
}

export function recordResetDevice(context: EffectContext, device: number, force: boolean): void {
  const before = context.process.deviceRefs.get(device) ?? 0;
  const refs = force ? 0 : Math.max(0, before - 1);
  if (refs === 0) releaseModeled(context, device);
  context.emit({ kind: 'deviceReset', pid: context.pid, device, refs });
}

export function recordCreateStream(context: EffectContext, handle: number): void {
  const device = context.process.currentDevice;
  context.emit({ kind: 'streamCreate', pid: context.pid, device, id: context.host.newId(), handle, isDefault: false });
}

export function recordDestroyStream(context: EffectContext, handle: number): void {
  const id = context.process.streamByHandle.get(handle);
  if (id === undefined) context.notes.push(`stream 0x${handle.toString(16)} was not created through PageLens; nothing recorded`);
  else context.emit({ kind: 'streamDestroy', id });
}

/** The host waited until t1: the end of the wait is observed, the work it waited for is not. */
export function recordSync(context: EffectContext, streamHandle: number | undefined): void {
  const base = { kind: 'sync', pid: context.pid, until: context.t1 } as const;
  if (streamHandle === undefined) {
    context.emit({ ...base, device: context.process.currentDevice });
    return;
  }
  const id =
    streamHandle === 0
      ? context.process.defaultStreams.get(context.process.currentDevice)
      : context.process.streamByHandle.get(streamHandle);
  context.emit(id === undefined ? base : { ...base, stream: id });
}

export function recordPeerAccess(context: EffectContext, peer: number): void {
  const device = context.state.devices[context.process.currentDevice];
  if (device === undefined || context.state.devices[peer] === undefined) return;
  if (!device.peers.has(peer)) context.emit({ kind: 'peerAccess', pid: context.pid, device: device.id, peer });
}
