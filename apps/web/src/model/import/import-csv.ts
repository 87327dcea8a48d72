// The import worker's branch for every file that is not a pickle (issue 16): msMemScope's
// memscope_dump (CSV, or its .db through import-db.ts) becomes a recorded session through the
// snapshot importer; the profiler's memory_record / operator_memory, which carry no addresses, come
// back as tables. Runs in the worker, so a million-row file never blocks the page. A CSV is parsed
// chunk by chunk as it arrives (core CsvLoader), so its text is never held whole and the progress
// reported is how far the parse got; a .db is read whole, as SQLite needs it. Whichever it is, the
// Perfetto export is core fileTraceJson's.
import {
  assertNever,
  type CsvFile,
  CsvLoader,
  type DeviceProfile,
  FormatError,
  fileTraceJson,
  isSqliteFile,
  type SqliteEngine,
} from '@pagelens/core';
import { loadSqlite, openDb } from './import-db.ts';
import { type ReadFile, type Reply, replyMemScope } from './import-memscope.ts';
import type { ImportRequest } from './import-protocol.ts';
import { jsonBlob } from './json-blob.ts';

/** One progress message per this many bytes read. */
const PROGRESS_EVERY = 1024 * 1024;
/** SQLite's header, "SQLite format 3\0", is this long. */
const SQLITE_HEADER = 16;

export interface CsvSource {
  readonly name: string;
  readonly total: number;
  readonly head: Uint8Array;
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
}

function join(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const all = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** The stream's first bytes, at least SQLITE_HEADER of them when the file has that many, so a .db is told apart. */
async function headOf(source: CsvSource): Promise<{ head: Uint8Array; ended: boolean }> {
  const chunks = [source.head];
  let length = source.head.length;
  while (length < SQLITE_HEADER) {
    const { done, value } = await source.reader.read();
    if (done) return { head: join(chunks, length), ended: true };
    chunks.push(value);
    length += value.length;
  }
  return { head: join(chunks, length), ended: false };
}

/** The whole stream after `head`, reporting progress: SQLite needs the file whole. */
async function readAll(head: Uint8Array, reader: ReadableStreamDefaultReader<Uint8Array>, total: number, reply: Reply) {
  const chunks = [head];
  let length = head.length;
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    if (length - reported >= PROGRESS_EVERY) {
      reported = length;
      reply({ type: 'progress', bytesRead: length, total });
    }
  }
  reply({ type: 'progress', bytesRead: length, total: Math.max(total, length) });
  return join(chunks, length);
}

/** The stream from `head` on, parsed chunk by chunk, reporting progress; a damaged file throws a FormatError at its row. */
async function parse(head: Uint8Array, ended: boolean, source: CsvSource, reply: Reply): Promise<{ file: CsvFile; bytes: number }> {
  const loader = new CsvLoader(source.name);
  loader.push(head);
  let reported = 0;
  while (!ended) {
    const { done, value } = await source.reader.read();
    if (done) break;
    loader.push(value);
    if (loader.bytesRead - reported >= PROGRESS_EVERY) {
      reported = loader.bytesRead;
      reply({ type: 'progress', bytesRead: reported, total: source.total });
    }
  }
  const file = loader.finish();
  const bytes = loader.bytesRead;
  reply({ type: 'progress', bytesRead: bytes, total: Math.max(source.total, bytes) });
  return { file, bytes };
}

/** Every file that is not a pickle; `sqlite` loads SQLite for a .db (tests give Node's). */
export async function openCsv(
  source: CsvSource,
  request: ImportRequest,
  profile: DeviceProfile,
  reply: Reply,
  sqlite: () => Promise<SqliteEngine> = loadSqlite,
): Promise<void> {
  const { head, ended } = await headOf(source);
  let read: { file: CsvFile; bytes: number; rowsAre: ReadFile['rowsAre'] };
  if (isSqliteFile(head)) {
    const bytes = ended ? head : await readAll(head, source.reader, source.total, reply);
    const dump = await openDb(bytes, source.name, reply, sqlite);
    if (dump === undefined) return;
    read = { file: dump, bytes: bytes.length, rowsAre: 'row' };
  } else {
    try {
      read = { ...(await parse(head, ended, source, reply)), rowsAre: 'line' };
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      // The reader's own words; the rest of the stream is not read.
      await source.reader.cancel().catch(() => undefined);
      reply({ type: 'error', message: error.message, at: error.at });
      return;
    }
  }
  const { file, bytes, rowsAre } = read;
  if (request.purpose === 'perfetto') {
    const trace = fileTraceJson(file, source.name, { profile, pageSize1g: request.pageSize1g ?? false });
    reply({ type: 'perfetto', json: jsonBlob(trace.parts), events: trace.events });
    return;
  }
  switch (file.kind) {
    case 'memscope_dump':
      replyMemScope(file, { name: source.name, bytes, rowsAre }, request, profile, reply);
      return;
    case 'memory_record':
    case 'operator_memory':
      reply({ type: 'profiler-csv', name: source.name, bytes, table: file });
      return;
    default:
      assertNever(file);
  }
}
