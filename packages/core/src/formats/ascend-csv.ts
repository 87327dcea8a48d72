import { bigField, type CsvRow, CsvTableReader, deviceIndex, numberField, rowError } from './csv.ts';
import type { CsvRecord } from './csv-records.ts';
import { encodeUtf8 } from './utf8.ts';

/**
 * The memory CSVs Ascend's tools write (column facts: ../shared/reference/formats.md, from
 * Ascend/msmemscope `docs/*_user_guide/output_file_spec.md` and Ascend/pytorch's profiler guide):
 * msMemScope's `memscope_dump_*.csv`, and torch_npu's profiler `memory_record.csv` and
 * `operator_memory.csv`. MB and KB are the tools' units (MB = 2^20 bytes in torch_npu's profiler).
 *
 * Each is read as its bytes arrive (a worker reading a File stream): a row becomes its typed value
 * as soon as it completes, so only those values are kept, never the file's text.
 */

/** A CSV of one kind read in chunks: `bytesRead` for progress, then `end` for the file's rows. */
export interface CsvFileReader<F> {
  readonly bytesRead: number;
  push(chunk: Uint8Array): void;
  end(): F;
}

function tableReader<R extends string, O extends string, T, F>(
  file: string,
  required: readonly R[],
  optional: readonly O[],
  map: (row: CsvRow<R | O>) => T,
  wrap: (rows: T[]) => F,
): CsvFileReader<F> {
  const rows: T[] = [];
  return rowReader(
    file,
    required,
    optional,
    (row) => rows.push(map(row)),
    () => wrap(rows),
  );
}

/** Each row handed to `take` as it completes, nothing kept here; `finish` makes the file's value at the end. */
function rowReader<R extends string, O extends string, F>(
  file: string,
  required: readonly R[],
  optional: readonly O[],
  take: (row: CsvRow<R | O>) => void,
  finish: () => F,
): CsvFileReader<F> {
  const table = new CsvTableReader(file, required, optional, take);
  return {
    get bytesRead() {
      return table.bytesRead;
    },
    push: (chunk) => table.push(chunk),
    end: () => {
      table.end();
      return finish();
    },
  };
}

/** A CSV held whole as text (tests, small files). */
function readText<F>(reader: CsvFileReader<F>, text: string): F {
  reader.push(encodeUtf8(text));
  return reader.end();
}

const DUMP_REQUIRED = ['ID', 'Event', 'Event Type', 'Timestamp(ns)', 'Device Id', 'Ptr', 'Attr'] as const;
const DUMP_OPTIONAL = ['Name', 'Process Id', 'Thread Id', 'Call Stack(Python)', 'Call Stack(C)'] as const;

export interface MemScopeEvent {
  readonly line: number;
  readonly id: string;
  /** SYSTEM, MALLOC, FREE, ACCESS, OP_LAUNCH, KERNEL_LAUNCH, MSTX, SNAPSHOT. */
  readonly event: string;
  /** For MALLOC/FREE: HAL, PTA, MindSpore, ATB, HOST, PTA_WORKSPACE. */
  readonly eventType: string;
  readonly name: string;
  /** ns since the epoch: beyond 2^53, so exact. */
  readonly timestampNs: bigint;
  readonly device: number | undefined;
  readonly ptr: bigint | undefined;
  /** `Attr` as key → text (allocation_id, addr, size, owner, total, used, …). */
  readonly attr: Readonly<Record<string, string>>;
  readonly size: number | undefined;
  readonly pythonStack: string;
}

/** `{allocation_id:3,addr:0x12c0…,size:512,owner:PTA@ops}` or the JSON spelling of the same. */
export function parseAttr(raw: string): Record<string, string> {
  const attr: Record<string, string> = {};
  const body = raw.trim().replace(/^\{/, '').replace(/\}$/, '');
  for (const part of body.split(/,(?![^[]*\])/)) {
    const at = part.indexOf(':');
    if (at < 0) continue;
    const name = part.slice(0, at).trim().replace(/^"|"$/g, '');
    const value = part
      .slice(at + 1)
      .trim()
      .replace(/^"|"$/g, '');
    if (name !== '' && name !== '__proto__') attr[name] = value;
  }
  return attr;
}

/**
 * A memscope_dump CSV whose rows go to `take` one by one as they complete (memscope-session.ts
 * turns each into the model as it comes, so a million-row file is never held as rows); `finish`
 * makes the file's value once the last row is in.
 */
export function memScopeEventReader<F>(file: string, take: (event: MemScopeEvent) => void, finish: () => F): CsvFileReader<F> {
  return rowReader(file, DUMP_REQUIRED, DUMP_OPTIONAL, (row) => take(dumpEvent(row, file)), finish);
}

/** Every row of a dump held whole as text, as events (tests, small files). */
export function readMemScopeEvents(text: string, file = 'memscope_dump.csv'): MemScopeEvent[] {
  const events: MemScopeEvent[] = [];
  return readText(
    memScopeEventReader(
      file,
      (event) => events.push(event),
      () => events,
    ),
    text,
  );
}

/**
 * The same rows from msMemScope's `.db` (its `memscope_dump` table, memscope-db.ts): the header,
 * then each row as a record, through the same column rules; messages name rows, not lines.
 */
export function readMemScopeTable(
  header: readonly string[],
  rows: Iterable<CsvRecord>,
  file: string,
  take: (event: MemScopeEvent) => void,
): void {
  const table = new CsvTableReader(file, DUMP_REQUIRED, DUMP_OPTIONAL, (row) => take(dumpEvent(row, file)), 'row');
  table.take({ line: 0, fieldCount: header.length, field: (at) => header[at] ?? '' });
  for (const row of rows) table.take(row);
  table.end();
}

/** One row as its event; the stack stays text (memscope-session.ts parses each distinct text once). */
function dumpEvent(row: CsvRow<(typeof DUMP_REQUIRED)[number] | (typeof DUMP_OPTIONAL)[number]>, file: string): MemScopeEvent {
  const attr = parseAttr(row.get('Attr') ?? '');
  const rawPtr = (row.get('Ptr') ?? '').trim();
  const size = attr.size === undefined ? undefined : Number(attr.size);
  if (size !== undefined && !Number.isSafeInteger(size)) {
    throw rowError(file, row, `Attr size "${attr.size}" is not a byte count`);
  }
  return {
    line: row.line,
    id: row.get('ID') ?? '',
    event: (row.get('Event') ?? '').trim(),
    eventType: (row.get('Event Type') ?? '').trim(),
    name: row.get('Name') ?? '',
    timestampNs: bigField(row, 'Timestamp(ns)', file),
    device: deviceIndex(row.get('Device Id')),
    ptr: rawPtr === '' || rawPtr === 'N/A' ? undefined : bigField(row, 'Ptr', file),
    attr,
    size,
    pythonStack: row.get('Call Stack(Python)') ?? '',
  };
}

const RECORD_REQUIRED = ['Component', 'Timestamp(us)', 'Total Allocated(MB)', 'Total Reserved(MB)', 'Device Type'] as const;
const RECORD_OPTIONAL = ['Total Active(MB)', 'Stream Ptr'] as const;

export interface MemoryRecordRow {
  readonly line: number;
  readonly component: string;
  readonly timestampUs: number;
  readonly allocatedMB: number;
  readonly reservedMB: number;
  readonly activeMB: number | undefined;
  readonly device: number | undefined;
  readonly deviceType: string;
}

export interface MemoryRecord {
  readonly kind: 'memory_record';
  readonly rows: readonly MemoryRecordRow[];
}

export function memoryRecordReader(file = 'memory_record.csv'): CsvFileReader<MemoryRecord> {
  return tableReader(
    file,
    RECORD_REQUIRED,
    RECORD_OPTIONAL,
    (row): MemoryRecordRow => {
      const active = (row.get('Total Active(MB)') ?? '').trim();
      return {
        line: row.line,
        component: row.get('Component') ?? '',
        timestampUs: numberField(row, 'Timestamp(us)', file),
        allocatedMB: numberField(row, 'Total Allocated(MB)', file),
        reservedMB: numberField(row, 'Total Reserved(MB)', file),
        activeMB: active === '' ? undefined : numberField(row, 'Total Active(MB)', file),
        device: deviceIndex(row.get('Device Type')),
        deviceType: row.get('Device Type') ?? '',
      };
    },
    (rows) => ({ kind: 'memory_record', rows }),
  );
}

export function readMemoryRecord(text: string, file = 'memory_record.csv'): MemoryRecord {
  return readText(memoryRecordReader(file), text);
}

const OPERATOR_REQUIRED = ['Name', 'Size(KB)', 'Allocation Time(us)', 'Release Time(us)', 'Device Type'] as const;
const OPERATOR_OPTIONAL = ['Active Release Time(us)', 'Duration(us)', 'Active Duration(us)', 'Stream Ptr'] as const;

export interface OperatorMemoryRow {
  readonly line: number;
  readonly name: string;
  readonly sizeKB: number;
  readonly allocationTimeUs: number;
  /** Undefined when the operator's memory was not released within the profile. */
  readonly releaseTimeUs: number | undefined;
  readonly device: number | undefined;
}

export interface OperatorMemory {
  readonly kind: 'operator_memory';
  readonly rows: readonly OperatorMemoryRow[];
}

export function operatorMemoryReader(file = 'operator_memory.csv'): CsvFileReader<OperatorMemory> {
  return tableReader(
    file,
    OPERATOR_REQUIRED,
    OPERATOR_OPTIONAL,
    (row): OperatorMemoryRow => {
      const release = (row.get('Release Time(us)') ?? '').trim();
      return {
        line: row.line,
        name: row.get('Name') ?? '',
        sizeKB: numberField(row, 'Size(KB)', file),
        allocationTimeUs: numberField(row, 'Allocation Time(us)', file),
        releaseTimeUs: release === '' || release === 'N/A' ? undefined : numberField(row, 'Release Time(us)', file),
        device: deviceIndex(row.get('Device Type')),
      };
    },
    (rows) => ({ kind: 'operator_memory', rows }),
  );
}

export function readOperatorMemory(text: string, file = 'operator_memory.csv'): OperatorMemory {
  return readText(operatorMemoryReader(file), text);
}
