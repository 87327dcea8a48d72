// The import worker's branch for the Ascend CSVs (issue 16): msMemScope's memscope_dump (CSV, or
// its .db through import-db.ts) becomes a recorded session through the snapshot importer; the profiler's memory_record / operator_memory,
// which carry no addresses, come back as tables. Runs in the worker, so a million-row file never
// blocks the page; progress is reported while the bytes arrive.
import {
  chromeTraceJson,
  type DeviceProfile,
  FormatError,
  isSqliteFile,
  memoryRecordToChromeTrace,
  openMemoryFile,
  type SqliteEngine,
} from '@pagelens/core';
import { loadSqlite, openDb } from './import-db.ts';
import { type Reply, replyMemScope } from './import-memscope.ts';
import type { ImportRequest } from './import-protocol.ts';

/** One progress message per this many bytes read. */
const PROGRESS_EVERY = 1024 * 1024;

/** The whole stream after `head`, reporting progress; the CSV reader and SQLite need the file whole. */
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
  const all = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

export interface CsvSource {
  readonly name: string;
  readonly total: number;
  readonly head: Uint8Array;
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
}

/** Every file that is not a pickle, read whole; `sqlite` loads SQLite for a .db (tests give Node's). */
export async function openCsv(
  source: CsvSource,
  request: ImportRequest,
  profile: DeviceProfile,
  reply: Reply,
  sqlite: () => Promise<SqliteEngine> = loadSqlite,
): Promise<void> {
  const bytes = await readAll(source.head, source.reader, source.total, reply);
  // msMemScope's .db, told by its header once the bytes are whole (a first chunk may be shorter than it).
  if (isSqliteFile(bytes)) {
    await openDb(bytes, source.name, request, profile, reply, sqlite);
    return;
  }
  const result = openMemoryFile(bytes, source.name);
  if (!result.ok) {
    reply({ type: 'error', message: result.message, at: result.at });
    return;
  }
  const { file } = result;
  const perfetto = request.purpose === 'perfetto';
  switch (file.kind) {
    case 'memscope_dump':
      replyMemScope(file, { name: source.name, bytes: bytes.length, rowsAre: 'line' }, request, profile, reply);
      return;
    case 'memory_record':
      if (perfetto) {
        const trace = memoryRecordToChromeTrace(file, source.name);
        reply({
          type: 'perfetto',
          json: new Blob([...chromeTraceJson(trace)], { type: 'application/json' }),
          events: trace.traceEvents.length,
        });
        return;
      }
      reply({ type: 'profiler-csv', name: source.name, bytes: bytes.length, table: file });
      return;
    case 'operator_memory':
      if (perfetto) throw new FormatError(`${source.name}: operator_memory.csv is exported as it is; it holds no counters for Perfetto`);
      reply({ type: 'profiler-csv', name: source.name, bytes: bytes.length, table: file });
      return;
    case 'snapshot':
      throw new FormatError(`${source.name}: a snapshot pickle reached the CSV reader`);
  }
}
