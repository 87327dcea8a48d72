import { FormatError } from './format-error.ts';

/**
 * A small RFC 4180 CSV reader for the Ascend tools' memory CSVs: quoted fields (with "" and line
 * breaks inside), CRLF or LF, a leading BOM. Columns are found by name, compared without case and
 * spaces ("Thread ID" = "Thread Id"), so a renamed header fails with the names it has.
 */
export interface CsvTable<C extends string> {
  /** One row per data line, by column; `line` is the 1-based line where the row starts. */
  readonly rows: readonly CsvRow<C>[];
  /** Header names as written. */
  readonly header: readonly string[];
}

export interface CsvRow<C extends string> {
  readonly line: number;
  readonly get: (column: C) => string | undefined;
}

function key(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}

/** Splits `text` into records of fields, each with the line it starts on. */
export function splitCsv(text: string, file: string): { fields: string[]; line: number }[] {
  const records: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let sawAny = false;
  for (; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else quoted = false;
      } else {
        if (c === '\n') line += 1;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      sawAny = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      sawAny = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      fields.push(field);
      if (sawAny || fields.length > 1 || field !== '') records.push({ fields, line: start });
      fields = [];
      field = '';
      sawAny = false;
      line += 1;
      start = line;
    } else {
      field += c;
      sawAny = true;
    }
  }
  if (quoted) throw new FormatError(`${file}: line ${start}: a quoted field is not closed before the end of the file (truncated?)`, start);
  if (sawAny || field !== '') {
    fields.push(field);
    records.push({ fields, line: start });
  }
  return records;
}

/**
 * The table with its `required` columns checked; `optional` columns may be absent. A missing
 * column is named with the columns the file has; a row with more or fewer fields than the header
 * names its line.
 */
export function readCsv<R extends string, O extends string = never>(
  text: string,
  file: string,
  required: readonly R[],
  optional: readonly O[] = [],
): CsvTable<R | O> {
  const records = splitCsv(text, file);
  const first = records[0];
  if (first === undefined) throw new FormatError(`${file}: the file is empty; expected a header with ${required.join(', ')}`, 1);
  const header = first.fields.map((name) => name.trim());
  const index = new Map<string, number>();
  header.forEach((name, at) => {
    if (!index.has(key(name))) index.set(key(name), at);
  });
  const missing = required.filter((name) => !index.has(key(name)));
  if (missing.length > 0) {
    throw new FormatError(
      `${file}: missing column${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')}; columns found: ${header.map((name) => `"${name}"`).join(', ')}`,
      first.line,
    );
  }
  const columns = new Map<string, number>();
  for (const name of [...required, ...optional]) {
    const at = index.get(key(name));
    if (at !== undefined) columns.set(name, at);
  }
  const rows: CsvRow<R | O>[] = [];
  for (const record of records.slice(1)) {
    if (record.fields.length !== header.length) {
      throw new FormatError(
        `${file}: line ${record.line}: ${record.fields.length} fields where the header has ${header.length} (a damaged or cut row)`,
        record.line,
      );
    }
    const { fields } = record;
    rows.push({
      line: record.line,
      get: (column) => {
        const at = columns.get(column);
        return at === undefined ? undefined : fields[at];
      },
    });
  }
  return { rows, header };
}

/** A number field; a blank or non-number is an error naming the line and the column. */
export function numberField<C extends string>(row: CsvRow<C>, column: C, file: string): number {
  const raw = (row.get(column) ?? '').trim();
  const value = Number(raw);
  if (raw === '' || !Number.isFinite(value)) {
    throw new FormatError(`${file}: line ${row.line}: "${column}" is "${raw.slice(0, 40)}", expected a number`, row.line);
  }
  return value;
}

/** An integer field of any size (timestamps in ns, pointers), decimal or 0x hex; exact. */
export function bigField<C extends string>(row: CsvRow<C>, column: C, file: string): bigint {
  const raw = (row.get(column) ?? '').trim();
  if (/^-?\d+$/.test(raw) || /^0x[0-9a-f]+$/i.test(raw)) return BigInt(raw);
  throw new FormatError(`${file}: line ${row.line}: "${column}" is "${raw.slice(0, 40)}", expected an integer`, row.line);
}

/** The device index in "NPU:3", "npu:3", "3" or "device_3"; undefined for "CPU" or N/A. */
export function deviceIndex(raw: string | undefined): number | undefined {
  const match = /(\d+)\s*$/.exec(raw ?? '');
  return match === null ? undefined : Number(match[1]);
}
