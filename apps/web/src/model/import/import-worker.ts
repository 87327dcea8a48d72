// Opens a memory file off the UI thread: the stream of a File, or of the agent's file for
// pagelens open, is fed to the restricted pickle reader chunk by chunk (so a large file never
// freezes the tab and progress can be shown), then the snapshot becomes a recorded session of the model (importSnapshot). The page cancels by
// terminating this worker.
import {
  ASCEND_910B2,
  chromeTraceJson,
  FormatError,
  findProfile,
  importSnapshot,
  internStacks,
  type MemorySnapshot,
  SnapshotLoader,
  toChromeTrace,
} from '@pagelens/core';
import { openCsv } from './import-csv.ts';
import type { ImportReply, ImportRequest } from './import-protocol.ts';
import { openSource, SourceError } from './import-source.ts';

const PROTO = 0x80;
/** At most this many progress messages per second's worth of chunks: one per 1 MiB read. */
const PROGRESS_EVERY = 1024 * 1024;

function reply(message: ImportReply, transfer: Transferable[] = []): void {
  postMessage(message, { transfer });
}

/**
 * Feeds the stream to the reader, saying how far it got, and normalises. The loader stays in here:
 * once this returns, the unpickled tree and the reader's memo (169 MB of a 1 M-event file's heap,
 * beside the 344 MB the snapshot keeps) can be collected while the session is built.
 */
async function readSnapshot(
  first: ReadableStreamReadResult<Uint8Array>,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  total: number,
): Promise<{ snapshot: MemorySnapshot; bytes: number }> {
  const loader = new SnapshotLoader(total > 0 ? { totalBytes: total } : {});
  let reported = 0;
  for (let chunk = first; !chunk.done; chunk = await reader.read()) {
    loader.push(chunk.value);
    if (loader.bytesRead - reported >= PROGRESS_EVERY) {
      reported = loader.bytesRead;
      reply({ type: 'progress', bytesRead: reported, total });
    }
  }
  const bytes = loader.bytesRead;
  reply({ type: 'progress', bytesRead: bytes, total: Math.max(total, bytes) });
  return { snapshot: loader.finish(), bytes };
}

async function open(request: ImportRequest): Promise<void> {
  const profile = findProfile(request.profile ?? '') ?? ASCEND_910B2;
  const pageSize1g = request.pageSize1g ?? false;
  const { name, total, reader } = await openSource(request);
  const first = await reader.read();
  const head = first.done ? new Uint8Array(0) : first.value;
  if (head[0] !== PROTO && !/\.(pickle|pkl)$/i.test(name)) {
    // Not a pickle: the Ascend CSVs or msMemScope's .db (or a foreign file, which the CSV path names): import-csv.ts.
    await openCsv({ name, total, head, reader }, request, profile, reply);
    return;
  }
  const { snapshot, bytes } = await readSnapshot(first, reader, total);
  if (request.purpose === 'perfetto') {
    const trace = toChromeTrace(snapshot, { profile, pageSize1g });
    reply({
      type: 'perfetto',
      json: new Blob([...chromeTraceJson(trace)], { type: 'application/json' }),
      events: trace.traceEvents.length,
    });
    return;
  }
  const session = importSnapshot(snapshot, { profile, pageSize1g, name });
  const all = Array.from({ length: session.final.devices.length }, (_, device) => session.blocks.all(device)).flat();
  // Stacks go interned, in typed arrays: cloning their frame references took seconds on the page's thread.
  const { table, ids } = internStacks(all.map((block) => block.frames));
  const blocks = all.map((block) => ({ ...block, frames: [] }));
  reply(
    {
      type: 'done',
      facts: {
        name,
        bytes,
        format: session.format,
        formatEvidence: session.formatEvidence,
        profile: profile.name,
        pageSize1g,
        timeBasis: session.timeBasis,
        traceEntries: snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0),
        segments: snapshot.segments.length,
        inconsistent: session.inconsistent,
        finalMismatch: session.finalMismatch,
        devices: session.final.devices.length,
      },
      initial: session.initial,
      events: session.events,
      blocks,
      stacks: table,
      stackIds: ids,
    },
    [table.starts.buffer, table.frameIds.buffer, ids.buffer],
  );
}

addEventListener('message', (event: MessageEvent<ImportRequest>) => {
  open(event.data).catch((error: unknown) => {
    if (error instanceof FormatError) reply({ type: 'error', message: error.message, at: error.at });
    else if (error instanceof SourceError) reply({ type: 'error', message: error.message, at: undefined });
    else reply({ type: 'error', message: error instanceof Error ? error.message : String(error), at: undefined });
  });
});
