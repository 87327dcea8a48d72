/**
 * Events: every change of memory state, in order. `reduce(state, event)` applies one; the
 * simulator, the agent and the browser all build their state this way, so a browser holds an
 * exact replica and can move its time cursor to any `seq` by replaying.
 *
 * Addresses and handle values in events are exact integers (all below 2^53); objects are named by
 * numeric ids that stay unique for the life of a host. Physical placement (which frames and pages)
 * is decided by the simulator and recorded in the event, so replay never decides anything.
 */

/** Where a fact comes from: the real runtime, the simulator, or PageLens's own model. */
export type Provenance = 'observed' | 'simulated' | 'modeled';

export type PageClass = 'normal' | 'huge' | 'giant';
export type HostMemoryKind = 'pageable' | 'pinned';
export type CopyMode = 'sync' | 'async' | 'async-blocking';
/** What moved the bytes: DMA from pinned memory, staging through a bounce buffer, on-device, or host memcpy. */
export type CopyPath = 'pinned' | 'pageable-staged' | 'device' | 'host' | 'peer';

/** One step of a decision, rendered to text by analysis/explain.ts (English) or the web app's i18n. */
export interface Reason {
  readonly code: string;
  readonly rules: readonly string[];
  readonly values?: Readonly<Record<string, number | string>>;
}

interface Base {
  readonly seq: number;
  /** Host time in nanoseconds: virtual on the simulator, wall clock since the session began when observed. */
  readonly t: number;
  readonly provenance: Provenance;
  /** The seq of the `call` event that caused this change (absent for the call itself and for samples). */
  readonly call?: number;
}

export interface CallEvent extends Base {
  readonly kind: 'call';
  readonly pid: number;
  readonly fn: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly ret: number;
  readonly out?: Readonly<Record<string, unknown>>;
  readonly message?: string;
  readonly reasons?: readonly Reason[];
  /** Time the calling thread spent in the call (virtual on the simulator, measured on hardware). */
  readonly durationNs: number;
  /** Set when the failure was injected on purpose (tests and lessons). */
  readonly injected?: boolean;
}

export interface ProcessEvent extends Base {
  readonly kind: 'process';
  readonly pid: number;
  readonly name: string;
}

export interface InitEvent extends Base {
  readonly kind: 'init' | 'finalize';
  readonly pid: number;
}

/** aclrtSetDevice / aclrtResetDevice: the process's current device and its reference count there (LT-2). */
export interface DeviceRefEvent extends Base {
  readonly kind: 'deviceSet' | 'deviceReset';
  readonly pid: number;
  readonly device: number;
  readonly refs: number;
}

export interface StreamCreateEvent extends Base {
  readonly kind: 'streamCreate';
  readonly pid: number;
  readonly device: number;
  readonly id: number;
  /** The aclrtStream value; 0 for a device's default stream, which aclrtSetDevice creates (LT-2). */
  readonly handle: number;
  readonly isDefault: boolean;
}

export interface StreamDestroyEvent extends Base {
  readonly kind: 'streamDestroy';
  readonly id: number;
}

/** The host thread waited until `until` (synchronize, or a blocking copy). */
export interface SyncEvent extends Base {
  readonly kind: 'sync';
  readonly pid: number;
  readonly stream?: number;
  readonly device?: number;
  readonly until: number;
}

/** Physical placement: runs of [start, count], in frames for huge/giant pages and in global normal-page numbers otherwise. */
export interface Placement {
  readonly pageClass: PageClass;
  readonly pageSize: number;
  readonly pages: number;
  readonly runs: readonly number[];
}

/** HUGE_FIRST found too few huge pages and fell back to normal pages (DM-4): what it saw. */
export interface Fallback {
  readonly from: PageClass;
  readonly needed: number;
  readonly free: number;
}

/**
 * An allocation of the aclrtMalloc family. It records facts only; the explanation (padding,
 * policy, page choice) is derived from them by `allocationReasons`, so events stay small.
 */
export interface AllocEvent extends Base, Placement {
  readonly kind: 'alloc';
  readonly pid: number;
  readonly device: number;
  readonly id: number;
  readonly fn: string;
  readonly addr: number;
  readonly size: number;
  readonly padded: number;
  readonly policy: number;
  readonly p2p: boolean;
  readonly fallback?: Fallback;
}

export interface FreeEvent extends Base {
  readonly kind: 'free';
  readonly id: number;
}

export interface PhysAllocEvent extends Base, Placement {
  readonly kind: 'physAlloc';
  readonly pid: number;
  readonly device: number;
  readonly id: number;
  readonly handle: number;
  readonly size: number;
  readonly memAttr: number;
}

/** aclrtFreePhysical: the handle is gone; `deferred` when the memory stays until its last unmap (VM-8). */
export interface PhysFreeEvent extends Base {
  readonly kind: 'physFree';
  readonly id: number;
  readonly deferred: boolean;
}

/** The physical memory behind handle `id` returned its frames to the device. */
export interface PhysReleaseEvent extends Base {
  readonly kind: 'physRelease';
  readonly id: number;
}

export interface ReserveEvent extends Base {
  readonly kind: 'reserve';
  readonly pid: number;
  readonly device: number;
  readonly id: number;
  readonly addr: number;
  readonly size: number;
  readonly flags: number;
}

export interface ReleaseEvent extends Base {
  readonly kind: 'release';
  readonly id: number;
}

export interface MapEvent extends Base {
  readonly kind: 'map';
  readonly pid: number;
  readonly id: number;
  readonly reservation: number;
  readonly handle: number;
  readonly addr: number;
  readonly size: number;
  readonly device: number;
}

export interface UnmapEvent extends Base {
  readonly kind: 'unmap';
  readonly id: number;
}

export interface AccessGrant {
  readonly device: number;
  readonly flags: number;
}

export interface SetAccessEvent extends Base {
  readonly kind: 'setAccess';
  readonly id: number;
  readonly access: readonly AccessGrant[];
}

export interface HostAllocEvent extends Base {
  readonly kind: 'hostAlloc';
  readonly pid: number;
  readonly id: number;
  readonly fn: string;
  readonly addr: number;
  readonly size: number;
  readonly memory: HostMemoryKind;
  /** aclrtMallocHostWithCfg VA_FLAG (HM-6). */
  readonly vaFlag: boolean;
}

export interface HostFreeEvent extends Base {
  readonly kind: 'hostFree';
  readonly id: number;
}

export interface HostRegisterEvent extends Base {
  readonly kind: 'hostRegister';
  readonly id: number;
  readonly fn: string;
  readonly device: number;
  readonly flags: number;
  readonly pinned: boolean;
  readonly mapped: boolean;
  readonly devPtr: number;
  /** The device sees the memory at the host address (HM-6). */
  readonly vaConsistent: boolean;
}

export interface HostUnregisterEvent extends Base {
  readonly kind: 'hostUnregister';
  readonly id: number;
}

export interface CopyEvent extends Base {
  readonly kind: 'copy';
  readonly pid: number;
  readonly id: number;
  readonly fn: string;
  readonly memcpyKind: number;
  readonly dst: number;
  readonly src: number;
  readonly bytes: number;
  readonly device: number;
  readonly stream?: number;
  readonly mode: CopyMode;
  readonly path: CopyPath;
  /** When the host issued it, when the bytes started and finished moving (ns). */
  readonly submit: number;
  readonly start: number;
  readonly end: number;
  readonly bytesPerSec: number;
  /** Staging chunks for pageable copies (HM-1); 0 otherwise. */
  readonly stages: number;
  readonly reasons: readonly Reason[];
}

export interface MemsetEvent extends Base {
  readonly kind: 'memset';
  readonly pid: number;
  readonly addr: number;
  readonly count: number;
  readonly value: number;
  readonly device: number;
}

export interface ExportEvent extends Base {
  readonly kind: 'export';
  readonly id: number;
  readonly shareable: number;
  readonly flags: number;
}

export interface ImportEvent extends Base {
  readonly kind: 'import';
  readonly pid: number;
  readonly id: number;
  /** Id of the exported handle whose memory this handle now shares. */
  readonly source: number;
  readonly handle: number;
  readonly shareable: number;
  readonly device: number;
}

export interface SharePidsEvent extends Base {
  readonly kind: 'sharePids';
  readonly shareable: number;
  readonly pids: readonly number[];
}

export interface PeerAccessEvent extends Base {
  readonly kind: 'peerAccess';
  readonly pid: number;
  readonly device: number;
  readonly peer: number;
}

export interface PoolFigures {
  readonly free: number;
  readonly total: number;
}

/** A reading of a device's page pools, as aclrtGetMemInfo reports them (observed on hardware). */
export interface PoolSampleEvent extends Base {
  readonly kind: 'poolSample';
  readonly device: number;
  readonly pools: { readonly normal: PoolFigures; readonly huge: PoolFigures; readonly giant: PoolFigures; readonly all: PoolFigures };
  /** Bytes of the device held by this agent's sessions at the time of the sample. */
  readonly ownBytes?: number;
}

export type MemoryEvent =
  | CallEvent
  | ProcessEvent
  | InitEvent
  | DeviceRefEvent
  | StreamCreateEvent
  | StreamDestroyEvent
  | SyncEvent
  | AllocEvent
  | FreeEvent
  | PhysAllocEvent
  | PhysFreeEvent
  | PhysReleaseEvent
  | ReserveEvent
  | ReleaseEvent
  | MapEvent
  | UnmapEvent
  | SetAccessEvent
  | HostAllocEvent
  | HostFreeEvent
  | HostRegisterEvent
  | HostUnregisterEvent
  | CopyEvent
  | MemsetEvent
  | ExportEvent
  | ImportEvent
  | SharePidsEvent
  | PeerAccessEvent
  | PoolSampleEvent;

export type EventKind = MemoryEvent['kind'];

/** An event before the host stamps it with seq, time and provenance. */
export type EventBody<E extends MemoryEvent = MemoryEvent> = E extends MemoryEvent ? Omit<E, 'seq' | 't' | 'provenance' | 'call'> : never;
