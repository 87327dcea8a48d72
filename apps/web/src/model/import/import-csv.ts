// The import worker's branch for the Ascend CSVs (issue 16): msMemScope's memscope_dump becomes a
// recorded session through the snapshot importer; the profiler's memory_record / operator_memory,
// which carry no addresses, come back as tables. Runs in the worker, so a million-row file never
// blocks the page; each chunk is parsed as it arrives (core CsvLoader), so the file's text is never
// held whole and the progress reported is how far the parse got.
import {
  assertNever,
  type CsvFile,
  CsvLoader,
  chromeTraceJson,
  type DeviceProfile,
  FormatError,
  importSnapshot,
  internStacks,
  MEMSCOPE_UNPLACED,
  memoryRecordToChromeTrace,
  memScopeToSnapshot,
  toChromeTrace,
} from '@pagelens/core';
import type { ImportReply, ImportRequest } from './import-protocol.ts';

type Reply = (message: ImportReply, transfer?: Transferable[]) => void;

/** One progress message per this many bytes read. */
const PROGRESS_EVERY = 1024 * 1024;

/** The stream from `head` on, parsed chunk by chunk, reporting progress; a damaged file throws a FormatError at its row. */
async function parse(source: CsvSource, reply: Reply): Promise<{ file: CsvFile; bytes: number }> {
  const loader = new CsvLoader(source.name);
  loader.push(source.head);
  let reported = 0;
  for (;;) {
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

export interface CsvSource {
  readonly name: string;
  readonly total: number;
  readonly head: Uint8Array;
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
}

export async function openCsv(source: CsvSource, request: ImportRequest, profile: DeviceProfile, reply: Reply): Promise<void> {
  let parsed: { file: CsvFile; bytes: number };
  try {
    parsed = await parse(source, reply);
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    // The reader's own words; the rest of the stream is not read.
    await source.reader.cancel().catch(() => undefined);
    reply({ type: 'error', message: error.message, at: error.at });
    return;
  }
  const { file, bytes } = parsed;
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
            bytes,
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
      reply({ type: 'profiler-csv', name: source.name, bytes, table: file });
      return;
    case 'operator_memory':
      if (perfetto) throw new FormatError(`${source.name}: operator_memory.csv is exported as it is; it holds no counters for Perfetto`);
      reply({ type: 'profiler-csv', name: source.name, bytes, table: file });
      return;
    default:
      assertNever(file);
  }
}
