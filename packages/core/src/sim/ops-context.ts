import { ACL_ERROR_RT_CONTEXT_NULL, ACL_ERROR_RT_INVALID_DEVICEID, ACL_ERROR_RT_STREAM_CONTEXT } from '../acl/errors.ts';
import type { AclContext, Stream } from '../model/state.ts';
import { text } from '../texts/table.ts';
import { toHex } from '../units/hex.ts';
import { address, done, fail, invalid, type Op, type OpResult, ok, type SimContext } from './context.ts';

/*
 * Contexts (CX-1 … CX-3, runtime-api.md §3). The simulator models one host thread per process, so
 * "current on the calling thread" is current in the process.
 */

/** The context the process's thread has current, or undefined (CX-1). */
export function currentContextOf(context: SimContext): AclContext | undefined {
  const id = context.process.currentContext;
  return id === -1 ? undefined : context.state.contexts.get(id);
}

/** A live context of this process by its aclrtContext value. */
export function contextByHandle(context: SimContext, hex: string): AclContext | undefined {
  const id = context.process.contextByHandle.get(address(hex));
  return id === undefined ? undefined : context.state.contexts.get(id);
}

/** CX-3: a stream serves only the context that created it; undefined when `stream` may be used now. */
export function foreignStream(context: SimContext, stream: Stream, fn: string): OpResult<never> | undefined {
  const current = context.process.currentContext;
  if (stream.context === undefined || current === -1 || stream.context === current) return undefined;
  return fail(ACL_ERROR_RT_STREAM_CONTEXT, text('stream-foreign', { fn, stream: toHex(stream.handle), owner: stream.context, current }));
}

/** A context of the process's own, with its default stream (CX-1). Used by aclrtCreateContext and aclrtSetDevice. */
export function createContext(context: SimContext, device: number, isDefault: boolean): AclContext | undefined {
  const { host, pid } = context;
  const id = host.newId();
  const handle = host.newOpaque();
  context.emit({ kind: 'contextCreate', pid, device, id, handle, isDefault });
  // The device's default stream is the NULL stream (handle 0); a created context's has a handle of its own.
  const stream = isDefault ? 0 : host.newOpaque();
  context.emit({ kind: 'streamCreate', pid, device, id: host.newId(), handle: stream, isDefault: true, context: id });
  return context.state.contexts.get(id);
}

/** CX-1: a new context on `deviceId`, current from now on, with a default stream of its own. */
export const aclrtCreateContext: Op<'aclrtCreateContext'> = (context, { deviceId }) => {
  const devices = context.state.devices.length;
  if (deviceId < 0 || deviceId >= devices) {
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, text('device-missing', { device: deviceId, last: devices - 1 }));
  }
  const made = createContext(context, deviceId, false);
  if (made === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('context-not-created'));
  context.emit({ kind: 'contextCurrent', pid: context.pid, id: made.id });
  return ok({ context: toHex(made.handle) });
};

/**
 * CX-2: destroys a created context and everything that belongs to it (its events and streams,
 * its default stream too). A device's default context is released by aclrtResetDevice instead.
 */
export const aclrtDestroyContext: Op<'aclrtDestroyContext'> = (context, { context: handle }) => {
  if (address(handle) === 0) return invalid(text('null-arg', { name: 'context' }));
  const target = contextByHandle(context, handle);
  if (target === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('context-not-live', { handle, rule: 'CX-2' }));
  if (target.isDefault) {
    return fail(ACL_ERROR_RT_CONTEXT_NULL, text('context-default', { handle, device: target.device }));
  }
  releaseContextObjects(context, target.id);
  context.emit({ kind: 'contextDestroy', id: target.id });
  return done();
};

/** The events and streams of a context, released before the context itself (CX-2, LT-3). */
export function releaseContextObjects(context: SimContext, id: number): void {
  for (const event of [...context.state.aclEvents.values()]) if (event.context === id) context.emit({ kind: 'eventDestroy', id: event.id });
  for (const stream of [...context.state.streams.values()])
    if (stream.context === id) context.emit({ kind: 'streamDestroy', id: stream.id });
}

/** CX-1: makes a live context current, and its device with it. NULL is refused by the ACL layer (100000). */
export const aclrtSetCurrentContext: Op<'aclrtSetCurrentContext'> = (context, { context: handle }) => {
  if (address(handle) === 0) return invalid(text('context-null-set'));
  const target = contextByHandle(context, handle);
  if (target === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('context-not-live', { handle, rule: 'CX-1' }));
  if (context.process.currentContext !== target.id) context.emit({ kind: 'contextCurrent', pid: context.pid, id: target.id });
  return done();
};

export const aclrtGetCurrentContext: Op<'aclrtGetCurrentContext'> = (context) => {
  const current = currentContextOf(context);
  if (current === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('no-current-context', { rule: 'CX-1' }));
  return ok({ context: toHex(current.handle) });
};

/**
 * CX-1: the current context's default stream. A device's default stream is the NULL stream in
 * PageLens (modeled: the runtime answers a handle of its own), so this answers 0x0 for it.
 */
export const aclrtCtxGetCurrentDefaultStream: Op<'aclrtCtxGetCurrentDefaultStream'> = (context) => {
  const current = currentContextOf(context);
  if (current === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('no-current-context', { rule: 'CX-1' }));
  const stream = context.state.streams.get(current.defaultStream);
  return ok({ stream: toHex(stream?.handle ?? 0) });
};
