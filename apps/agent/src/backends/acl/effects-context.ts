import {
  type DeviceProfile,
  type EventBody,
  type Hex,
  type HostBuffer,
  type HostState,
  isHex,
  type Mapping,
  type PhysicalHandle,
  type ProcessState,
  type Stream,
} from '@pagelens/core';
import type { PoolReading } from './observe.ts';
import type { ObservedHost } from './observed-host.ts';
import { exactAddress } from './pointers.ts';

/** What the device told the backend around one call, beyond the call's own answer. */
export interface Observation {
  readonly before?: PoolReading;
  readonly after?: PoolReading;
  /** aclrtPointerGetAttributes(result).pageSize. */
  readonly pointerPageSize?: number;
  /** aclrtHostGetDevicePointer, asked after a MAPPED registration. */
  readonly devicePointer?: Hex;
  /** aclrtGetCurrentContext, asked after a call that may change the thread's current context (CX-1). */
  readonly currentContext?: Hex;
  /** aclrtCtxGetCurrentDefaultStream, asked after aclrtCreateContext: the new context's own default stream (CX-1). */
  readonly defaultStream?: Hex;
}

/**
 * Everything an effect may read or do: the replica state, the calling process, the time around
 * the C call, and `notes` for the caller. Effects change state only through `emit`, and only
 * after the runtime said the call succeeded: they record what happened, they decide nothing.
 */
export interface EffectContext {
  /** Where new object ids come from: the acl backend's replica, or the simulator's host for a traced program (run/trace-events.ts). */
  readonly host: { newId(): number };
  readonly state: HostState;
  readonly pid: number;
  readonly process: ProcessState;
  readonly notes: string[];
  /** Backend wall-clock ns when the session's call began and ended (a thread hop and the marshalling included). */
  readonly t0: number;
  readonly t1: number;
  /** The C call itself: when it began (backend ns, t0 ≤ start) and how long it ran; a copy's rate comes from these. */
  readonly native: { readonly start: number; readonly durationNs: number };
  readonly observation: Observation;
  profileOf(device: number): DeviceProfile;
  emit(body: EventBody, modeled?: boolean): void;
}

export function emitter(host: ObservedHost): EffectContext['emit'] {
  return (body, modeled = false) => {
    host.emit(body, modeled ? 'modeled' : 'observed');
  };
}

/** An input or output address as an event number; pointers past 2^53 never get this far (the runner refuses them). */
export function address(context: EffectContext, hex: unknown, what: string): number | undefined {
  if (!isHex(hex)) return undefined;
  const value = exactAddress(hex);
  if (value === undefined) context.notes.push(`${what} ${hex} is 2^53 or more; PageLens recorded no state change for it`);
  return value;
}

/** The live host buffer of the process that holds [at, at + size). */
export function hostBufferAt(context: EffectContext, at: number, size = 1): HostBuffer | undefined {
  for (const id of context.process.hostByAddr.values()) {
    const buffer = context.state.hostBuffers.get(id);
    if (buffer !== undefined && buffer.addr <= at && at + size <= buffer.addr + buffer.size) return buffer;
  }
  return undefined;
}

/** core's AclContext and AclEvent, which its index does not export. */
type AclContext = HostState['contexts'] extends ReadonlyMap<number, infer C> ? C : never;
type AclEvent = HostState['aclEvents'] extends ReadonlyMap<number, infer E> ? E : never;

/** The process's current context (CX-1), or undefined. */
export function currentContextOf(context: EffectContext): AclContext | undefined {
  const id = context.process.currentContext;
  return id === -1 ? undefined : context.state.contexts.get(id);
}

export function contextByHandle(context: EffectContext, handle: number): AclContext | undefined {
  const id = context.process.contextByHandle.get(handle);
  return id === undefined ? undefined : context.state.contexts.get(id);
}

export function eventByHandle(context: EffectContext, handle: number): AclEvent | undefined {
  const id = context.process.eventByHandle.get(handle);
  return id === undefined ? undefined : context.state.aclEvents.get(id);
}

/** The stream a handle names; NULL is the current context's default stream (the device's for its default context). */
export function streamOf(context: EffectContext, handle: number): Stream | undefined {
  const { process } = context;
  let id: number | undefined;
  if (handle !== 0) id = process.streamByHandle.get(handle);
  else {
    const current = currentContextOf(context);
    id = current !== undefined && !current.isDefault ? current.defaultStream : process.defaultStreams.get(process.currentDevice);
  }
  return id === undefined ? undefined : context.state.streams.get(id);
}

export function handleOf(context: EffectContext, value: number): PhysicalHandle | undefined {
  const id = context.process.handleByValue.get(value);
  return id === undefined ? undefined : context.state.handles.get(id);
}

export function mappingAt(context: EffectContext, at: number): Mapping | undefined {
  const id = context.process.mappingByAddr.get(at);
  return id === undefined ? undefined : context.state.mappings.get(id);
}

export function numberArg(args: Readonly<Record<string, unknown>>, name: string): number {
  const value = args[name];
  return typeof value === 'number' ? value : 0;
}
