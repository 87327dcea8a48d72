import type { MemoryEvent } from '@pagelens/core';

/** The kinds of object a person can select (the store's selection uses these). */
export type TargetKind =
  | 'allocation'
  | 'physical'
  | 'handle'
  | 'reservation'
  | 'mapping'
  | 'host'
  | 'stream'
  | 'context'
  | 'event'
  | 'copy'
  | 'call'
  | 'frame';

export interface Target {
  readonly kind: TargetKind;
  /** Object id, or for a call its seq, or for a frame its index. */
  readonly id: number;
  readonly device?: number;
}

/** What an effect event did to its object, for labels: "alloc #2", "free #2". */
export interface Effect {
  readonly seq: number;
  readonly event: MemoryEvent['kind'];
  readonly target: Target | undefined;
}

interface TargetRule {
  readonly kind: TargetKind;
  /** The field that names the object, when not `id` (an IPC import is about the allocation it reaches). */
  readonly by?: 'source';
  /** The target carries the event's device. */
  readonly device?: true;
  /** The event made the object (what "select the new …" after a call picks). */
  readonly creates?: true;
}

/**
 * The object each event kind is about, as something to select, by the event's `id`; kinds not
 * listed (process, init, sync, memset, pool samples, …) are about no one object.
 */
const EVENT_TARGETS: Partial<Record<MemoryEvent['kind'], TargetRule>> = {
  alloc: { kind: 'allocation', device: true, creates: true },
  free: { kind: 'allocation' },
  physAlloc: { kind: 'handle', device: true, creates: true },
  import: { kind: 'handle', device: true },
  physFree: { kind: 'handle' },
  physRetain: { kind: 'handle' },
  export: { kind: 'handle' },
  physRelease: { kind: 'physical' },
  reserve: { kind: 'reservation', device: true, creates: true },
  release: { kind: 'reservation' },
  map: { kind: 'mapping', device: true, creates: true },
  unmap: { kind: 'mapping' },
  setAccess: { kind: 'mapping' },
  hostAlloc: { kind: 'host', creates: true },
  hostFree: { kind: 'host' },
  hostRegister: { kind: 'host' },
  hostUnregister: { kind: 'host' },
  streamCreate: { kind: 'stream', device: true, creates: true },
  streamDestroy: { kind: 'stream' },
  streamMode: { kind: 'stream' },
  contextCreate: { kind: 'context', device: true, creates: true },
  contextDestroy: { kind: 'context' },
  contextCurrent: { kind: 'context' },
  eventCreate: { kind: 'event', device: true, creates: true },
  eventRecord: { kind: 'event' },
  eventWait: { kind: 'event' },
  valueWrite: { kind: 'stream' },
  valueWait: { kind: 'stream' },
  eventReset: { kind: 'event' },
  eventDestroy: { kind: 'event' },
  copy: { kind: 'copy', device: true },
  // IPC (IP-1, IP-3): a key and an import are about the exported allocation, as a share is about its handle.
  ipcExport: { kind: 'allocation' },
  ipcImport: { kind: 'allocation', by: 'source' },
};

/** The object an event is about, as something to select; undefined for events about no one object. */
export function targetOf(event: MemoryEvent): Target | undefined {
  if (event.kind === 'call') return { kind: 'call', id: event.seq };
  const rule = EVENT_TARGETS[event.kind];
  if (rule === undefined || !('id' in event)) return undefined;
  if (rule.by === 'source' && 'source' in event) return { kind: rule.kind, id: event.source };
  if (rule.device === true && 'device' in event && event.device !== undefined)
    return { kind: rule.kind, id: event.id, device: event.device };
  return { kind: rule.kind, id: event.id };
}

/**
 * The object the event made, if it made one (a device's default stream and default context are
 * the runtime's, not the call's).
 */
export function createdBy(event: MemoryEvent): Target | undefined {
  if (EVENT_TARGETS[event.kind]?.creates !== true) return undefined;
  if ((event.kind === 'streamCreate' || event.kind === 'contextCreate') && event.isDefault) return undefined;
  return targetOf(event);
}

/** Index of the event with this seq in `events` (ascending seqs), or -1. */
export function indexOfSeq(events: readonly MemoryEvent[], seq: number): number {
  let low = 0;
  let high = events.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = events[mid]?.seq ?? 0;
    if (at === seq) return mid;
    if (at < seq) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** Index of the last event whose seq is ≤ `seq`, or -1 when every event is later. */
export function lastIndexAtOrBefore(events: readonly { readonly seq: number }[], seq: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((events[mid]?.seq ?? 0) <= seq) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

/**
 * The events a call caused: they follow the call event (the host stamps them before the next
 * call), each with `call` set to the call's seq. Scans forward from the call at `index` only
 * until the next call, so it costs the call's own effects.
 */
export function effectsOfCall(events: readonly MemoryEvent[], index: number): MemoryEvent[] {
  const call = events[index];
  if (call === undefined) return [];
  const effects: MemoryEvent[] = [];
  for (let next = index + 1; next < events.length; next += 1) {
    const event = events[next];
    if (event === undefined || event.kind === 'call') break;
    if (event.call === call.seq) effects.push(event);
  }
  return effects;
}

/** The seq after which the call at `index` is complete: its last effect, or the call itself. */
export function callEndSeq(events: readonly MemoryEvent[], index: number): number {
  const call = events[index];
  if (call === undefined) return 0;
  const effects = effectsOfCall(events, index);
  return effects[effects.length - 1]?.seq ?? call.seq;
}

const TARGET_KINDS: readonly TargetKind[] = [
  'allocation',
  'physical',
  'handle',
  'reservation',
  'mapping',
  'host',
  'stream',
  'context',
  'event',
  'copy',
  'call',
  'frame',
];

export function isTargetKind(value: unknown): value is TargetKind {
  return TARGET_KINDS.some((kind) => kind === value);
}

/** Position (into `calls`) of the call event with this seq, or -1. */
export function callPosition(events: readonly MemoryEvent[], calls: readonly number[], seq: number): number {
  let low = 0;
  let high = calls.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = events[calls[mid] ?? -1]?.seq ?? 0;
    if (at === seq) return mid;
    if (at < seq) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** Index of the last element of an ascending list that is ≤ `value`, or -1. */
export function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] ?? 0) <= value) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}
