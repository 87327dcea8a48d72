/**
 * Events: every change of memory state, in order. `reduce(state, event)` applies one; the
 * simulator, the agent and the browser all build their state this way, so a browser holds an
 * exact replica and can move its time cursor to any `seq` by replaying.
 *
 * The types are read off the one table of event kinds (event-table.ts), which says what each
 * kind and field means.
 */
import type {
  accessGrant,
  codedText,
  copyMode,
  copyPath,
  EventShape,
  EventTable,
  fallback,
  hostMemoryKind,
  pageClass,
  placement,
  poolFigures,
  provenance,
  reason,
} from './event-table.ts';
import type { ObjectOf, ValueOf } from './shape.ts';

export type Provenance = ValueOf<typeof provenance>;
export type PageClass = ValueOf<typeof pageClass>;
export type HostMemoryKind = ValueOf<typeof hostMemoryKind>;
export type CopyMode = ValueOf<typeof copyMode>;
export type CopyPath = ValueOf<typeof copyPath>;
export type Reason = ValueOf<typeof reason>;
export type CodedText = ValueOf<typeof codedText>;
export type Placement = ObjectOf<typeof placement>;
export type Fallback = ValueOf<typeof fallback>;
export type AccessGrant = ValueOf<typeof accessGrant>;
export type PoolFigures = ValueOf<typeof poolFigures>;

/** The event of one row of the table. */
type EventOf<Row extends keyof EventTable> = ValueOf<EventTable[Row]>;

export type CallEvent = EventOf<'call'>;
export type ProcessEvent = EventOf<'process'>;
export type InitEvent = EventOf<'init'>;
export type DeviceRefEvent = EventOf<'deviceSet'>;
export type ContextCreateEvent = EventOf<'contextCreate'>;
export type ContextDestroyEvent = EventOf<'contextDestroy'>;
export type ContextCurrentEvent = EventOf<'contextCurrent'>;
export type StreamCreateEvent = EventOf<'streamCreate'>;
export type StreamModeEvent = EventOf<'streamMode'>;
export type EventCreateEvent = EventOf<'eventCreate'>;
export type EventRecordEvent = EventOf<'eventRecord'>;
export type EventWaitEvent = EventOf<'eventWait'>;
export type StreamDestroyEvent = EventOf<'streamDestroy'>;
export type SyncEvent = EventOf<'sync'>;
export type AllocEvent = EventOf<'alloc'>;
export type FreeEvent = EventOf<'free'>;
export type PhysAllocEvent = EventOf<'physAlloc'>;
export type PhysFreeEvent = EventOf<'physFree'>;
export type PhysReleaseEvent = EventOf<'physRelease'>;
export type PhysRetainEvent = EventOf<'physRetain'>;
export type ReserveEvent = EventOf<'reserve'>;
export type ReleaseEvent = EventOf<'release'>;
export type MapEvent = EventOf<'map'>;
export type UnmapEvent = EventOf<'unmap'>;
export type SetAccessEvent = EventOf<'setAccess'>;
export type HostAllocEvent = EventOf<'hostAlloc'>;
export type HostFreeEvent = EventOf<'hostFree'>;
export type HostRegisterEvent = EventOf<'hostRegister'>;
export type HostUnregisterEvent = EventOf<'hostUnregister'>;
export type CopyEvent = EventOf<'copy'>;
export type MemsetEvent = EventOf<'memset'>;
export type ExportEvent = EventOf<'export'>;
export type ImportEvent = EventOf<'import'>;
export type SharePidsEvent = EventOf<'sharePids'>;
export type PeerAccessEvent = EventOf<'peerAccess'>;
export type IpcExportEvent = EventOf<'ipcExport'>;
export type IpcImportEvent = EventOf<'ipcImport'>;
export type PoolSampleEvent = EventOf<'poolSample'>;

export type MemoryEvent = ValueOf<EventShape>;

export type EventKind = MemoryEvent['kind'];

/** An event before the host stamps it with seq, time and provenance. */
export type EventBody<E extends MemoryEvent = MemoryEvent> = E extends MemoryEvent ? Omit<E, 'seq' | 't' | 'provenance' | 'call'> : never;
