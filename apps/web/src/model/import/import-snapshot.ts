// The import worker's branch for snapshot pickles (issue 16): the restricted reader fed chunk by
// chunk, the file's segments shown first while the trace is read, then the whole file as a
// recorded session (importSnapshot), or as Perfetto JSON.
import {
  type DeviceProfile,
  fileTraceJson,
  type ImportedSession,
  importSnapshot,
  type MemorySnapshot,
  type SettingValue,
  SnapshotLoader,
  type TraceSummary,
} from '@pagelens/core';
import type { ImportedFacts, ImportReply, ImportRequest } from './import-protocol.ts';
import { jsonBlob } from './json-blob.ts';
import { sessionReply } from './session-reply.ts';

type Reply = (message: ImportReply, transfer?: Transferable[]) => void;

/** One progress message per this many bytes read. */
const PROGRESS_EVERY = 1024 * 1024;

/**
 * Traces longer than this are summarised from that entry on (core SnapshotLoader keepEntries,
 * trace-summary.ts) instead of kept for time travel. A kept trace costs what it holds, not what the
 * file's bytes are: a 10 M-entry, 3.3 GB torch_npu-shaped snapshot opened with its trace kept peaked
 * at 2.1 GB of the page's JS heap (whose limit is 4.4 GB in this Chromium) and 3.3 GB of the tab,
 * about 0.21 GB of heap per million entries (bench web.import.10m, 2026-12-03). Twelve million
 * leaves room for the import worker's heap beside it.
 */
export const KEEP_TRACE_ENTRIES = 12_000_000;

export interface SnapshotSource {
  readonly name: string;
  readonly total: number;
  /** The stream's first read, already taken to tell a pickle from a CSV. */
  readonly first: ReadableStreamReadResult<Uint8Array>;
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Keep at most this many trace entries, summarising the rest (default KEEP_TRACE_ENTRIES). */
  readonly keepEntries?: number;
}

export interface Modeling {
  readonly name: string;
  readonly profile: DeviceProfile;
  readonly pageSize1g: boolean;
}

/** A snapshot's allocator settings as the page lists them: each value as Python would print it (lists and dicts are JSON text already). */
export function settingsText(settings: Readonly<Record<string, SettingValue>>): [string, string][] {
  return Object.entries(settings).map(([key, value]) => {
    if (value === null) return [key, 'None'];
    if (typeof value === 'boolean') return [key, value ? 'True' : 'False'];
    return [key, String(value)];
  });
}

/** What the page shows of a snapshot beside its session. */
function snapshotFacts(snapshot: MemorySnapshot, session: ImportedSession, modeling: Modeling, bytes: number): ImportedFacts {
  return {
    name: modeling.name,
    bytes,
    format: session.format,
    formatEvidence: session.formatEvidence,
    profile: modeling.profile.name,
    pageSize1g: modeling.pageSize1g,
    timeBasis: session.timeBasis,
    // The session's count: the import lets go of the snapshot's entries (ImportOptions.consume).
    traceEntries: session.entrySeqs.reduce((sum, seqs) => sum + seqs.length, 0),
    segments: snapshot.segments.length,
    inconsistent: session.inconsistent,
    finalMismatch: session.finalMismatch,
    devices: session.final.devices.length,
    expandableDevices: session.expandableDevices,
    ...(session.pinnedHost === undefined ? {} : { pinnedHost: session.pinnedHost }),
    ...(snapshot.allocatorSettings === undefined ? {} : { allocatorSettings: settingsText(snapshot.allocatorSettings) }),
  };
}

/** A snapshot the worker lets go of once its session is built (the session shares what it needs of it). */
interface Held {
  snapshot: MemorySnapshot | undefined;
}

/**
 * The session and its facts. The snapshot is taken out of `held` and dies with this frame, so it is
 * not kept alive while the reply is cloned (in Node, some 110 MB of a 1 M-entry file's heap).
 */
function buildSession(held: Held, modeling: Modeling, bytes: number): { session: ImportedSession; facts: ImportedFacts } {
  const snapshot = held.snapshot;
  if (snapshot === undefined) throw new Error('the snapshot was already used');
  held.snapshot = undefined;
  const session = importSnapshot(snapshot, { ...modeling, consume: true });
  return { session, facts: snapshotFacts(snapshot, session, modeling, bytes) };
}

function sendSession(type: 'done' | 'preview', held: Held, modeling: Modeling, bytes: number, reply: Reply, summary?: TraceSummary): void {
  const built = buildSession(held, modeling, bytes);
  let facts = built.facts;
  if (type === 'preview') facts = { ...facts, segmentsOnly: true };
  // A summarised trace: the session is the final state, and the summary says what the trace held.
  if (summary !== undefined) facts = { ...facts, segmentsOnly: true, traceEntries: summary.entries, traceSummary: summary };
  const { message, transfer } = sessionReply(type, facts, built.session);
  reply(message, transfer);
}

/**
 * Feeds the stream to the reader, saying how far it got, and normalises. The loader stays in here:
 * once this returns, the unpickled tree and the reader's memo (169 MB of a 1 M-event file's heap,
 * beside the 344 MB the snapshot keeps) can be collected while the session is built. With
 * `preview`, the file's final state goes to the page as soon as its segments are read (they come
 * before the trace), so a large file shows its pages in the time the first megabytes take.
 */
async function readSnapshot(
  first: ReadableStreamReadResult<Uint8Array>,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  total: number,
  preview: Modeling | undefined,
  reply: Reply,
  keepEntries: number,
): Promise<{ snapshot: MemorySnapshot | undefined; bytes: number; summary: TraceSummary | undefined }> {
  // A session shows the stacks of blocks only; Perfetto's instant events carry every entry's.
  const stacks = preview === undefined ? 'all' : 'blocks';
  const loader = new SnapshotLoader(total > 0 ? { totalBytes: total, keepEntries, stacks } : { keepEntries, stacks });
  let reported = 0;
  let early = preview !== undefined;
  const sendEarly = (): void => {
    if (!early || preview === undefined) return;
    const segments = loader.earlySegments();
    if (segments === undefined) return;
    early = false;
    sendSession('preview', { snapshot: segments }, preview, total, reply);
  };
  for (let chunk = first; !chunk.done; chunk = await reader.read()) {
    try {
      loader.push(chunk.value);
    } catch (error) {
      // A file cut short fails in the chunk that reaches its end: segments read whole before that are still shown.
      sendEarly();
      throw error;
    }
    sendEarly();
    if (loader.bytesRead - reported >= PROGRESS_EVERY) {
      reported = loader.bytesRead;
      reply({ type: 'progress', bytesRead: reported, total });
    }
  }
  const bytes = loader.bytesRead;
  reply({ type: 'progress', bytesRead: bytes, total: Math.max(total, bytes) });
  const snapshot = loader.finish();
  return { snapshot, bytes, summary: loader.traceSummary };
}

export async function openSnapshot(
  source: SnapshotSource,
  request: Pick<ImportRequest, 'purpose'>,
  modeling: Modeling,
  reply: Reply,
): Promise<void> {
  const perfetto = request.purpose === 'perfetto';
  // Perfetto needs every entry; a summarised trace has none to export.
  const keepEntries = perfetto ? Number.POSITIVE_INFINITY : (source.keepEntries ?? KEEP_TRACE_ENTRIES);
  const read = await readSnapshot(source.first, source.reader, source.total, perfetto ? undefined : modeling, reply, keepEntries);
  if (perfetto) {
    if (read.snapshot === undefined) throw new Error('the snapshot was not read');
    // Written as it is made, into a Blob piece by piece: the events of a long trace are never all held.
    const trace = fileTraceJson(read.snapshot, source.name, { profile: modeling.profile, pageSize1g: modeling.pageSize1g });
    const json = jsonBlob(trace.parts);
    reply({ type: 'perfetto', json, events: trace.events });
    return;
  }
  sendSession('done', read, modeling, read.bytes, reply, read.summary);
}
