import { type MemScopeEvent, readMemScopeTable } from './ascend-csv.ts';
import type { CsvRecord } from './csv-records.ts';
import { FormatError } from './format-error.ts';
import { MemScopeConverter, type MemScopeDump } from './memscope-session.ts';

/**
 * msMemScope's `memscope_dump_{date}.db` (its `--data-format=db` output) as the same MemScopeDump
 * its CSV gives, through the CSV's own column rules (ascend-csv.ts readMemScopeTable).
 *
 * Facts (Ascend/msmemscope `csrc/analysis/constant.h` DUMP_RECORD_TABLE_SQL, `data_handler.cpp`):
 * one table `memscope_dump` with "ID" INTEGER, "Event" TEXT, "Event Type" TEXT, "Name" TEXT,
 * "Timestamp(ns)" INTEGER, "Process Id" INTEGER, "Thread Id" INTEGER, "Device Id" TEXT, "Ptr" TEXT
 * (hex, or N/A), "Attr" TEXT (JSON), then "Call Stack(Python)" and "Call Stack(C)" TEXT; the file
 * is opened in WAL mode and checkpointed at the end. Every column is read as `CAST(… AS TEXT)`, so
 * an INTEGER or a TEXT column gives the text the CSV would hold (a 64-bit integer exactly), and a
 * NULL reads as an empty field.
 *
 * Which SQLite (measured 2026-12-02 on the npm packages; gzip -9 sizes):
 * - sql.js 1.17.0 (MIT; SQLite 3.54.1; releases 1.15.0 → 1.17.0 in Oct–Nov 2026): the browser build
 *   is 62 KB of JS + 688 KB of wasm, 21 KB + 336 KB gzipped. It opens a database from a Uint8Array
 *   (`new Database(bytes)`), runs in a Web Worker and in Node 20, and needs no filesystem.
 * - @sqlite.org/sqlite-wasm 3.54.1-build1 (Apache-2.0, the SQLite project's own): 657 KB of JS +
 *   879 KB of wasm, 179 KB + 406 KB gzipped; it declares Node >= 22 (PageLens supports 20), and a
 *   database from bytes takes sqlite3_deserialize by hand.
 * PageLens uses sql.js: 1.6x smaller, and supported on the Node PageLens runs on. Core does not load
 * it (that is I/O: where the wasm comes from differs between a worker and Node); the apps pass the
 * initialised engine in, typed by the little of it this reader uses.
 */

/** The part of sql.js's `SqlJsStatic` the reader uses; sql.js's own types fit it structurally. */
export interface SqliteEngine {
  readonly Database: new (bytes: Uint8Array) => SqliteDatabase;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

export interface SqliteStatement {
  step(): boolean;
  get(): unknown[];
  getColumnNames(): string[];
  free(): unknown;
}

/** The 16 bytes every SQLite 3 database file starts with (sqlite.org/fileformat.html §1.3.1). */
const SQLITE_HEADER = 'SQLite format 3\0';
const TABLE = 'memscope_dump';

export function isSqliteFile(bytes: Uint8Array): boolean {
  if (bytes.length < SQLITE_HEADER.length) return false;
  for (let i = 0; i < SQLITE_HEADER.length; i += 1) if (bytes[i] !== SQLITE_HEADER.charCodeAt(i)) return false;
  return true;
}

/** SQLite's own words for what went wrong ("file is not a database", "database disk image is malformed"). */
function sqliteSays(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function damaged(file: string, error: unknown, where = ''): FormatError {
  return new FormatError(
    `${file}: ${where}SQLite cannot read this database (${sqliteSays(error)}): a damaged or cut file; expected msMemScope's memscope_dump_*.db`,
  );
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Runs `sql` to the end and answers its rows; SQLite's errors become FormatErrors naming the file. */
function all(db: SqliteDatabase, sql: string, file: string): unknown[][] {
  let statement: SqliteStatement | undefined;
  try {
    statement = db.prepare(sql);
    const rows: unknown[][] = [];
    while (statement.step()) rows.push(statement.get());
    return rows;
  } catch (error) {
    throw damaged(file, error);
  } finally {
    statement?.free();
  }
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}

/** The rows of the table, one at a time (a dump has millions), each field as text. */
function* records(statement: SqliteStatement, file: string): Generator<CsvRecord> {
  for (let row = 1; ; row += 1) {
    let values: unknown[];
    try {
      if (!statement.step()) return;
      values = statement.get();
    } catch (error) {
      throw damaged(file, error, `row ${row}: `);
    }
    const fields = values.map(text);
    yield { line: row, fieldCount: fields.length, field: (at) => fields[at] ?? '' };
  }
}

/** The `memscope_dump` table of an msMemScope database held in memory, as the model (memscope-session.ts), row by row. */
export function readMemScopeDb(engine: SqliteEngine, bytes: Uint8Array, file = 'memscope_dump.db'): MemScopeDump {
  const converter = new MemScopeConverter();
  readMemScopeDbEvents(engine, bytes, file, (event) => converter.take(event));
  return converter.finish();
}

/**
 * Each row of the `memscope_dump` table of an msMemScope database held in memory, to `take` in
 * order. A file that is not SQLite, a damaged one, one without the table or without its columns:
 * a FormatError saying which.
 */
export function readMemScopeDbEvents(engine: SqliteEngine, bytes: Uint8Array, file: string, take: (event: MemScopeEvent) => void): void {
  if (!isSqliteFile(bytes)) {
    throw new FormatError(
      `${file}: not an SQLite database (it does not start with "SQLite format 3"); expected msMemScope's memscope_dump_*.db`,
      0,
    );
  }
  let db: SqliteDatabase;
  try {
    db = new engine.Database(bytes);
  } catch (error) {
    throw damaged(file, error);
  }
  try {
    const tables = all(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", file).map(([name]) => text(name));
    // SQLite compares table names without case; msMemScope writes it in lower case.
    const name = tables.find((table) => table.toLowerCase() === TABLE);
    if (name === undefined) {
      const found = tables.length === 0 ? 'it has no tables' : `tables found: ${tables.map((table) => `"${table}"`).join(', ')}`;
      throw new FormatError(`${file}: an SQLite database without msMemScope's table "${TABLE}"; ${found}`);
    }
    let statement: SqliteStatement | undefined;
    try {
      let header: string[];
      try {
        const columns = db.prepare(`SELECT * FROM ${quoted(name)}`);
        header = columns.getColumnNames();
        columns.free();
        statement = db.prepare(`SELECT ${header.map((column) => `CAST(${quoted(column)} AS TEXT)`).join(', ')} FROM ${quoted(name)}`);
      } catch (error) {
        throw damaged(file, error);
      }
      readMemScopeTable(header, records(statement, file), `${file} (table ${name})`, take);
    } finally {
      statement?.free();
    }
  } finally {
    db.close();
  }
}
