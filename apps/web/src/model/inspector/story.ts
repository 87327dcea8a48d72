import { aclrtMemcpyKind, errorName, type MemoryEvent, toHex } from '@pagelens/core';
import { address, bytes, duration, type FormatPrefs, rate } from '../format.ts';
import { callEndSeq, indexOfSeq, type Target, targetOf } from '../log/effects.ts';
import { failureModeText } from './event-facts.ts';

export type StoryTone = 'call' | 'error' | 'create' | 'destroy' | 'change';

/** One step of an object's life: the call that caused it or the change itself, as an i18n key with values. */
export interface StoryEntry {
  readonly seq: number;
  /** Where the cursor goes when the entry is chosen: after the call's effects, or at the change. */
  readonly jumpSeq: number;
  readonly key: string;
  readonly params: Readonly<Record<string, string | number>>;
  readonly tone: StoryTone;
  readonly target?: Target;
}

const CREATES = new Set<MemoryEvent['kind']>([
  'alloc',
  'physAlloc',
  'reserve',
  'map',
  'hostAlloc',
  'import',
  'streamCreate',
  'contextCreate',
  'eventCreate',
]);
const DESTROYS = new Set<MemoryEvent['kind']>([
  'free',
  'physFree',
  'physRelease',
  'release',
  'unmap',
  'hostFree',
  'hostUnregister',
  'streamDestroy',
  'contextDestroy',
  'eventDestroy',
]);

function toneOf(kind: MemoryEvent['kind']): StoryTone {
  if (CREATES.has(kind)) return 'create';
  if (DESTROYS.has(kind)) return 'destroy';
  return 'change';
}

/** aclrtValueWait's conditions as C would write them, by flag (CP-12). */
const WAIT_CONDITIONS: readonly string[] = ['≥', '==', '& ≠ 0', 'NOR ≠ 0'];

/** An IPC key in a story line: its start and end, the whole key is in the facts and the log. */
function shortKey(key: string): string {
  return key.length <= 24 ? key : `${key.slice(0, 16)}…${key.slice(-6)}`;
}

function paramsOf(event: MemoryEvent, prefs: FormatPrefs): Record<string, string | number> {
  switch (event.kind) {
    case 'call':
      return { fn: event.fn, result: errorName(event.ret), code: event.ret };
    case 'alloc':
    case 'physAlloc':
      return {
        size: bytes(event.size, prefs),
        pages: event.pages,
        pageSize: bytes(event.pageSize, prefs),
        addr: 'addr' in event ? address(event.addr, prefs) : '',
      };
    case 'reserve':
      return { size: bytes(event.size, prefs), addr: address(event.addr, prefs) };
    case 'map':
      return { size: bytes(event.size, prefs), addr: address(event.addr, prefs), handle: event.handle, reservation: event.reservation };
    case 'setAccess':
      return { devices: event.access.map((grant) => grant.device).join(', ') };
    case 'hostAlloc':
      return { size: bytes(event.size, prefs), addr: address(event.addr, prefs) };
    case 'hostRegister':
      return { devPtr: address(event.devPtr, prefs), fn: event.fn };
    case 'copy':
      return {
        size: bytes(event.bytes, prefs),
        kind: aclrtMemcpyKind.nameOf(event.memcpyKind) ?? String(event.memcpyKind),
        rate: rate(event.bytesPerSec),
      };
    case 'export':
      return { shareable: toHex(event.shareable) };
    case 'import':
      return { source: event.source };
    case 'streamCreate':
      return { device: event.device };
    case 'contextCreate':
      return { device: event.device, handle: toHex(event.handle) };
    case 'contextCurrent':
      return { id: event.id };
    case 'streamMode':
      return { mode: failureModeText(event.mode) };
    case 'eventCreate':
      // The raw word: the names are in the event's facts, and a story line stays short.
      return { handle: toHex(event.handle), flags: `0x${(event.flags >>> 0).toString(16)}` };
    case 'eventRecord':
      return { stream: event.stream, at: duration(event.at) };
    case 'eventWait':
      return { id: event.id, stream: event.stream, until: duration(event.until) };
    case 'valueWrite':
      return { stream: event.stream, value: event.value, addr: address(event.addr, prefs), at: duration(event.at) };
    case 'valueWait':
      return {
        stream: event.stream,
        value: event.value,
        addr: address(event.addr, prefs),
        until: duration(event.until),
        condition: WAIT_CONDITIONS[event.flag] ?? String(event.flag),
      };
    case 'deviceSet':
    case 'deviceReset':
      return { device: event.device, refs: event.refs };
    case 'memset':
      return { size: bytes(event.count, prefs), addr: address(event.addr, prefs), value: event.value };
    case 'process':
      return { name: event.name, pid: event.pid };
    case 'peerAccess':
    case 'peerAccessOff':
      return { device: event.device, peer: event.peer };
    case 'physRetain':
      return { retains: event.retains };
    case 'ipcExport':
      return { key: shortKey(event.key), size: bytes(event.size, prefs) };
    case 'ipcImport':
      return { key: shortKey(event.key), pid: event.pid, addr: address(event.addr, prefs) };
    case 'ipcPids':
      return { key: shortKey(event.key), pids: event.pids.join(', ') };
    case 'ipcClose':
      return { key: shortKey(event.key), pid: event.pid };
    default:
      return {};
  }
}

/** `retainsBefore`: the handle's references before a physRetain event, to tell a retain from a give-back (VM-12). */
function keyOf(event: MemoryEvent, retainsBefore: number): string {
  if (event.kind === 'physFree' && event.deferred) return 'inspector.story.physFreeDeferred';
  if (event.kind === 'physRetain')
    return event.retains > retainsBefore ? 'inspector.story.physRetainTaken' : 'inspector.story.physRetainGiven';
  if (event.kind === 'valueWait') return event.met ? 'inspector.story.valueWaitMet' : 'inspector.story.valueWaitUnmet';
  if (event.kind === 'contextCreate' && event.isDefault) return 'inspector.story.contextCreateDefault';
  if (event.kind === 'ipcExport' && event.flags === 1) return 'inspector.story.ipcExportOpen';
  if (event.kind === 'hostAlloc')
    return event.memory === 'pinned' ? 'inspector.story.hostAllocPinned' : 'inspector.story.hostAllocPageable';
  return `inspector.story.${event.kind}`;
}

/**
 * The story of an object (from `timeline.story(id)`) as entries a person can read and click: each
 * call with its result, then what it did to the object.
 */
export function storyEntries(story: readonly MemoryEvent[], events: readonly MemoryEvent[], prefs: FormatPrefs): StoryEntry[] {
  // A handle's references as the story goes (a handle starts with none), so each physRetain says which way it went.
  const retains = new Map<number, number>();
  return story.map((event) => {
    const target = targetOf(event);
    const before = event.kind === 'physRetain' ? (retains.get(event.id) ?? 0) : 0;
    if (event.kind === 'physRetain') retains.set(event.id, event.retains);
    const base = {
      seq: event.seq,
      key: keyOf(event, before),
      params: paramsOf(event, prefs),
      ...(target === undefined ? {} : { target }),
    };
    if (event.kind === 'call') {
      const index = indexOfSeq(events, event.seq);
      return { ...base, jumpSeq: index < 0 ? event.seq : callEndSeq(events, index), tone: event.ret === 0 ? 'call' : 'error' };
    }
    return { ...base, jumpSeq: event.seq, tone: toneOf(event.kind) };
  });
}

export type Presence =
  | { readonly status: 'present' }
  | { readonly status: 'future'; readonly seq: number }
  | { readonly status: 'gone'; readonly seq: number }
  | { readonly status: 'unknown' };

/**
 * Whether an object exists at the cursor, and if not, why: made later (at `seq`) or ended earlier
 * (at `seq`). `present` is decided by the caller from the state; the story says the rest.
 */
export function presenceFromStory(id: number, present: boolean, story: readonly MemoryEvent[], cursorSeq: number): Presence {
  if (present) return { status: 'present' };
  const own = story.filter((event) => event.kind !== 'call' && targetOf(event)?.id === id);
  const made = own.find((event) => CREATES.has(event.kind));
  if (made !== undefined && made.seq > cursorSeq) return { status: 'future', seq: made.seq };
  const end = own.filter((event) => DESTROYS.has(event.kind) && event.seq <= cursorSeq).pop();
  if (end !== undefined) return { status: 'gone', seq: end.seq };
  return { status: 'unknown' };
}
