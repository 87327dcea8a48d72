import type { DeviceProfile } from '../profiles/profile.ts';
import { FRAME_BYTES, frameCount } from '../profiles/profile.ts';
import type { AccessGrant, CopyMode, CopyPath, Fallback, HostMemoryKind, PageClass, PoolSampleEvent } from './events.ts';
import { cloneFrameTable, createFrameTable, type FrameTable } from './frames.ts';

/**
 * The memory state of one host: its devices' physical frames and every live object, as built by
 * `reduce` from events. Objects are keyed by id; per-process maps find them by address or handle.
 * Freed objects leave the state (their history lives in the event log).
 */
export interface HostState {
  /** The last event applied. */
  seq: number;
  /** Host time in ns after the last event (virtual on the simulator). */
  time: number;
  readonly devices: DeviceState[];
  readonly processes: Map<number, ProcessState>;
  readonly allocations: Map<number, DeviceAllocation>;
  readonly handles: Map<number, PhysicalHandle>;
  readonly physical: Map<number, PhysicalMemory>;
  readonly reservations: Map<number, Reservation>;
  readonly mappings: Map<number, Mapping>;
  readonly hostBuffers: Map<number, HostBuffer>;
  readonly streams: Map<number, Stream>;
  readonly contexts: Map<number, AclContext>;
  /** aclrtEvent objects (not to be confused with the memory events this state is built from). */
  readonly aclEvents: Map<number, AclEvent>;
  readonly shares: Map<number, Share>;
  /** IPC keys of device allocations, by key (IP-1). */
  readonly ipcKeys: Map<string, IpcKey>;
  /** Imports of IPC keys into other processes (IP-3). */
  readonly ipcImports: Map<number, IpcImport>;
  readonly copies: CopyRecord[];
}

export interface DeviceState {
  readonly id: number;
  readonly profile: DeviceProfile;
  readonly frames: FrameTable;
  /** Devices this device has enabled peer access to (one direction, DM-8). */
  readonly peers: Set<number>;
  /** The last pool reading, when a real runtime reported one. */
  lastSample?: PoolSampleEvent;
}

export interface ProcessState {
  readonly pid: number;
  readonly name: string;
  initialized: boolean;
  /** aclFinalize ran and no aclInit came after it: another aclFinalize answers 100037 (LT-5). */
  finalized: boolean;
  /** -1 before the first aclrtSetDevice. */
  currentDevice: number;
  /** The context current on the process's host thread (CX-1); -1 for none. */
  currentContext: number;
  /** aclrtSetDevice reference count per device (LT-2). */
  readonly deviceRefs: Map<number, number>;
  readonly allocByAddr: Map<number, number>;
  readonly reservationByAddr: Map<number, number>;
  readonly mappingByAddr: Map<number, number>;
  readonly hostByAddr: Map<number, number>;
  readonly handleByValue: Map<number, number>;
  readonly streamByHandle: Map<number, number>;
  /** The default stream (NULL aclrtStream) of each device the process has set. */
  readonly defaultStreams: Map<number, number>;
  readonly contextByHandle: Map<number, number>;
  /** The default (primary) context of each device the process has set (CX-1). */
  readonly primaryContexts: Map<number, number>;
  readonly eventByHandle: Map<number, number>;
  /** IPC imports by the address they gave this process (IP-3). */
  readonly importByAddr: Map<number, number>;
}

export interface DeviceAllocation {
  readonly id: number;
  readonly pid: number;
  readonly device: number;
  readonly fn: string;
  readonly addr: number;
  /** Bytes requested. */
  readonly size: number;
  /** Bytes after the runtime's rounding and padding (DM-3). */
  readonly padded: number;
  readonly policy: number;
  readonly p2p: boolean;
  readonly pageClass: PageClass;
  readonly pageSize: number;
  readonly pages: number;
  readonly runs: readonly number[];
  readonly fallback?: Fallback;
  readonly createdSeq: number;
}

/** The physical memory of one aclrtMallocPhysical, shared by its handle and any imported handles. */
export interface PhysicalMemory {
  readonly id: number;
  readonly device: number;
  readonly size: number;
  readonly memAttr: number;
  readonly pageClass: PageClass;
  readonly pageSize: number;
  readonly pages: number;
  readonly runs: readonly number[];
  readonly createdSeq: number;
}

export interface PhysicalHandle {
  readonly id: number;
  readonly pid: number;
  readonly device: number;
  /** The aclrtDrvMemHandle value the process holds. */
  readonly handle: number;
  /** Id of the PhysicalMemory (the id of the handle that allocated it). */
  readonly memory: number;
  readonly importedFrom?: number;
  /** Live mappings of this handle. */
  mappings: number;
  /** aclrtFreePhysical was called while mapped: the handle is gone for the program, the memory waits for the unmap (VM-8). */
  freed: boolean;
  /** References taken with aclrtMemRetainAllocationHandle, each given back by one aclrtFreePhysical (VM-12). */
  retains: number;
  readonly createdSeq: number;
}

export interface Reservation {
  readonly id: number;
  readonly pid: number;
  readonly device: number;
  readonly addr: number;
  readonly size: number;
  readonly flags: number;
  readonly createdSeq: number;
}

export interface Mapping {
  readonly id: number;
  readonly pid: number;
  readonly reservation: number;
  readonly handle: number;
  readonly device: number;
  readonly addr: number;
  readonly size: number;
  access: readonly AccessGrant[];
  readonly createdSeq: number;
}

export interface HostBuffer {
  readonly id: number;
  readonly pid: number;
  readonly fn: string;
  readonly addr: number;
  readonly size: number;
  readonly memory: HostMemoryKind;
  readonly vaFlag: boolean;
  registration?: HostRegistration;
  readonly createdSeq: number;
}

export interface HostRegistration {
  readonly fn: string;
  readonly device: number;
  readonly flags: number;
  readonly pinned: boolean;
  readonly mapped: boolean;
  readonly devPtr: number;
  readonly vaConsistent: boolean;
}

export interface Stream {
  readonly id: number;
  readonly pid: number;
  readonly device: number;
  readonly handle: number;
  readonly isDefault: boolean;
  /** The context it belongs to (CX-3); absent when the journal that made it predates contexts. */
  readonly context?: number;
  /** Virtual time at which the work queued on the stream finishes. */
  busyUntil: number;
  /** aclrtSetStreamFailureMode: 0 continue (the default), 1 stop on failure (CP-7). */
  failureMode: number;
}

/** An ACL context: a device's default one (aclrtSetDevice) or one from aclrtCreateContext (CX-1). */
export interface AclContext {
  readonly id: number;
  readonly pid: number;
  readonly device: number;
  /** The aclrtContext value. */
  readonly handle: number;
  readonly isDefault: boolean;
  /** Id of the context's own default stream, once created. */
  defaultStream: number;
  readonly createdSeq: number;
}

/** An aclrtEvent (EV-1 … EV-6). */
export interface AclEvent {
  readonly id: number;
  readonly pid: number;
  readonly device: number;
  readonly context: number;
  /** The aclrtEvent value. */
  readonly handle: number;
  /** ACL_EVENT_* bits; aclrtCreateEvent's default is 0x0E (runtime-api.md §5). */
  readonly flags: number;
  /** Made by aclrtCreateEventExWithFlag. */
  readonly ex: boolean;
  /** The stream of the last aclrtRecordEvent; -1 while never recorded (or reset). */
  stream: number;
  /** Host time (ns) at which the captured work completes; meaningful once recorded. */
  at: number;
  /** Seq of the last record, -1 while never recorded. */
  recordedSeq: number;
  readonly createdSeq: number;
}

export interface Share {
  readonly shareable: number;
  /** Id of the exported handle. */
  readonly handle: number;
  readonly pid: number;
  readonly flags: number;
  pids: readonly number[];
}

/** An IPC key of a device allocation (IP-1, IP-2). */
export interface IpcKey {
  readonly key: string;
  /** The exporting process. */
  readonly pid: number;
  /** Id of the exported allocation. */
  readonly allocation: number;
  readonly size: number;
  /** ACL_RT_IPC_MEM_EXPORT_FLAG_*: 1 turns the allow-list off. */
  readonly flags: number;
  pids: readonly number[];
  readonly createdSeq: number;
}

/** Exported device memory as another process reaches it (IP-3). */
export interface IpcImport {
  readonly id: number;
  readonly pid: number;
  readonly key: string;
  /** Id of the exported allocation. */
  readonly source: number;
  readonly addr: number;
  readonly size: number;
  readonly device: number;
  readonly createdSeq: number;
}

export interface CopyRecord {
  readonly seq: number;
  readonly id: number;
  readonly pid: number;
  readonly fn: string;
  readonly memcpyKind: number;
  readonly dst: number;
  readonly src: number;
  readonly bytes: number;
  readonly device: number;
  readonly stream?: number;
  readonly mode: CopyMode;
  readonly path: CopyPath;
  readonly submit: number;
  readonly start: number;
  readonly end: number;
  readonly bytesPerSec: number;
  readonly stages: number;
}

export function createDeviceState(id: number, profile: DeviceProfile): DeviceState {
  return {
    id,
    profile,
    frames: createFrameTable(frameCount(profile), FRAME_BYTES / profile.normalPageSize),
    peers: new Set(),
  };
}

export function createHostState(profiles: readonly DeviceProfile[]): HostState {
  return {
    seq: 0,
    time: 0,
    devices: profiles.map((profile, id) => createDeviceState(id, profile)),
    processes: new Map(),
    allocations: new Map(),
    handles: new Map(),
    physical: new Map(),
    reservations: new Map(),
    mappings: new Map(),
    hostBuffers: new Map(),
    streams: new Map(),
    contexts: new Map(),
    aclEvents: new Map(),
    shares: new Map(),
    ipcKeys: new Map(),
    ipcImports: new Map(),
    copies: [],
  };
}

export function createProcessState(pid: number, name: string): ProcessState {
  return {
    pid,
    name,
    initialized: false,
    finalized: false,
    currentDevice: -1,
    currentContext: -1,
    deviceRefs: new Map(),
    allocByAddr: new Map(),
    reservationByAddr: new Map(),
    mappingByAddr: new Map(),
    hostByAddr: new Map(),
    handleByValue: new Map(),
    streamByHandle: new Map(),
    defaultStreams: new Map(),
    contextByHandle: new Map(),
    primaryContexts: new Map(),
    eventByHandle: new Map(),
    importByAddr: new Map(),
  };
}

/** A copy of a map whose values reduce edits in place (a field without `readonly`): each value copied too. */
function cloneMap<K, V extends object>(map: Map<K, V>): Map<K, V> {
  const copy = new Map<K, V>();
  for (const [key, value] of map) copy.set(key, { ...value });
  return copy;
}

/** True when every field of T is readonly (the "equal types" test on the field with and without the modifier). */
type AllReadonly<T> = {
  [K in keyof T]-?: (<G>() => G extends { [P in K]: T[K] } ? 1 : 2) extends <G>() => G extends { readonly [P in K]: T[K] } ? 1 : 2
    ? never
    : K;
}[keyof T] extends never
  ? true
  : false;

/**
 * A copy of a map whose values are never edited, only replaced (every field readonly, which the
 * compiler checks below): the two maps share the values. For the imported snapshot's 400 segments
 * this halves a time-travel step's clone; a value type that gains a writable field stops compiling
 * here, and belongs with `cloneMap`.
 */
function shareValues<K, V extends object>(map: Map<K, V>, _valuesReadonly: AllReadonly<V>): Map<K, V> {
  return new Map(map);
}

/** A deep copy, for time-travel checkpoints. Immutable parts (runs, reasons, profiles) are shared. */
export function cloneHostState(state: HostState): HostState {
  const processes = new Map<number, ProcessState>();
  for (const [pid, process] of state.processes) {
    processes.set(pid, {
      ...process,
      deviceRefs: new Map(process.deviceRefs),
      allocByAddr: new Map(process.allocByAddr),
      reservationByAddr: new Map(process.reservationByAddr),
      mappingByAddr: new Map(process.mappingByAddr),
      hostByAddr: new Map(process.hostByAddr),
      handleByValue: new Map(process.handleByValue),
      streamByHandle: new Map(process.streamByHandle),
      defaultStreams: new Map(process.defaultStreams),
      contextByHandle: new Map(process.contextByHandle),
      primaryContexts: new Map(process.primaryContexts),
      eventByHandle: new Map(process.eventByHandle),
      importByAddr: new Map(process.importByAddr),
    });
  }
  return {
    seq: state.seq,
    time: state.time,
    devices: state.devices.map((device) => ({ ...device, frames: cloneFrameTable(device.frames), peers: new Set(device.peers) })),
    processes,
    allocations: shareValues(state.allocations, true),
    handles: cloneMap(state.handles),
    physical: shareValues(state.physical, true),
    reservations: shareValues(state.reservations, true),
    mappings: cloneMap(state.mappings),
    hostBuffers: cloneMap(state.hostBuffers),
    streams: cloneMap(state.streams),
    contexts: cloneMap(state.contexts),
    aclEvents: cloneMap(state.aclEvents),
    shares: cloneMap(state.shares),
    ipcKeys: cloneMap(state.ipcKeys),
    ipcImports: shareValues(state.ipcImports, true),
    copies: [...state.copies],
  };
}
