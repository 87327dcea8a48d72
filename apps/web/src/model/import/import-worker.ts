// Opens a memory file off the UI thread: the stream of a File, or of the agent's file for
// pagelens open, goes to the snapshot reader (import-snapshot.ts) or the CSV readers
// (import-csv.ts), chunk by chunk, so a large file never freezes the tab and progress can be
// shown. The page cancels by terminating this worker.
import { ASCEND_910B2, FormatError, findProfile } from '@pagelens/core';
import { openCsv } from './import-csv.ts';
import type { ImportReply, ImportRequest } from './import-protocol.ts';
import { openSnapshot } from './import-snapshot.ts';
import { openSource, SourceError } from './import-source.ts';

const PROTO = 0x80;

function reply(message: ImportReply, transfer: Transferable[] = []): void {
  postMessage(message, { transfer });
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
  await openSnapshot({ name, total, first, reader }, request, { name, profile, pageSize1g }, reply);
}

// One request per worker (the page makes a new one for each file). Once the last reply is posted
// the worker closes itself: its heap, at its fullest right then (a 1 M-entry file's whole parse),
// is let go while the page is still taking the reply in, instead of when the page gets round to
// terminating it; the two together were the renderer's peak. A posted message is still delivered.
addEventListener('message', (event: MessageEvent<ImportRequest>) => {
  open(event.data)
    .catch((error: unknown) => {
      if (error instanceof FormatError) reply({ type: 'error', message: error.message, at: error.at });
      else if (error instanceof SourceError) reply({ type: 'error', message: error.message, at: undefined });
      else reply({ type: 'error', message: error instanceof Error ? error.message : String(error), at: undefined });
    })
    .finally(() => close());
});
