// The import worker's branch for the Ascend CSVs (issue 16): msMemScope's memscope_dump becomes a
// recorded session through the snapshot importer; the profiler's memory_record / operator_memory,
// which carry no addresses, come back as tables. Runs in the worker, so a million-row file never
// blocks the page; progress is reported while the bytes arrive.
import {
  chromeTraceJson,
  type DeviceProfile,
  FormatError,
  importSnapshot,
  internStacks,
  MEMSCOPE_UNPLACED,
  memoryRecordToChromeTrace,
  memScopeToSnapshot,
  openMemoryFile,
  toChromeTrace,
} from '@pagelens/core';
import type { ImportReply, ImportRequest } from './import-protocol.ts';

type Reply = (message: ImportReply, transfer?: Transferable[]) => void;

/** One progress message per this many bytes read. */
const PROGRESS_EVERY = 1024 * 1024;

/** The whole stream after `head`, reporting progress; the CSV reader needs the text whole. */
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

export async function openCsv(source: CsvSource, request: ImportRequest, profile: DeviceProfile, reply: Reply): Promise<void> {
  const bytes = await readAll(source.head, source.reader, source.total, reply);
  const result = openMemoryFile(bytes, source.name);
  if (!result.ok) {
    reply({ type: 'error', message: result.message, at: result.at });
    return;
  }
  const { file } = result;
  const perfetto = request.purpose === 'perfetto';
  const pageSize1g = request.pageSize1g ?? false;
  switch (file.kind) {
    case 'memscope_dump': {
      const converted = memScopeToSnapshot(file);
      if (perfetto) {
        const trace = toChromeTrace(converted.snapshot, { profile, pageSize1g });
        reply({
          type: 'perfetto',
          json: new Blob([...chromeTraceJson(trace)], { type: 'application/json' }),
          events: trace.traceEvents.length,
        });
        return;
      }
      const { snapshot } = converted;
      const session = importSnapshot(snapshot, { profile, pageSize1g, name: source.name });
      const all = Array.from({ length: session.final.devices.length }, (_, device) => session.blocks.all(device)).flat();
      const { table, ids } = internStacks(all.map((block) => block.frames));
      const unplaced = MEMSCOPE_UNPLACED.flatMap((reason) => {
        const seen = converted.unplaced[reason];
        return seen === undefined ? [] : [{ reason, count: seen.count, firstLine: seen.firstLine }];
      });
      reply(
        {
          type: 'done',
          facts: {
            name: source.name,
            bytes: bytes.length,
            format: 'msmemscope',
            formatEvidence: snapshot.formatEvidence,
            profile: profile.name,
            pageSize1g,
            timeBasis: 'time_us',
            traceEntries: file.events.length,
            segments: snapshot.segments.length,
            inconsistent: session.inconsistent,
            finalMismatch: session.finalMismatch,
            devices: session.final.devices.length,
            unplaced,
          },
          initial: session.initial,
          events: session.events,
          blocks: all.map((block) => ({ ...block, frames: [] })),
          stacks: table,
          stackIds: ids,
        },
        [table.starts.buffer, table.frameIds.buffer, ids.buffer],
      );
      return;
    }
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
