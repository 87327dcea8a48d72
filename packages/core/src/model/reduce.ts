import type { AllocEvent, MemoryEvent, Placement } from './events.ts';
import { claimFrames, claimPages, FrameKind, type FrameTable, releaseFrames, releasePages } from './frames.ts';
import { reduceRuntimeObject } from './reduce-objects.ts';
import { deviceOf, need, processOf, ReduceError } from './reduce-support.ts';
import { createProcessState, type DeviceAllocation, type HostState } from './state.ts';

export { ReduceError } from './reduce-support.ts';

function claim(frames: FrameTable, placement: Placement, owner: number): void {
  if (placement.pageClass === 'normal') claimPages(frames, placement.runs, owner);
  else claimFrames(frames, placement.runs, placement.pageClass === 'huge' ? FrameKind.huge : FrameKind.giant, owner);
}

function release(frames: FrameTable, placement: Placement): void {
  if (placement.pageClass === 'normal') releasePages(frames, placement.runs);
  else releaseFrames(frames, placement.runs);
}

/**
 * The live allocation an alloc event creates. Two literals rather than one with a spread-in
 * `fallback`: every aclrtMalloc passes here, and the spread cost several times the literal.
 */
function allocationOf(e: AllocEvent): DeviceAllocation {
  if (e.fallback !== undefined) {
    return {
      id: e.id,
      pid: e.pid,
      device: e.device,
      fn: e.fn,
      addr: e.addr,
      size: e.size,
      padded: e.padded,
      policy: e.policy,
      p2p: e.p2p,
      pageClass: e.pageClass,
      pageSize: e.pageSize,
      pages: e.pages,
      runs: e.runs,
      fallback: e.fallback,
      createdSeq: e.seq,
    };
  }
  return {
    id: e.id,
    pid: e.pid,
    device: e.device,
    fn: e.fn,
    addr: e.addr,
    size: e.size,
    padded: e.padded,
    policy: e.policy,
    p2p: e.p2p,
    pageClass: e.pageClass,
    pageSize: e.pageSize,
    pages: e.pages,
    runs: e.runs,
    createdSeq: e.seq,
  };
}

/**
 * What every event does to the state, a `call` event all it does: the cursor moves to its seq and
 * the clock to its time. For a maker of events that knows them to be in order and calls only
 * (an imported recording's trace entries, trace-calls.ts), without making the event.
 */
export function advance(state: HostState, seq: number, t: number): void {
  state.seq = seq;
  if (t > state.time) state.time = t;
}

/**
 * Applies one event to the state, in place, and returns it. Events must arrive in seq order;
 * `call` events change nothing but the cursor (a failed call changes no memory state).
 */
export function reduce(state: HostState, event: MemoryEvent): HostState {
  if (event.seq <= state.seq && state.seq !== 0) throw new ReduceError(event, `out of order: state is already at ${state.seq}`);
  advance(state, event.seq, event.t);

  switch (event.kind) {
    case 'call':
    case 'memset':
      return state;
    case 'process':
      state.processes.set(event.pid, createProcessState(event.pid, event.name));
      return state;
    case 'init': {
      const p = processOf(state, event, event.pid);
      p.initialized = true;
      p.finalized = false;
      return state;
    }
    case 'finalize': {
      const p = processOf(state, event, event.pid);
      p.initialized = false;
      p.finalized = true;
      return state;
    }
    case 'deviceSet': {
      const p = processOf(state, event, event.pid);
      p.deviceRefs.set(event.device, event.refs);
      p.currentDevice = event.device;
      // CX-1: setting a device makes its default context current (absent in journals from before contexts).
      p.currentContext = p.primaryContexts.get(event.device) ?? -1;
      return state;
    }
    case 'deviceReset': {
      const p = processOf(state, event, event.pid);
      if (event.refs > 0) p.deviceRefs.set(event.device, event.refs);
      else {
        p.deviceRefs.delete(event.device);
        if (p.currentDevice === event.device) {
          p.currentDevice = -1;
          p.currentContext = -1;
        }
        // LT-4: peer access lives with the device's contexts; it ends when the last process resets the device.
        let held = false;
        for (const other of state.processes.values()) if (other.deviceRefs.has(event.device)) held = true;
        if (!held) deviceOf(state, event, event.device).peers.clear();
      }
      return state;
    }
    case 'streamCreate': {
      const { id, pid, handle, isDefault, context } = event;
      const p = processOf(state, event, pid);
      if (context === undefined)
        state.streams.set(id, { id, pid, device: event.device, handle, isDefault, busyUntil: event.t, failureMode: 0 });
      else state.streams.set(id, { id, pid, device: event.device, handle, isDefault, context, busyUntil: event.t, failureMode: 0 });
      const owner = context === undefined ? undefined : need(state.contexts.get(context), event, 'context', context);
      if (owner !== undefined && isDefault) owner.defaultStream = id;
      // A created context's default stream has a handle of its own; the device's is the NULL stream (LT-2).
      if (isDefault && owner?.isDefault !== false) p.defaultStreams.set(event.device, id);
      else p.streamByHandle.set(handle, id);
      return state;
    }
    case 'streamDestroy': {
      const stream = need(state.streams.get(event.id), event, 'stream', event.id);
      state.streams.delete(event.id);
      const p = processOf(state, event, stream.pid);
      if (p.defaultStreams.get(stream.device) === event.id) p.defaultStreams.delete(stream.device);
      else p.streamByHandle.delete(stream.handle);
      return state;
    }
    case 'sync':
      if (event.until > state.time) state.time = event.until;
      return state;
    case 'alloc':
      state.allocations.set(event.id, allocationOf(event));
      processOf(state, event, event.pid).allocByAddr.set(event.addr, event.id);
      claim(deviceOf(state, event, event.device).frames, event, event.id);
      return state;
    case 'free': {
      const allocation = need(state.allocations.get(event.id), event, 'allocation', event.id);
      state.allocations.delete(event.id);
      processOf(state, event, allocation.pid).allocByAddr.delete(allocation.addr);
      release(deviceOf(state, event, allocation.device).frames, allocation);
      return state;
    }
    case 'physAlloc': {
      const { id, pid, handle, seq } = event;
      state.physical.set(id, {
        id,
        device: event.device,
        size: event.size,
        memAttr: event.memAttr,
        pageClass: event.pageClass,
        pageSize: event.pageSize,
        pages: event.pages,
        runs: event.runs,
        createdSeq: seq,
      });
      state.handles.set(id, { id, pid, device: event.device, handle, memory: id, mappings: 0, freed: false, retains: 0, createdSeq: seq });
      processOf(state, event, pid).handleByValue.set(handle, id);
      claim(deviceOf(state, event, event.device).frames, event, id);
      return state;
    }
    case 'import': {
      const source = need(state.handles.get(event.source), event, 'handle', event.source);
      state.handles.set(event.id, {
        id: event.id,
        pid: event.pid,
        device: event.device,
        handle: event.handle,
        memory: source.memory,
        importedFrom: event.source,
        mappings: 0,
        freed: false,
        retains: 0,
        createdSeq: event.seq,
      });
      processOf(state, event, event.pid).handleByValue.set(event.handle, event.id);
      return state;
    }
    case 'physFree': {
      const handle = need(state.handles.get(event.id), event, 'handle', event.id);
      processOf(state, event, handle.pid).handleByValue.delete(handle.handle);
      if (event.deferred) handle.freed = true;
      else state.handles.delete(event.id);
      dropShares(state, event.id);
      return state;
    }
    case 'physRelease': {
      const memory = need(state.physical.get(event.id), event, 'physical memory', event.id);
      state.physical.delete(event.id);
      for (const [id, handle] of state.handles) {
        if (handle.memory !== event.id) continue;
        state.handles.delete(id);
        dropShares(state, id);
      }
      release(deviceOf(state, event, memory.device).frames, memory);
      return state;
    }
    case 'reserve':
      state.reservations.set(event.id, {
        id: event.id,
        pid: event.pid,
        device: event.device,
        addr: event.addr,
        size: event.size,
        flags: event.flags,
        createdSeq: event.seq,
      });
      processOf(state, event, event.pid).reservationByAddr.set(event.addr, event.id);
      return state;
    case 'release': {
      const reservation = need(state.reservations.get(event.id), event, 'reservation', event.id);
      state.reservations.delete(event.id);
      processOf(state, event, reservation.pid).reservationByAddr.delete(reservation.addr);
      return state;
    }
    case 'map': {
      const handle = need(state.handles.get(event.handle), event, 'handle', event.handle);
      handle.mappings += 1;
      state.mappings.set(event.id, {
        id: event.id,
        pid: event.pid,
        reservation: event.reservation,
        handle: event.handle,
        device: event.device,
        addr: event.addr,
        size: event.size,
        access: [],
        createdSeq: event.seq,
      });
      processOf(state, event, event.pid).mappingByAddr.set(event.addr, event.id);
      return state;
    }
    case 'unmap': {
      const mapping = need(state.mappings.get(event.id), event, 'mapping', event.id);
      state.mappings.delete(event.id);
      processOf(state, event, mapping.pid).mappingByAddr.delete(mapping.addr);
      const handle = state.handles.get(mapping.handle);
      if (handle !== undefined) handle.mappings -= 1;
      return state;
    }
    case 'setAccess':
      need(state.mappings.get(event.id), event, 'mapping', event.id).access = event.access;
      return state;
    case 'hostAlloc':
      state.hostBuffers.set(event.id, {
        id: event.id,
        pid: event.pid,
        fn: event.fn,
        addr: event.addr,
        size: event.size,
        memory: event.memory,
        vaFlag: event.vaFlag,
        createdSeq: event.seq,
      });
      processOf(state, event, event.pid).hostByAddr.set(event.addr, event.id);
      return state;
    case 'hostFree': {
      const buffer = need(state.hostBuffers.get(event.id), event, 'host buffer', event.id);
      state.hostBuffers.delete(event.id);
      processOf(state, event, buffer.pid).hostByAddr.delete(buffer.addr);
      return state;
    }
    case 'hostRegister': {
      const { fn, device: dev, flags, pinned, mapped, devPtr, vaConsistent } = event;
      need(state.hostBuffers.get(event.id), event, 'host buffer', event.id).registration = {
        fn,
        device: dev,
        flags,
        pinned,
        mapped,
        devPtr,
        vaConsistent,
      };
      return state;
    }
    case 'hostUnregister': {
      const buffer = need(state.hostBuffers.get(event.id), event, 'host buffer', event.id);
      delete buffer.registration;
      return state;
    }
    case 'copy': {
      const { kind: _kind, t: _t, provenance: _p, call: _c, reasons: _r, ...record } = event;
      state.copies.push(record);
      // A synchronous or blocking copy holds the calling thread until the bytes have moved (HM-3).
      if (event.mode !== 'async' && event.end > state.time) state.time = event.end;
      if (event.stream !== undefined) {
        const stream = need(state.streams.get(event.stream), event, 'stream', event.stream);
        if (event.end > stream.busyUntil) stream.busyUntil = event.end;
      }
      return state;
    }
    case 'export':
      state.shares.set(event.shareable, {
        shareable: event.shareable,
        handle: event.id,
        pid: need(state.handles.get(event.id), event, 'handle', event.id).pid,
        flags: event.flags,
        pids: [],
      });
      return state;
    case 'sharePids':
      need(state.shares.get(event.shareable), event, 'shareable handle', event.shareable).pids = event.pids;
      return state;
    case 'peerAccess':
      deviceOf(state, event, event.device).peers.add(event.peer);
      return state;
    case 'peerAccessOff':
      deviceOf(state, event, event.device).peers.delete(event.peer);
      return state;
    case 'poolSample':
      deviceOf(state, event, event.device).lastSample = event;
      return state;
    case 'physRetain':
      need(state.handles.get(event.id), event, 'handle', event.id).retains = event.retains;
      return state;
    default:
      // Contexts, aclEvents and IPC keys, last: the cases above are the hot ones, and a string switch tests in order.
      return reduceRuntimeObject(state, event);
  }
}

/** VM-11: a shareable handle lives as long as the exporting handle; once that is freed, nothing can import it. */
function dropShares(state: HostState, handle: number): void {
  for (const [shareable, share] of state.shares) if (share.handle === handle) state.shares.delete(shareable);
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
