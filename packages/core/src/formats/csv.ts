import { type CsvRecord, CsvRecordReader } from './csv-records.ts';
import { FormatError } from './format-error.ts';

/**
 * The Ascend tools' memory CSVs as tables: the header read first, then each row handed on as it
 * completes (csv-records.ts reads the bytes). Columns are found by name, compared without case and
 * spaces ("Thread ID" = "Thread Id"), so a renamed header fails with the names it has.
 */
export interface CsvRow<C extends string> {
  /** The 1-based line of a CSV, or row of a database table (memscope-db.ts), as `unit` says. */
  readonly line: number;
  readonly unit: RowUnit;
  readonly get: (column: C) => string | undefined;
}

export type RowUnit = 'line' | 'row';

/** `file: line 7: …` (or `row 7` for a table): a FormatError at that line (a table's rows have no place in a file). */
export function rowError(file: string, row: { readonly line: number; readonly unit: RowUnit }, message: string): FormatError {
  return new FormatError(`${file}: ${row.unit} ${row.line}: ${message}`, row.unit === 'line' ? row.line : undefined);
}

function key(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}

/**
 * Each data row of a CSV pushed in chunks through `onRow`, with its `required` columns checked;
 * `optional` columns may be absent. A missing column is named with the columns the file has; a row
 * with more or fewer fields than the header names its line. The row is valid only while `onRow`
 * runs: what it keeps is what it copies out.
 */
export class CsvTableReader<R extends string, O extends string> {
  private readonly records: CsvRecordReader;
  private header: readonly string[] | undefined;
  /** Column name as asked for → its index in the header. */
  private readonly columns = new Map<string, number>();
  private current: CsvRecord | undefined;
  private readonly row: { line: number; unit: RowUnit; get: (column: R | O) => string | undefined };

  constructor(
    private readonly file: string,
    private readonly required: readonly R[],
    private readonly optional: readonly O[],
    private readonly onRow: (row: CsvRow<R | O>) => void,
    unit: RowUnit = 'line',
  ) {
    this.records = new CsvRecordReader(file, (record) => this.take(record));
    this.row = {
      line: 0,
      unit,
      get: (column) => {
        const at = this.columns.get(column);
        return at === undefined || this.current === undefined ? undefined : this.current.field(at);
      },
    };
  }

  get bytesRead(): number {
    return this.records.bytesRead;
  }

  push(chunk: Uint8Array): void {
    this.records.push(chunk);
  }

  /** The input has ended; returns the header (trimmed) as the file spells it. */
  end(): readonly string[] {
    this.records.end();
    if (this.header === undefined) {
      throw new FormatError(`${this.file}: the file is empty; expected a header with ${this.required.join(', ')}`, 1);
    }
    return this.header;
  }

  /** One record: the header first, then the rows. Records that do not come from bytes (a database's rows) enter here. */
  take(record: CsvRecord): void {
    if (this.header === undefined) {
      this.readHeader(record);
      return;
    }
    if (record.fieldCount !== this.header.length) {
      throw rowError(
        this.file,
        { line: record.line, unit: this.row.unit },
        `${record.fieldCount} fields where the header has ${this.header.length} (a damaged or cut row)`,
      );
    }
    this.current = record;
    this.row.line = record.line;
    this.onRow(this.row);
    this.current = undefined;
  }

  private readHeader(record: CsvRecord): void {
    const header = Array.from({ length: record.fieldCount }, (_, at) => record.field(at).trim());
    const index = new Map<string, number>();
    header.forEach((name, at) => {
      if (!index.has(key(name))) index.set(key(name), at);
    });
    const missing = this.required.filter((name) => !index.has(key(name)));
    if (missing.length > 0) {
      throw new FormatError(
        `${this.file}: missing column${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')}; columns found: ${header.map((name) => `"${name}"`).join(', ')}`,
        this.row.unit === 'line' ? record.line : undefined,
      );
    }
    for (const name of [...this.required, ...this.optional]) {
      const at = index.get(key(name));
      if (at !== undefined) this.columns.set(name, at);
    }
    this.header = header;
  }
}

/** A number field; a blank or non-number is an error naming the line and the column. */
export function numberField<C extends string>(row: CsvRow<C>, column: C, file: string): number {
  const raw = (row.get(column) ?? '').trim();
  const value = Number(raw);
  if (raw === '' || !Number.isFinite(value)) {
    throw rowError(file, row, `"${column}" is "${raw.slice(0, 40)}", expected a number`);
  }
  return value;
}

/** An integer field of any size (timestamps in ns, pointers), decimal or 0x hex; exact. */
export function bigField<C extends string>(row: CsvRow<C>, column: C, file: string): bigint {
  const raw = (row.get(column) ?? '').trim();
  if (/^-?\d+$/.test(raw) || /^0x[0-9a-f]+$/i.test(raw)) return BigInt(raw);
  throw rowError(file, row, `"${column}" is "${raw.slice(0, 40)}", expected an integer`);
}

/** The device index in "NPU:3", "npu:3", "3" or "device_3"; undefined for "CPU" or N/A. */
export function deviceIndex(raw: string | undefined): number | undefined {
  const match = /(\d+)\s*$/.exec(raw ?? '');
  return match === null ? undefined : Number(match[1]);
}
