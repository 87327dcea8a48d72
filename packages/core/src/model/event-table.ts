import {
  addr,
  arrayOf,
  boolean,
  count,
  either,
  type Fields,
  id,
  int,
  number,
  object,
  oneOf,
  optional,
  positive,
  recordOf,
  seq,
  text,
  unknown,
} from './shape.ts';

/**
 * Every kind of event, written once: the fields each carries, in the shape vocabulary of shape.ts.
 * The event types (events.ts), the wire schemas (protocol/event-schemas.ts), the fast guards of the
 * bulk path (protocol/event-guards.ts) and the test arbitraries all follow from this table.
 *
 * Addresses and handle values in events are exact integers (all below 2^53); objects are named by
 * numeric ids that stay unique for the life of a host. Physical placement (which frames and pages)
 * is decided by the simulator and recorded in the event, so replay never decides anything.
 */

/** Where a fact comes from: the real runtime, the simulator, or PageLens's own model. */
export const provenance = oneOf('observed', 'simulated', 'modeled');
export const pageClass = oneOf('normal', 'huge', 'giant');
export const hostMemoryKind = oneOf('pageable', 'pinned');
export const copyMode = oneOf('sync', 'async', 'async-blocking');
/** What moved the bytes: DMA from pinned memory, staging through a bounce buffer, on-device, or host memcpy. */
export const copyPath = oneOf('pinned', 'pageable-staged', 'device', 'host', 'peer');

/** One step of a decision, rendered to text by analysis/explain.ts (English) or the web app's i18n. */
export const reason = object({
  code: text(64),
  rules: arrayOf(text(16), { max: 16 }),
  values: optional(recordOf(either(number, text(200)))),
});
const reasons = arrayOf(reason, { max: 32 });

/**
 * A text for people, as a code of texts/table.ts and the values its template names: the web renders
 * it in the UI's language, and the English text travels beside it (`message`) for scripted clients.
 */
export const codedText = object({
  code: text(64),
  values: optional(recordOf(either(number, text(200)))),
});

/** Physical placement: runs of [start, count], in frames for huge/giant pages and in global normal-page numbers otherwise. */
export const placement = { pageClass, pageSize: count, pages: count, runs: arrayOf(count, { max: 1 << 22 }) } satisfies Fields;

/** HUGE_FIRST found too few huge pages and fell back to normal pages (DM-4): what it saw. */
export const fallback = object({ from: pageClass, needed: count, free: count });

/** What the aclrtMalloc family decided for an allocation, as its event and its snapshot row record it. */
export const allocationFacts = {
  addr,
  size: count,
  padded: count,
  policy: count,
  p2p: boolean,
  fallback: optional(fallback),
} satisfies Fields;

/** How host memory was registered with a device (aclrtHostRegister*), in its event and in the buffer's row. */
export const registrationFacts = {
  device: count,
  flags: count,
  pinned: boolean,
  mapped: boolean,
  devPtr: addr,
  /** The device sees the memory at the host address (HM-6). */
  vaConsistent: boolean,
} satisfies Fields;

/** How a copy moved its bytes, in its event and in the snapshot's copy records. */
export const copyFacts = {
  memcpyKind: count,
  dst: addr,
  src: addr,
  bytes: count,
  device: count,
  stream: optional(id),
  mode: copyMode,
  path: copyPath,
  /** When the host issued it, when the bytes started and finished moving (ns). */
  submit: count,
  start: count,
  end: count,
  bytesPerSec: positive,
  /** Staging chunks for pageable copies (HM-1); 0 otherwise. */
  stages: count,
} satisfies Fields;

export const accessGrant = object({ device: count, flags: count });
export const poolFigures = object({ free: count, total: count });
const jsonRecord = recordOf(unknown);

/** The fields every event has: its place in the history, its time and where it comes from. */
const base = {
  seq,
  /** Host time in nanoseconds: virtual on the simulator, wall clock since the session began when observed. */
  t: count,
  provenance,
  /** The seq of the `call` event that caused this change (absent for the call itself and for samples). */
  call: optional(seq),
} satisfies Fields;

/** An event: the base fields, then its `kind` (one of the names given) and its own fields. */
const event = <const F extends Fields>(fields: F) => object({ ...base, ...fields });

/** The event kinds, one row per event type of events.ts, named by the (first) kind it covers. */
export const EVENT_TABLE = {
  call: event({
    kind: oneOf('call'),
    pid: count,
    fn: text(64),
    args: jsonRecord,
    ret: int,
    out: optional(jsonRecord),
    message: optional(text(2000)),
    /** The message as a code and values (texts/table.ts), for the UI's language. */
    messageCode: optional(codedText),
    reasons: optional(reasons),
    /** Time the calling thread spent in the call (virtual on the simulator, measured on hardware). */
    durationNs: count,
    /** Set when the failure was injected on purpose (tests and lessons). */
    injected: optional(boolean),
    /** The OS thread of an interposed program that made the call (`pagelens run`); absent for the agent's own sessions. */
    thread: optional(count),
  }),
  process: event({ kind: oneOf('process'), pid: count, name: text(64) }),
  init: event({ kind: oneOf('init', 'finalize'), pid: count }),
  /** aclrtSetDevice / aclrtResetDevice: the process's current device and its reference count there (LT-2). */
  deviceSet: event({ kind: oneOf('deviceSet', 'deviceReset'), pid: count, device: count, refs: count }),
  /**
   * A context: a device's default (primary) one, which the first aclrtSetDevice creates (LT-2,
   * CX-1), or one from aclrtCreateContext.
   */
  contextCreate: event({ kind: oneOf('contextCreate'), pid: count, device: count, id, handle: addr, isDefault: boolean }),
  contextDestroy: event({ kind: oneOf('contextDestroy'), id }),
  /** The context now current on the process's host thread, and with it the current device (CX-1). */
  contextCurrent: event({ kind: oneOf('contextCurrent'), pid: count, id }),
  streamCreate: event({
    kind: oneOf('streamCreate'),
    pid: count,
    device: count,
    id,
    /** The aclrtStream value; 0 for a device's default stream, which aclrtSetDevice creates (LT-2). */
    handle: addr,
    isDefault: boolean,
    /** The context the stream belongs to (CX-3); absent in journals from before contexts were modeled. */
    context: optional(id),
  }),
  streamDestroy: event({ kind: oneOf('streamDestroy'), id }),
  /** aclrtSetStreamFailureMode: 0 continue on failure, 1 stop on failure (CP-7). */
  streamMode: event({ kind: oneOf('streamMode'), id, mode: count }),
  /** An aclrtEvent, created in the current context (EV-1). `ex` for aclrtCreateEventExWithFlag. */
  eventCreate: event({ kind: oneOf('eventCreate'), pid: count, device: count, context: id, id, handle: addr, flags: count, ex: boolean }),
  /**
   * aclrtRecordEvent: the event captures the work queued on `stream` so far, which completes at
   * `at` (host ns, virtual on the simulator) (EV-2).
   */
  eventRecord: event({ kind: oneOf('eventRecord'), id, stream: id, at: count }),
  /** aclrtStreamWaitEvent: later work on `stream` starts no earlier than `until` (EV-3). */
  eventWait: event({ kind: oneOf('eventWait'), id, stream: id, until: count }),
  valueWrite: event({ kind: oneOf('valueWrite'), pid: count, stream: id, device: count, addr, value: count, at: count }),
  valueWait: event({
    kind: oneOf('valueWait'),
    pid: count,
    stream: id,
    addr,
    value: count,
    flag: count,
    met: boolean,
    until: count,
    reasons,
  }),
  /** aclrtResetEvent: the event is back to never recorded (EV-5). */
  eventReset: event({ kind: oneOf('eventReset'), id }),
  eventDestroy: event({ kind: oneOf('eventDestroy'), id }),
  /** The host thread waited until `until` (synchronize, or a blocking copy). */
  sync: event({ kind: oneOf('sync'), pid: count, stream: optional(id), device: optional(count), until: count }),
  /**
   * An allocation of the aclrtMalloc family. It records facts only; the explanation (padding,
   * policy, page choice) is derived from them by `allocationReasons`, so events stay small.
   */
  alloc: event({ ...placement, kind: oneOf('alloc'), pid: count, device: count, id, fn: text(64), ...allocationFacts }),
  free: event({ kind: oneOf('free'), id }),
  physAlloc: event({ ...placement, kind: oneOf('physAlloc'), pid: count, device: count, id, handle: addr, size: count, memAttr: count }),
  /** aclrtFreePhysical: the handle is gone; `deferred` when the memory stays until its last unmap (VM-8). */
  physFree: event({ kind: oneOf('physFree'), id, deferred: boolean }),
  /** aclrtMemRetainAllocationHandle took a reference to handle `id`, or aclrtFreePhysical gave one back: `retains` now (VM-12). */
  physRetain: event({ kind: oneOf('physRetain'), id, retains: count }),
  /** The physical memory behind handle `id` returned its frames to the device. */
  physRelease: event({ kind: oneOf('physRelease'), id }),
  reserve: event({ kind: oneOf('reserve'), pid: count, device: count, id, addr, size: count, flags: count }),
  release: event({ kind: oneOf('release'), id }),
  map: event({ kind: oneOf('map'), pid: count, id, reservation: id, handle: id, addr, size: count, device: count }),
  unmap: event({ kind: oneOf('unmap'), id }),
  setAccess: event({ kind: oneOf('setAccess'), id, access: arrayOf(accessGrant, { max: 64 }) }),
  hostAlloc: event({
    kind: oneOf('hostAlloc'),
    pid: count,
    id,
    fn: text(64),
    addr,
    size: count,
    memory: hostMemoryKind,
    /** aclrtMallocHostWithCfg VA_FLAG (HM-6). */
    vaFlag: boolean,
  }),
  hostFree: event({ kind: oneOf('hostFree'), id }),
  hostRegister: event({ kind: oneOf('hostRegister'), id, fn: text(64), ...registrationFacts }),
  hostUnregister: event({ kind: oneOf('hostUnregister'), id }),
  copy: event({ kind: oneOf('copy'), pid: count, id, fn: text(64), ...copyFacts, reasons }),
  memset: event({ kind: oneOf('memset'), pid: count, addr, count, value: int, device: count }),
  export: event({ kind: oneOf('export'), id, shareable: addr, flags: count }),
  import: event({
    kind: oneOf('import'),
    pid: count,
    id,
    /** Id of the exported handle whose memory this handle now shares. */
    source: id,
    handle: addr,
    shareable: addr,
    device: count,
  }),
  sharePids: event({ kind: oneOf('sharePids'), shareable: addr, pids: arrayOf(int, { max: 1024 }) }),
  peerAccess: event({ kind: oneOf('peerAccess'), pid: count, device: count, peer: count }),
  /** aclrtDeviceDisablePeerAccess: device `device` gives up its access to `peer` (DM-8). */
  peerAccessOff: event({ kind: oneOf('peerAccessOff'), pid: count, device: count, peer: count }),
  /** aclrtIpcMemGetExportKey: allocation `id` (its first `size` bytes) may be imported by `key` (IP-1). */
  ipcExport: event({ kind: oneOf('ipcExport'), pid: count, key: text(128), id, size: count, flags: count }),
  /** aclrtIpcMemSetImportPid: the key's allow-list is now `pids` (IP-2). */
  ipcPids: event({ kind: oneOf('ipcPids'), key: text(128), pids: arrayOf(int, { max: 1024 }) }),
  /** aclrtIpcMemImportByKey: process `pid` reaches the exported memory at `addr` on `device` (IP-3). */
  ipcImport: event({ kind: oneOf('ipcImport'), pid: count, id, key: text(128), source: id, addr, size: count, device: count }),
  /** aclrtIpcMemClose: `pid` closes the key: its imports of it end, or, for the exporter, the key (IP-4). */
  ipcClose: event({ kind: oneOf('ipcClose'), pid: count, key: text(128) }),
  /** A reading of a device's page pools, as aclrtGetMemInfo reports them (observed on hardware). */
  poolSample: event({
    kind: oneOf('poolSample'),
    device: count,
    pools: object({ normal: poolFigures, huge: poolFigures, giant: poolFigures, all: poolFigures }),
    /** Bytes of the device held by this agent's sessions at the time of the sample. */
    ownBytes: optional(count),
  }),
} as const;

export type EventTable = typeof EVENT_TABLE;
export type EventShape = EventTable[keyof EventTable];
