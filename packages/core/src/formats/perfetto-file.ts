import { FormatError } from './format-error.ts';
import type { MemoryFile } from './open-file.ts';
import { chromeTraceJson, snapshotTraceJson, type TraceJson } from './perfetto.ts';
import { memoryRecordToChromeTrace } from './perfetto-csv.ts';
import type { AllocatorModel } from './segment-pages.ts';

/**
 * Any file PageLens opens, as the Perfetto export (Chrome trace-event JSON written as it is made):
 * the one table of which kind exports how, for the page's worker and `pagelens export` alike.
 * - a snapshot pickle, and an msMemScope dump (its HAL rows and blocks as a snapshot's trace:
 *   memscope-session.ts): per device counters and an instant event per trace entry (perfetto.ts);
 * - the profiler's memory_record.csv: its counters as recorded (perfetto-csv.ts);
 * - operator_memory.csv holds no counters: a FormatError says so.
 */
export function fileTraceJson(file: MemoryFile, name: string, model: AllocatorModel): TraceJson {
  switch (file.kind) {
    case 'snapshot':
      return snapshotTraceJson(file, model);
    case 'memscope_dump':
      return snapshotTraceJson(file.snapshot, model);
    case 'memory_record': {
      const trace = memoryRecordToChromeTrace(file, name);
      return { parts: chromeTraceJson(trace), events: trace.traceEvents.length };
    }
    case 'operator_memory':
      throw new FormatError(
        `${name}: operator_memory.csv lists operators' allocations without counters or addresses; Perfetto has nothing to draw from it`,
      );
  }
}
