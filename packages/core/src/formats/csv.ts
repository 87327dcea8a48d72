import { FormatError } from './format-error.ts';

/**
 * A small RFC 4180 CSV reader for the Ascend tools' memory CSVs: quoted fields (with "" and line
 * breaks inside), CRLF or LF, a leading BOM. Columns are found by name, compared without case and
 * spaces ("Thread ID" = "Thread Id"), so a renamed header fails with the names it has.
 */
export interface CsvRow<C extends string> {
  /** 1-based: the line a CSV record starts on, or the row's place in a database table (see `unit`). */
  readonly line: number;
  readonly unit: RowUnit;
  readonly get: (column: C) => string | undefined;
}

/** How a message names a row: a CSV `line` (which the page shows as such), or a database table's `row`. */
export type RowUnit = 'line' | 'row';

/** A FormatError about one row; `at` is set for CSV lines only, since a table row is no place in the file. */
export function rowError(file: string, row: { readonly line: number; readonly unit: RowUnit }, problem: string): FormatError {
  return new FormatError(`${file}: ${row.unit} ${row.line}: ${problem}`, row.unit === 'line' ? row.line : undefined);
}

function key(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}

/** One record: its fields and the 1-based line it starts on (for a table, its 1-based row). */
export interface CsvRecord {
  readonly fields: string[];
  readonly line: number;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The records of `text`, one at a time, so a million-row file is never held as a million field
 * arrays at once. Unquoted fields are sliced out whole rather than built a character at a time.
 */
export function* csvRecords(text: string, file: string): Generator<CsvRecord> {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        // Quoted: "" is a quote, and commas and line breaks are text.
        let field = '';
        let from = i + 1;
        for (;;) {
          const close = text.indexOf('"', from);
          if (close < 0)
            throw new FormatError(`${file}: line ${start}: a quoted field is not closed before the end of the file (truncated?)`, start);
          field += text.slice(from, close);
          for (let k = text.indexOf('\n', from); k >= 0 && k < close; k = text.indexOf('\n', k + 1)) line += 1;
          if (text.charCodeAt(close + 1) === QUOTE) {
            field += '"';
            from = close + 2;
          } else {
            i = close + 1;
            break;
          }
        }
        // Text after the closing quote up to the separator belongs to the field, as the old reader kept it.
        let j = i;
        while (j < n && text.charCodeAt(j) !== COMMA && text.charCodeAt(j) !== LF && text.charCodeAt(j) !== CR) j += 1;
        fields.push(j > i ? field + text.slice(i, j) : field);
        i = j;
      } else {
        let j = i;
        while (j < n && text.charCodeAt(j) !== COMMA && text.charCodeAt(j) !== LF && text.charCodeAt(j) !== CR) j += 1;
        fields.push(text.slice(i, j));
        i = j;
      }
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i += 1;
        continue;
      }
      // End of the record: a line break (CRLF, LF or CR) or the end of the text.
      if (c === CR && text.charCodeAt(i + 1) === LF) i += 2;
      else if (c === CR || c === LF) i += 1;
      line += 1;
      break;
    }
    // A blank line is no record.
    if (fields.length > 1 || fields[0] !== '') yield { fields, line: start };
  }
}

/** The records of `text` as one array (small files and tests). */
export function splitCsv(text: string, file: string): CsvRecord[] {
  return [...csvRecords(text, file)];
}

/**
 * Each data row of `text` through `map`, with its `required` columns checked; `optional` columns
 * may be absent. A missing column is named with the columns the file has; a row with more or fewer
 * fields than the header names its line. Only what `map` returns is kept.
 */
export function readCsv<R extends string, O extends string, T>(
  text: string,
  file: string,
  required: readonly R[],
  optional: readonly O[],
  map: (row: CsvRow<R | O>) => T,
): { readonly rows: T[]; readonly header: readonly string[] } {
  const records = csvRecords(text, file);
  const first = records.next();
  if (first.done === true) throw new FormatError(`${file}: the file is empty; expected a header with ${required.join(', ')}`, 1);
  const header = first.value.fields.map((name) => name.trim());
  return readTable({ header, at: first.value.line, records, unit: 'line' }, file, required, optional, map);
}

/** Named columns and their records: a CSV after its header line, or a database table (memscope-db.ts). */
export interface Table {
  readonly header: readonly string[];
  /** Where the header is, for the missing-column message: line 1 of a CSV, undefined for a table. */
  readonly at: number | undefined;
  readonly records: Iterable<CsvRecord>;
  readonly unit: RowUnit;
}

/** `readCsv` past the header: the column check and `map` over each record, whatever the records came from. */
export function readTable<R extends string, O extends string, T>(
  table: Table,
  file: string,
  required: readonly R[],
  optional: readonly O[],
  map: (row: CsvRow<R | O>) => T,
): { readonly rows: T[]; readonly header: readonly string[] } {
  const { header } = table;
  const index = new Map<string, number>();
  header.forEach((name, at) => {
    if (!index.has(key(name))) index.set(key(name), at);
  });
  const missing = required.filter((name) => !index.has(key(name)));
  if (missing.length > 0) {
    throw new FormatError(
      `${file}: missing column${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')}; columns found: ${header.map((name) => `"${name}"`).join(', ')}`,
      table.at,
    );
  }
  const columns = new Map<string, number>();
  for (const name of [...required, ...optional]) {
    const at = index.get(key(name));
    if (at !== undefined) columns.set(name, at);
  }
  const rows: T[] = [];
  // One row object, refilled per record: `map` reads it at once and keeps only what it returns.
  let fields: string[] = [];
  const row: { line: number; unit: RowUnit; get: (column: R | O) => string | undefined } = {
    line: 0,
    unit: table.unit,
    get: (column) => {
      const at = columns.get(column);
      return at === undefined ? undefined : fields[at];
    },
  };
  for (const record of table.records) {
    if (record.fields.length !== header.length) {
      throw rowError(
        file,
        { line: record.line, unit: table.unit },
        `${record.fields.length} fields where the header has ${header.length} (a damaged or cut row)`,
      );
    }
    fields = record.fields;
    row.line = record.line;
    rows.push(map(row));
  }
  return { rows, header };
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
