import { type CsvFileReader, type MemoryRecord, memoryRecordReader, type OperatorMemory, operatorMemoryReader } from './ascend-csv.ts';
import { FormatError } from './format-error.ts';
import { isSqliteFile, readMemScopeDb, type SqliteEngine } from './memscope-db.ts';
import { type MemScopeDump, memScopeDumpReader } from './memscope-session.ts';
import { type PickleLimits, PickleReader } from './pickle-reader.ts';
import type { PickleValue } from './pickle-values.ts';
import { addClues, type FormatClues, noClues, normalizeSnapshot, readTraceBatch } from './snapshot-normalize.ts';
import type { MemorySnapshot, TraceEntry, TraceList } from './snapshot-types.ts';
import { StackInterner } from './stack-table.ts';
import { TraceColumns } from './trace-columns.ts';
import { TraceSummarizer, type TraceSummary } from './trace-summary.ts';
import { decodeUtf8 } from './utf8.ts';

/** Any file PageLens opens. */
export type MemoryFile = MemorySnapshot | MemScopeDump | MemoryRecord | OperatorMemory;
export type MemoryFileKind = MemoryFile['kind'];
/** The Ascend tools' CSVs. */
export type CsvFile = Exclude<MemoryFile, MemorySnapshot>;
export type CsvKind = CsvFile['kind'];

/** Each CSV kind's reader, for a file called `name` (or the kind's usual name when there is none). */
const CSV_READERS: { readonly [K in CsvKind]: (name: string) => CsvFileReader<Extract<CsvFile, { kind: K }>> } = {
  memscope_dump: (name) => memScopeDumpReader(name || 'memscope_dump.csv'),
  memory_record: (name) => memoryRecordReader(name || 'memory_record.csv'),
  operator_memory: (name) => operatorMemoryReader(name || 'operator_memory.csv'),
};

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
  /**
   * Keep the trace until more than this many entries have streamed past, then summarise it as
   * summarizeTrace does (what was kept is counted and let go of): a bound on what a trace may cost,
   * whatever the file's bytes per entry. Unbounded by default.
   */
  readonly keepEntries?: number;
  /**
   * Which trace entries keep their stacks: 'all' (the default), or 'blocks', the ones a recorded
   * session shows (snapshot-session.ts): each `alloc`'s, and a `free_completed`'s when it is the first
   * entry at its address (a block alive before the ring buffer began takes that stack). A 1 M-entry
   * file's other stacks, some 13 M frame references, are then not held.
   */
  readonly stacks?: 'all' | 'blocks';
}

/**
 * The trace kept whole, but typed batch by batch as the reader streams it (pickle-trace-stream.ts):
 * each entry's dict and frames list leave the pickle tree and the memo once typed, and the entry
 * goes into columns (trace-columns.ts), its stack into one interner for every device. So the raw
 * trace, its typed copy and its stacks as lists are never held: at 1 M entries, the entries as
 * objects held some 340 MB of a worker's heap.
 */
class TraceKeeper {
  readonly traces: TraceColumns[] = [];
  readonly clues: FormatClues = noClues();
  readonly stacks = new StackInterner();
  /** With stacks 'blocks': per device, the addresses an alloc or free_completed entry has named so far. */
  readonly #named: Set<bigint>[] | undefined;

  constructor(stacks: 'all' | 'blocks') {
    this.#named = stacks === 'blocks' ? [] : undefined;
  }

  readonly add = (device: number, batch: readonly PickleValue[]): void => {
    while (this.traces.length <= device) this.traces.push(new TraceColumns(this.stacks));
    const trace = this.traces[device];
    if (trace === undefined) return;
    const named = this.#named;
    let seen: Set<bigint> | undefined;
    if (named !== undefined) {
      while (named.length <= device) named.push(new Set());
      seen = named[device];
    }
    readTraceBatch(batch, device, trace.length, (entry) => {
      addClues(this.clues, entry);
      trace.push(entry, seen === undefined || TraceKeeper.#blockStack(entry, seen));
    });
  };

  /** Whether a block can take the entry's stack: an alloc's, or a free_completed's at an address not named before. */
  static #blockStack(entry: TraceEntry, seen: Set<bigint>): boolean {
    if (entry.frames.length === 0) return false;
    if (entry.action === 'alloc') {
      seen.add(entry.addr);
      return true;
    }
    if (entry.action === 'free_completed' && !seen.has(entry.addr)) {
      seen.add(entry.addr);
      return true;
    }
    return false;
  }

  /** The snapshot with the streamed traces in place of the lists the stream emptied (a trace it never saw stays as read). */
  complete(snapshot: MemorySnapshot): MemorySnapshot {
    if (this.traces.length === 0) return snapshot;
    const devices = Math.max(snapshot.deviceTraces.length, this.traces.length);
    const deviceTraces = Array.from({ length: devices }, (_, device): TraceList => {
      const streamed = this.traces[device];
      return streamed !== undefined && streamed.length > 0 ? streamed : (snapshot.deviceTraces[device] ?? []);
    });
    return { ...snapshot, deviceTraces };
  }
}

export class SnapshotLoader {
  private readonly reader: PickleReader;
  private summarizer: TraceSummarizer | undefined;
  private readonly keeper: TraceKeeper;
  private readonly keepEntries: number;
  private early = false;
  private summary: TraceSummary | undefined;

  constructor(options: LoaderOptions = {}) {
    this.summarizer = options.summarizeTrace === true ? new TraceSummarizer() : undefined;
    this.keeper = new TraceKeeper(options.stacks ?? 'all');
    this.keepEntries = options.keepEntries ?? Number.POSITIVE_INFINITY;
    this.reader = new PickleReader({ ...options, traceSink: this.sink });
  }

  /** Each streamed batch: kept, or counted once the trace is (or has grown) too long to keep. */
  private readonly sink = (device: number, batch: readonly PickleValue[]): void => {
    if (this.summarizer !== undefined) {
      this.summarizer.add(device, batch);
      return;
    }
    this.keeper.add(device, batch);
    if (this.streamedEntries > this.keepEntries) {
      // Past the limit: what was kept is counted, let go of, and the rest is counted as it comes.
      const summarizer = new TraceSummarizer(this.keeper.clues);
      this.keeper.traces.forEach((trace, d) => {
        summarizer.adopt(d, trace);
        trace.release();
      });
      this.summarizer = summarizer;
    }
  };

  /** With summarizeTrace, or a trace longer than keepEntries, after `finish`: what the trace held. */
  get traceSummary(): TraceSummary | undefined {
    return this.summary;
  }

  get bytesRead(): number {
    return this.reader.bytesRead;
  }

  /** Trace entries typed as they streamed past (the rest, if any, are read from the tree at the end). */
  get streamedEntries(): number {
    return this.keeper.traces.reduce((sum, trace) => sum + trace.length, 0);
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
    if (this.summarizer === undefined) {
      // A file whose trace lists the stream did not recognise kept them in the tree: read as a whole.
      if (this.keeper.traces.length === 0) return normalizeSnapshot(value);
      return this.keeper.complete(normalizeSnapshot(value, this.keeper.clues));
    }
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

function kindFromHeader(firstLine: string): CsvKind | undefined {
  if (firstLine.includes('Total Reserved(MB)') && firstLine.includes('Component')) return 'memory_record';
  if (firstLine.includes('Allocation Time(us)')) return 'operator_memory';
  if (firstLine.includes('Event Type') && firstLine.includes('Attr')) return 'memscope_dump';
  return undefined;
}

/**
 * Which of the Ascend CSVs a file is, from its name or else from the header line at the start of
 * `head` (its first bytes; HEADER_BYTES are enough); undefined when it is none of them. For a
 * caller that must decide before reading the file (pagelens open).
 */
export function memoryCsvKind(name: string, head: Uint8Array): CsvKind | undefined {
  const byName = kindFromName(name);
  if (byName !== undefined) return byName === 'snapshot' ? undefined : byName;
  return headerKind(head);
}

/** The kind the header line at the start of `head` names. */
function headerKind(head: Uint8Array): CsvKind | undefined {
  const lf = head.indexOf(LF);
  return kindFromHeader(decodeUtf8(head, 0, lf < 0 ? head.length : lf));
}

/**
 * A CSV's kind is told by its header when its name does not say: at most this many bytes are held
 * to find the header's end (and memoryCsvKind needs no more of a file's first bytes).
 */
export const HEADER_BYTES = 64 * 1024;
const LF = 0x0a;

/**
 * One of the Ascend CSVs fed in chunks (a worker reading a File stream): its kind comes from its
 * name, or else from its header line, held until it is complete; from then on every chunk is
 * parsed as it comes (ascend-csv.ts), so `bytesRead` is also how far the parse got.
 */
export class CsvLoader {
  private reader: CsvFileReader<CsvFile> | undefined;
  private head: Uint8Array = new Uint8Array(0);

  constructor(private readonly name: string) {
    const kind = kindFromName(name);
    if (kind !== undefined && kind !== 'snapshot') this.reader = CSV_READERS[kind](name);
  }

  get bytesRead(): number {
    return this.reader?.bytesRead ?? this.head.length;
  }

  /** `chunk` is not kept past the call. Throws a FormatError for a damaged row or a file of no kind PageLens reads. */
  push(chunk: Uint8Array): void {
    if (this.reader !== undefined) {
      this.reader.push(chunk);
      return;
    }
    const head = this.head.length === 0 ? chunk : concat(this.head, chunk);
    if (!chunk.includes(LF) && head.length < HEADER_BYTES) {
      this.head = head === chunk ? chunk.slice() : head;
      return;
    }
    this.head = new Uint8Array(0);
    this.start(head).push(head);
  }

  finish(): CsvFile {
    const reader = this.reader ?? this.start(this.head);
    return reader.end();
  }

  /** The reader for the kind the header line in `head` names. */
  private start(head: Uint8Array): CsvFileReader<CsvFile> {
    const kind = headerKind(head);
    if (kind === undefined) throw notAMemoryFile(head);
    const reader = CSV_READERS[kind](this.name);
    this.reader = reader;
    return reader;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function notAMemoryFile(bytes: Uint8Array): FormatError {
  return new FormatError(
    `not a file PageLens reads: expected a PyTorch/torch_npu memory snapshot pickle (it starts with byte 0x80), ` +
      `msMemScope's memscope_dump_*.csv or .db, or the torch_npu profiler's memory_record.csv or operator_memory.csv; ` +
      `this one starts with ${readable(bytes)}`,
    0,
  );
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
  const loader = new CsvLoader(name);
  loader.push(bytes);
  return loader.finish();
}
