import {
  type MemoryRecord,
  type MemScopeDump,
  type OperatorMemory,
  readMemoryRecord,
  readMemScopeDump,
  readOperatorMemory,
} from './ascend-csv.ts';
import { FormatError } from './format-error.ts';
import { isSqliteFile, readMemScopeDb, type SqliteEngine } from './memscope-db.ts';
import { type PickleLimits, PickleReader } from './pickle-reader.ts';
import { normalizeSnapshot } from './snapshot-normalize.ts';
import type { MemorySnapshot } from './snapshot-types.ts';
import { TraceSummarizer, type TraceSummary } from './trace-summary.ts';
import { decodeUtf8 } from './utf8.ts';

/** Any file PageLens opens. */
export type MemoryFile = MemorySnapshot | MemScopeDump | MemoryRecord | OperatorMemory;
export type MemoryFileKind = MemoryFile['kind'];

export type OpenResult =
  | { readonly ok: true; readonly file: MemoryFile }
  | { readonly ok: false; readonly message: string; readonly at: number | undefined };

const PROTO = 0x80;

/**
 * A snapshot pickle fed in chunks (a worker reading a File stream): `bytesRead` for progress,
 * stop pushing to cancel; `finish` normalises once the input has ended.
 */
export interface LoaderOptions extends PickleLimits {
  readonly totalBytes?: number;
  /**
   * Summarise the trace as it streams past instead of keeping it (trace-summary.ts): for files too
   * large to hold, the snapshot comes with empty traces and `traceSummary` says what they held.
   */
  readonly summarizeTrace?: boolean;
}

export class SnapshotLoader {
  private readonly reader: PickleReader;
  private readonly summarizer: TraceSummarizer | undefined;
  private early = false;
  private summary: TraceSummary | undefined;

  constructor(options: LoaderOptions = {}) {
    this.summarizer = options.summarizeTrace === true ? new TraceSummarizer() : undefined;
    this.reader = new PickleReader(this.summarizer === undefined ? options : { ...options, traceSink: this.summarizer.add });
  }

  /** With summarizeTrace, after `finish`: what the trace held. */
  get traceSummary(): TraceSummary | undefined {
    return this.summary;
  }

  get bytesRead(): number {
    return this.reader.bytesRead;
  }

  push(chunk: Uint8Array): void {
    this.reader.push(chunk);
  }

  /**
   * The file's final state — its segments, and the allocator settings when they were read — once
   * the segments are complete and the trace is not: a snapshot with no trace entries, so a view
   * can show it while the rest is read. Answers it once; undefined before, after, and for a file
   * that came whole in one chunk or does not write its segments first.
   */
  earlySegments(): MemorySnapshot | undefined {
    if (this.early || this.reader.done) return undefined;
    const items = this.reader.completeTopItems();
    const segments = items.get('segments');
    if (segments === undefined || items.has('device_traces')) return undefined;
    this.early = true;
    const settings = items.get('allocator_settings');
    return normalizeSnapshot(settings === undefined ? { segments } : { segments, allocator_settings: settings });
  }

  finish(): MemorySnapshot {
    const value = this.reader.end();
    if (this.summarizer === undefined) return normalizeSnapshot(value);
    const snapshot = normalizeSnapshot(value, this.summarizer.clues);
    this.summary = this.summarizer.finish(snapshot);
    return snapshot;
  }
}

function kindFromName(name: string): MemoryFileKind | undefined {
  const base = name.split(/[\\/]/).pop() ?? name;
  if (/^memscope_dump.*\.csv$/i.test(base)) return 'memscope_dump';
  if (/memory_record.*\.csv$/i.test(base)) return 'memory_record';
  if (/operator_memory.*\.csv$/i.test(base)) return 'operator_memory';
  if (/\.(pickle|pkl)$/i.test(base)) return 'snapshot';
  return undefined;
}

function kindFromHeader(firstLine: string): MemoryFileKind | undefined {
  if (firstLine.includes('Total Reserved(MB)') && firstLine.includes('Component')) return 'memory_record';
  if (firstLine.includes('Allocation Time(us)')) return 'operator_memory';
  if (firstLine.includes('Event Type') && firstLine.includes('Attr')) return 'memscope_dump';
  return undefined;
}

function readable(bytes: Uint8Array): string {
  const head = Array.from(bytes.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return head === '' ? 'nothing' : head;
}

/**
 * Opens a whole file held in memory, by its content and (for the CSVs) its name. An SQLite file
 * (msMemScope's .db) needs `sqlite`, which the caller loads (memscope-db.ts says why not core).
 */
export function openMemoryFile(bytes: Uint8Array, name = '', sqlite?: SqliteEngine): OpenResult {
  try {
    return { ok: true, file: open(bytes, name, sqlite) };
  } catch (error) {
    if (error instanceof FormatError) return { ok: false, message: error.message, at: error.at };
    throw error;
  }
}

function open(bytes: Uint8Array, name: string, sqlite: SqliteEngine | undefined): MemoryFile {
  if (isSqliteFile(bytes)) {
    // A bug of the caller, not of the file: it should have loaded SQLite for this header.
    if (sqlite === undefined) throw new Error(`${name}: an SQLite database reached openMemoryFile without an SQLite engine`);
    return readMemScopeDb(sqlite, bytes, name || 'memscope_dump.db');
  }
  const byName = kindFromName(name);
  if (bytes[0] === PROTO || byName === 'snapshot') {
    const loader = new SnapshotLoader({ totalBytes: bytes.length });
    loader.push(bytes);
    return loader.finish();
  }
  const text = decodeUtf8(bytes, 0, bytes.length);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const kind = byName ?? kindFromHeader(firstLine);
  switch (kind) {
    case 'memscope_dump':
      return readMemScopeDump(text, name || 'memscope_dump.csv');
    case 'memory_record':
      return readMemoryRecord(text, name || 'memory_record.csv');
    case 'operator_memory':
      return readOperatorMemory(text, name || 'operator_memory.csv');
    default:
      throw new FormatError(
        `not a file PageLens reads: expected a PyTorch/torch_npu memory snapshot pickle (it starts with byte 0x80), ` +
          `msMemScope's memscope_dump_*.csv or .db, or the torch_npu profiler's memory_record.csv or operator_memory.csv; ` +
          `this one starts with ${readable(bytes)}`,
        0,
      );
  }
}
