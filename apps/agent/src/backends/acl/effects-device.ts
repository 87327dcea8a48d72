import { contextByHandle, currentContextOf, type EffectContext, streamOf } from './effects-context.ts';
import { closeKeysOnDevice } from './effects-ipc.ts';
import { exactAddress } from './pointers.ts';

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
  // IPC first: imports, then the keys of the memory about to go (IP-4), as the simulator's reset does.
  closeKeysOnDevice(context, device);
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
  for (const event of [...state.aclEvents.values()]) {
    if (event.pid === pid && on(event.device)) context.emit({ kind: 'eventDestroy', id: event.id }, true);
  }
  for (const stream of [...state.streams.values()]) {
    if (stream.pid === pid && on(stream.device)) context.emit({ kind: 'streamDestroy', id: stream.id }, true);
  }
  // Created contexts first, the device's default context last (CX-2).
  const contexts = [...state.contexts.values()].filter((item) => item.pid === pid && on(item.device));
  for (const item of contexts.sort((a, b) => Number(a.isDefault) - Number(b.isDefault)))
    context.emit({ kind: 'contextDestroy', id: item.id }, true);
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

/** An observed "0x…" handle as an event number, or undefined (absent, or 2^53 and more). */
function observedHandle(value: string | undefined): number | undefined {
  return value === undefined ? undefined : exactAddress(value as `0x${string}`);
}

/**
 * LT-2, CX-1: reference-counted; the first set creates the device's default context with its
 * default (NULL) stream, and every set makes that context current. The runtime reports neither
 * (provenance "modeled"); the context's handle is what aclrtGetCurrentContext answered right
 * after the call, read by the call runner. Without that answer the handle is recorded as 0x0
 * (a value the agent chose, never passed back to the runtime: teardown makes a default context
 * current with aclrtSetDevice, not by its handle).
 */
export function recordSetDevice(context: EffectContext, device: number): void {
  const refs = (context.process.deviceRefs.get(device) ?? 0) + 1;
  if (refs === 1 && !context.process.primaryContexts.has(device)) {
    const observed = observedHandle(context.observation.currentContext);
    if (observed === undefined)
      context.notes.push("aclrtGetCurrentContext did not answer: the device's default context is recorded with handle 0x0");
    const id = context.host.newId();
    context.emit({ kind: 'contextCreate', pid: context.pid, device, id, handle: observed ?? 0, isDefault: true }, true);
    context.emit(
      { kind: 'streamCreate', pid: context.pid, device, id: context.host.newId(), handle: 0, isDefault: true, context: id },
      true,
    );
  }
  context.emit({ kind: 'deviceSet', pid: context.pid, device, refs });
}

/** CX-1: a new context on `device`, with a default stream of its own, current from now on. */
export function recordCreateContext(context: EffectContext, handle: number, device: number): void {
  const id = context.host.newId();
  context.emit({ kind: 'contextCreate', pid: context.pid, device, id, handle, isDefault: false });
  const stream = observedHandle(context.observation.defaultStream);
  if (stream === undefined || stream === 0) {
    context.notes.push('aclrtCtxGetCurrentDefaultStream did not answer: the new context is recorded without its default stream');
  } else {
    // The runtime creates it with the context and does not report it: "modeled", with the handle it answered.
    context.emit(
      { kind: 'streamCreate', pid: context.pid, device, id: context.host.newId(), handle: stream, isDefault: true, context: id },
      true,
    );
  }
  context.emit({ kind: 'contextCurrent', pid: context.pid, id });
}

/** CX-2: the context goes, and with it what belongs to it (its events and streams; the runtime does not list them: modeled). */
export function recordDestroyContext(context: EffectContext, handle: number): void {
  const target = contextByHandle(context, handle);
  if (target === undefined) {
    context.notes.push(`context 0x${handle.toString(16)} was not created through PageLens; nothing recorded`);
    return;
  }
  for (const event of [...context.state.aclEvents.values()])
    if (event.context === target.id) context.emit({ kind: 'eventDestroy', id: event.id }, true);
  for (const stream of [...context.state.streams.values()])
    if (stream.context === target.id) context.emit({ kind: 'streamDestroy', id: stream.id }, true);
  context.emit({ kind: 'contextDestroy', id: target.id });
}

/** CX-1: the context made current, and its device with it. */
export function recordSetCurrentContext(context: EffectContext, handle: number): void {
  const target = contextByHandle(context, handle);
  if (target === undefined) context.notes.push(`context 0x${handle.toString(16)} was not created through PageLens; nothing recorded`);
  else if (context.process.currentContext !== target.id) context.emit({ kind: 'contextCurrent', pid: context.pid, id: target.id });
}

export function recordResetDevice(context: EffectContext, device: number, force: boolean): void {
  const before = context.process.deviceRefs.get(device) ?? 0;
  const refs = force ? 0 : Math.max(0, before - 1);
  if (refs === 0) releaseModeled(context, device);
  context.emit({ kind: 'deviceReset', pid: context.pid, device, refs });
}

/** CX-3: the stream belongs to the current context (and its device). */
export function recordCreateStream(context: EffectContext, handle: number): void {
  const owner = currentContextOf(context);
  const device = owner?.device ?? context.process.currentDevice;
  const base = { kind: 'streamCreate', pid: context.pid, device, id: context.host.newId(), handle, isDefault: false } as const;
  context.emit(owner === undefined ? base : { ...base, context: owner.id });
}

/** aclrtDestroyStream returned after the stream's work was done (the host waited until t1, observed); Force did not wait. */
export function recordDestroyStream(context: EffectContext, handle: number, waited: boolean): void {
  const id = context.process.streamByHandle.get(handle);
  if (id === undefined) {
    context.notes.push(`stream 0x${handle.toString(16)} was not created through PageLens; nothing recorded`);
    return;
  }
  if (waited) context.emit({ kind: 'sync', pid: context.pid, stream: id, until: context.t1 });
  context.emit({ kind: 'streamDestroy', id });
}

/** CP-7: stop-on-failure applies to every stream of the stream's context; the runtime refused the way back. */
export function recordStreamMode(context: EffectContext, handle: number, mode: number): void {
  const target = streamOf(context, handle);
  if (target === undefined) {
    context.notes.push(`stream 0x${handle.toString(16)} is not known to PageLens; nothing recorded`);
    return;
  }
  const wanted = mode & 1;
  for (const other of context.state.streams.values()) {
    const same = target.context === undefined ? other.id === target.id : other.context === target.context;
    if (same && other.failureMode !== wanted) context.emit({ kind: 'streamMode', id: other.id, mode: wanted });
  }
}

/** The host waited until t1: the end of the wait is observed, the work it waited for is not. */
export function recordSync(context: EffectContext, streamHandle: number | undefined): void {
  const base = { kind: 'sync', pid: context.pid, until: context.t1 } as const;
  if (streamHandle === undefined) {
    context.emit({ ...base, device: context.process.currentDevice });
    return;
  }
  const id = streamOf(context, streamHandle)?.id;
  context.emit(id === undefined ? base : { ...base, stream: id });
}

export function recordPeerAccessOff(context: EffectContext, peer: number): void {
  const device = context.state.devices[context.process.currentDevice];
  if (device?.peers.has(peer) === true) context.emit({ kind: 'peerAccessOff', pid: context.pid, device: device.id, peer });
}

export function recordPeerAccess(context: EffectContext, peer: number): void {
  const device = context.state.devices[context.process.currentDevice];
  if (device === undefined || context.state.devices[peer] === undefined) return;
  if (!device.peers.has(peer)) context.emit({ kind: 'peerAccess', pid: context.pid, device: device.id, peer });
}
