import type { MemoryEvent } from './events.ts';
import { need, processOf, ReduceError } from './reduce-support.ts';
import type { HostState } from './state.ts';

/** The events about runtime objects that own no pages: contexts, aclEvents, stream value tasks and IPC keys (CX, EV, CP-12, IP). */
export type RuntimeObjectEvent = Extract<
  MemoryEvent,
  {
    kind:
      | 'ipcExport'
      | 'ipcPids'
      | 'ipcImport'
      | 'ipcClose'
      | 'contextCreate'
      | 'contextCurrent'
      | 'contextDestroy'
      | 'streamMode'
      | 'eventCreate'
      | 'eventRecord'
      | 'eventWait'
      | 'valueWrite'
      | 'valueWait'
      | 'eventReset'
      | 'eventDestroy';
  }
>;

/** `reduce` for the runtime objects: applies one event in place and returns the state. */
export function reduceRuntimeObject(state: HostState, event: RuntimeObjectEvent): HostState {
  switch (event.kind) {
    case 'ipcExport': {
      const allocation = need(state.allocations.get(event.id), event, 'allocation', event.id);
      state.ipcKeys.set(event.key, {
        key: event.key,
        pid: event.pid,
        allocation: allocation.id,
        size: event.size,
        flags: event.flags,
        pids: [],
        createdSeq: event.seq,
      });
      return state;
    }
    case 'ipcPids': {
      const key = state.ipcKeys.get(event.key);
      if (key === undefined) throw new ReduceError(event, `unknown IPC key ${event.key}`);
      key.pids = event.pids;
      return state;
    }
    case 'ipcImport': {
      const { id, pid, key, source, addr, size, device } = event;
      state.ipcImports.set(id, { id, pid, key, source, addr, size, device, createdSeq: event.seq });
      processOf(state, event, pid).importByAddr.set(addr, id);
      return state;
    }
    case 'ipcClose': {
      const p = processOf(state, event, event.pid);
      const key = state.ipcKeys.get(event.key);
      if (key?.pid === event.pid) state.ipcKeys.delete(event.key);
      for (const item of [...state.ipcImports.values()]) {
        if (item.pid !== event.pid || item.key !== event.key) continue;
        state.ipcImports.delete(item.id);
        p.importByAddr.delete(item.addr);
      }
      return state;
    }
    case 'contextCreate': {
      const { id, pid, device, handle, isDefault } = event;
      state.contexts.set(id, { id, pid, device, handle, isDefault, defaultStream: -1, createdSeq: event.seq });
      const p = processOf(state, event, pid);
      p.contextByHandle.set(handle, id);
      if (isDefault) p.primaryContexts.set(device, id);
      return state;
    }
    case 'contextCurrent': {
      const p = processOf(state, event, event.pid);
      p.currentContext = event.id;
      p.currentDevice = need(state.contexts.get(event.id), event, 'context', event.id).device;
      return state;
    }
    case 'contextDestroy': {
      const context = need(state.contexts.get(event.id), event, 'context', event.id);
      state.contexts.delete(event.id);
      const p = processOf(state, event, context.pid);
      p.contextByHandle.delete(context.handle);
      if (context.isDefault) p.primaryContexts.delete(context.device);
      if (p.currentContext === event.id) {
        // The thread falls back to the device's default context while the device is set (CX-2).
        const primary = context.isDefault ? undefined : p.primaryContexts.get(context.device);
        p.currentContext = primary ?? -1;
        if (primary === undefined && !p.deviceRefs.has(context.device)) p.currentDevice = -1;
      }
      return state;
    }
    case 'streamMode':
      need(state.streams.get(event.id), event, 'stream', event.id).failureMode = event.mode;
      return state;
    case 'eventCreate': {
      const { id, pid, device, context, handle, flags, ex } = event;
      state.aclEvents.set(id, { id, pid, device, context, handle, flags, ex, stream: -1, at: 0, recordedSeq: -1, createdSeq: event.seq });
      processOf(state, event, pid).eventByHandle.set(handle, id);
      return state;
    }
    case 'eventRecord': {
      const target = need(state.aclEvents.get(event.id), event, 'aclEvent', event.id);
      target.stream = event.stream;
      target.at = event.at;
      target.recordedSeq = event.seq;
      return state;
    }
    case 'eventWait': {
      const stream = need(state.streams.get(event.stream), event, 'stream', event.stream);
      if (event.until > stream.busyUntil) stream.busyUntil = event.until;
      return state;
    }
    case 'valueWrite': {
      const stream = need(state.streams.get(event.stream), event, 'stream', event.stream);
      if (event.at > stream.busyUntil) stream.busyUntil = event.at;
      return state;
    }
    case 'valueWait': {
      const stream = need(state.streams.get(event.stream), event, 'stream', event.stream);
      if (event.met && event.until > stream.busyUntil) stream.busyUntil = event.until;
      return state;
    }
    case 'eventReset': {
      const target = need(state.aclEvents.get(event.id), event, 'aclEvent', event.id);
      target.stream = -1;
      target.recordedSeq = -1;
      return state;
    }
    case 'eventDestroy': {
      const target = need(state.aclEvents.get(event.id), event, 'aclEvent', event.id);
      state.aclEvents.delete(event.id);
      processOf(state, event, target.pid).eventByHandle.delete(target.handle);
      return state;
    }
  }
}
