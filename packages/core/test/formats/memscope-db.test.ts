import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { type MemScopeEvent, readMemScopeEvents } from '../../src/formats/ascend-csv.ts';
import { isSqliteFile, readMemScopeDb, readMemScopeDbEvents } from '../../src/formats/memscope-db.ts';
import { readMemScopeDump } from '../../src/formats/memscope-session.ts';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { withArrays } from './snapshot-fixtures.ts';

const SQL = await initSqlJs();

/** msMemScope's columns and SQLite types, in its order (Ascend/msmemscope csrc/analysis/constant.h, data_handler.cpp). */
const SCHEMA = [
  ['ID', 'INTEGER'],
  ['Event', 'TEXT'],
  ['Event Type', 'TEXT'],
  ['Name', 'TEXT'],
  ['Timestamp(ns)', 'INTEGER'],
  ['Process Id', 'INTEGER'],
  ['Thread Id', 'INTEGER'],
  ['Device Id', 'TEXT'],
  ['Ptr', 'TEXT'],
  ['Attr', 'TEXT'],
  ['Call Stack(Python)', 'TEXT'],
  ['Call Stack(C)', 'TEXT'],
] as const;

type Value = string | bigint | null;
const MiB = 1024 * 1024;
const T0 = 1732000000000000001n; // past 2^53: a number would round it

/** One table of rows, written both as the CSV and as the .db, so the two readers must agree on it. */
const ROWS: readonly Value[][] = [
  [1n, 'MALLOC', 'HAL', 'N/A', T0, 4242n, 4243n, '0', '0x12c000000000', `{size:${4 * MiB}}`, '', ''],
  [
    2n,
    'MALLOC',
    'PTA',
    'N/A',
    T0 + 10n,
    4242n,
    4243n,
    '0',
    '0x12c000000000',
    '{"allocation_id":"1","size":"4096","owner":"PTA@model"}',
    'train.py(3): step\nmodel.py(9): forward',
    'libtorch.so',
  ],
  [3n, 'MALLOC', 'PTA', 'N/A', T0 + 20n, 4242n, 4243n, '0', '0x12c000100000', '{size:512}', 'eval.py(5): evaluate', ''],
  [4n, 'FREE', 'PTA', 'N/A', T0 + 30n, 4242n, 4243n, '0', '0x12c000000000', '{size:4096}', '', ''],
  [5n, 'MSTX', 'Mark', '"epoch, 1"', T0 + 40n, 4242n, 4243n, '0', 'N/A', '{}', '', ''],
  [6n, 'MALLOC', 'HOST', 'N/A', T0 + 50n, 4242n, 4244n, 'CPU', '0x7f0000000000', '{size:64}', '', ''],
];

const csvField = (value: Value): string => {
  const text = value === null ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const csvOf = (rows: readonly Value[][]): string =>
  [SCHEMA.map(([name]) => name).join(','), ...rows.map((row) => row.map(csvField).join(','))].join('\n');

const sqlValue = (value: Value): string =>
  value === null ? 'NULL' : typeof value === 'bigint' ? value.toString() : `'${value.replace(/'/g, "''")}'`;

/** A database as msMemScope's DbHandler makes it: CREATE TABLE with its column types, one INSERT per row. */
function dbOf(rows: readonly Value[][], options: { table?: string; schema?: readonly (readonly [string, string])[] } = {}): Uint8Array {
  const schema = options.schema ?? SCHEMA;
  const db = new SQL.Database();
  db.run(`CREATE TABLE ${options.table ?? 'memscope_dump'} (${schema.map(([name, type]) => `"${name}" ${type}`).join(', ')})`);
  for (const row of rows)
    db.run(`INSERT INTO ${options.table ?? 'memscope_dump'} VALUES (${row.slice(0, schema.length).map(sqlValue).join(', ')})`);
  const bytes = db.export();
  db.close();
  return bytes;
}

/** The table's rows as events, before the model. */
function dbEvents(bytes: Uint8Array, file = 'memscope_dump.db'): MemScopeEvent[] {
  const events: MemScopeEvent[] = [];
  readMemScopeDbEvents(SQL, bytes, file, (event) => events.push(event));
  return events;
}

function refused(bytes: Uint8Array, name = 'memscope_dump_20261201.db') {
  const result = openMemoryFile(bytes, name, SQL);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

describe("msMemScope's memscope_dump_*.db", () => {
  it('holds the same events as the CSV of the same rows; `line` is the row of the table', () => {
    const fromCsv = readMemScopeEvents(csvOf(ROWS), 'memscope_dump_20261201.csv');
    const fromDb = dbEvents(dbOf(ROWS), 'memscope_dump_20261201.db');
    const withoutLine = ({ line: _, ...event }: MemScopeEvent) => event;
    expect(fromDb.map(withoutLine)).toEqual(fromCsv.map(withoutLine));
    expect(fromDb.map((event) => event.line)).toEqual([1, 2, 3, 4, 5, 6]);
    // The CSV's second row holds a two-line stack, so its later rows start a line further down.
    expect(fromCsv.map((event) => event.line)).toEqual([2, 3, 5, 6, 7, 8]);
    expect(fromDb[0]?.timestampNs).toBe(T0);
    expect(fromDb[1]).toMatchObject({ ptr: 0x12c000000000n, size: 4096, attr: { owner: 'PTA@model' } });
    expect(fromDb[4]?.name).toBe('"epoch, 1"');
    expect(fromDb[5]?.device).toBeUndefined();
    const opened = openMemoryFile(dbOf(ROWS), 'memscope_dump_20261201.db', SQL);
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.file.kind === 'memscope_dump' && opened.file.rows).toBe(ROWS.length);
  });

  it('becomes the same recorded snapshot as the CSV (memscope-session.ts)', () => {
    const fromCsv = readMemScopeDump(csvOf(ROWS));
    const fromDb = readMemScopeDb(SQL, dbOf(ROWS));
    expect(withArrays(fromDb.snapshot)).toEqual(withArrays(fromCsv.snapshot));
    expect(fromDb.snapshot.deviceTraces[0]?.at(1)?.frames).toEqual([
      { filename: 'train.py', line: 3, name: 'step' },
      { filename: 'model.py', line: 9, name: 'forward' },
    ]);
    expect(fromDb.halRows).toBe(1);
    expect(fromDb.blockRows).toBe(3);
    expect([...fromDb.byDevice]).toEqual([...fromCsv.byDevice]);
    // Unplaced rows keep their place: the MSTX mark is row 5 of the table (line 7 of the CSV).
    expect(fromDb.unplaced['not-malloc-free']).toEqual({ count: 1, firstLine: 5 });
    expect(fromCsv.unplaced['not-malloc-free']).toEqual({ count: 1, firstLine: 7 });
  });

  it('reads a column typed TEXT where msMemScope says INTEGER (and the reverse), and NULL as an empty field', () => {
    const retyped = SCHEMA.map(([name, type]) => [name, type === 'INTEGER' ? 'TEXT' : 'INTEGER'] as const);
    const rows = ROWS.map((row) => row.map((value, at) => (at === 10 && value === '' ? null : value)));
    const events = dbEvents(dbOf(rows, { schema: retyped }));
    expect(events).toEqual(dbEvents(dbOf(ROWS)));
    expect(events[0]?.pythonStack).toBe('');
  });

  it('reads a database left in WAL mode (msMemScope opens it so, and checkpoints at the end)', () => {
    const bytes = dbOf(ROWS);
    // File format write/read versions 2 = WAL (sqlite.org/fileformat.html §1.3.3).
    bytes[18] = 2;
    bytes[19] = 2;
    expect(dbEvents(bytes)).toHaveLength(ROWS.length);
  });

  it('is recognised by its 16-byte header, whatever its name', () => {
    const bytes = dbOf(ROWS);
    expect(isSqliteFile(bytes)).toBe(true);
    expect(isSqliteFile(bytes.subarray(0, 15))).toBe(false);
    expect(isSqliteFile(new TextEncoder().encode(csvOf(ROWS)))).toBe(false);
    const opened = openMemoryFile(bytes, 'upload.bin', SQL);
    expect(opened.ok && opened.file.kind).toBe('memscope_dump');
  });

  it('a database without the table names the table it expected and the tables it has', () => {
    const foreign = dbOf([['select * from x', '1', '2', 4242n, 4243n]], {
      table: 'python_trace_4242',
      schema: [
        ['FuncInfo', 'TEXT'],
        ['StartTime(ns)', 'TEXT'],
        ['EndTime(ns)', 'TEXT'],
        ['Thread Id', 'INTEGER'],
        ['Process Id', 'INTEGER'],
      ],
    });
    expect(refused(foreign).message).toBe(
      'memscope_dump_20261201.db: an SQLite database without msMemScope\'s table "memscope_dump"; tables found: "python_trace_4242"',
    );
    const empty = new SQL.Database();
    const bytes = empty.export();
    empty.close();
    expect(refused(bytes).message).toContain('without msMemScope\'s table "memscope_dump"; it has no tables');
  });

  it('a missing column is named with the columns the table has', () => {
    const bytes = dbOf(ROWS, { schema: SCHEMA.filter(([name]) => name !== 'Attr' && name !== 'Ptr') });
    const { message, at } = refused(bytes);
    expect(message).toContain(
      'memscope_dump_20261201.db (table memscope_dump): missing columns "Ptr", "Attr"; columns found: "ID", "Event"',
    );
    expect(at).toBeUndefined();
  });

  it('a bad value names its row (not a line: a table has none)', () => {
    const rows = ROWS.map((row, at) => (at === 2 ? row.map((value, column) => (column === 4 ? 'notatime' : value)) : row));
    expect(refused(dbOf(rows))).toEqual({
      ok: false,
      message: 'memscope_dump_20261201.db (table memscope_dump): row 3: "Timestamp(ns)" is "notatime", expected an integer',
      at: undefined,
    });
  });

  it('a damaged or cut database is SQLite’s own words, with what was expected', () => {
    const many = Array.from({ length: 400 }, (_, i) => ROWS[1]?.map((value, at) => (at === 0 ? BigInt(i + 1) : value)) ?? []);
    const whole = dbOf(many);
    expect(whole.length).toBeGreaterThan(3 * 4096);
    const scribbled = whole.slice();
    scribbled.fill(0xa5, 100);
    expect(refused(scribbled).message).toMatch(
      /^memscope_dump_20261201\.db: SQLite cannot read this database \((database disk image is malformed|file is not a database)\): a damaged or cut file; expected msMemScope's memscope_dump_\*\.db$/,
    );
    // Page 1 (the schema) intact, the table's pages cut off: the reader stops at the first row it cannot read.
    expect(refused(whole.slice(0, 4096)).message).toMatch(/SQLite cannot read this database \(.+\): a damaged or cut file/);
    const noHeader = whole.slice();
    noHeader[0] = 0x73;
    expect(readMemScopeDbMessage(noHeader)).toContain('not an SQLite database (it does not start with "SQLite format 3")');
  });
});

function readMemScopeDbMessage(bytes: Uint8Array): string {
  try {
    readMemScopeDb(SQL, bytes, 'x.db');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return 'read';
}
