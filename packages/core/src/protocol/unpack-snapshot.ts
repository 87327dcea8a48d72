import { isObject } from './guards.ts';
import { PACKED_TABLES } from './packed-snapshot.ts';

/**
 * Rebuilds the rows of a packed snapshot (see packed-snapshot.ts) from received JSON. It trusts
 * nothing: every column is checked for its form and length, and a problem becomes an error naming
 * the field. The rows it builds are not validated here; the caller validates the rebuilt snapshot
 * as any other.
 */
export type Unpacked = { ok: true; value: unknown } | { ok: false; message: string; field: string };

/** Rows a table may have: far above any device (64 GiB of 4 KiB allocations is 16.8 million). */
const MAX_ROWS = 20_000_000;
/** Field names are plain identifiers (never `__proto__` or `constructor`-like tricks). */
const FIELD = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

class UnpackError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A fresh copy of a JSON value, so rows never share an array or object. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyJson(item)]));
  return value;
}

interface Column {
  readonly key: string;
  readonly read: (row: number) => unknown;
}

/** One column as a function from row number to value (null: the row has no such field), and whether any row lacks the field. */
function reader(column: unknown, rows: number, field: string): { read: (row: number) => unknown; hasNull: boolean } {
  const fail = (what: string): never => {
    throw new UnpackError(
      field,
      `${what}; a column is {"same": v}, {"deltas": [...]}, {"pick": [...], "index": [...]} or {"values": [...]}`,
    );
  };
  if (!isObject(column)) return fail('expected a column object');
  const keys = Object.keys(column).sort().join(',');
  const lengthOf = (name: string, list: unknown): unknown[] => {
    if (!Array.isArray(list) || list.length !== rows) return fail(`"${name}" must be an array of ${rows} entries`);
    return list;
  };
  if (keys === 'same') {
    const same = column.same;
    return { read: same !== null && typeof same === 'object' ? () => copyJson(same) : () => same, hasNull: same === null };
  }
  if (keys === 'values') {
    const values = lengthOf('values', column.values);
    return { read: (row) => values[row], hasNull: values.includes(null) };
  }
  if (keys === 'deltas') {
    const deltas = lengthOf('deltas', column.deltas);
    const values = new Array<number>(rows);
    let sum = 0;
    for (let row = 0; row < rows; row += 1) {
      const delta = deltas[row];
      if (typeof delta !== 'number' || !Number.isSafeInteger(delta)) fail(`deltas[${row}] is not an integer`);
      sum += Number(delta);
      if (!Number.isSafeInteger(sum)) fail(`the value of row ${row} is not a safe integer`);
      values[row] = sum;
    }
    return { read: (row) => values[row], hasNull: false };
  }
  if (keys === 'index,pick') {
    const pick = column.pick;
    if (!Array.isArray(pick)) return fail('"pick" must be an array');
    const index = lengthOf('index', column.index);
    for (let row = 0; row < rows; row += 1) {
      const at = index[row];
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= pick.length) fail(`index[${row}] is not a position in "pick"`);
    }
    const read = (row: number): unknown => {
      const value: unknown = pick[Number(index[row])];
      return value !== null && typeof value === 'object' ? copyJson(value) : value;
    };
    return { read, hasNull: pick.includes(null) };
  }
  return fail(`unknown column form with keys ${JSON.stringify(keys)}`);
}

function unpackTable(table: unknown, field: string): unknown[] {
  if (!isObject(table) || Object.keys(table).sort().join(',') !== 'columns,rows') {
    throw new UnpackError(field, 'expected a packed table {"rows": n, "columns": {...}}');
  }
  const rows = table.rows;
  if (typeof rows !== 'number' || !Number.isSafeInteger(rows) || rows < 0 || rows > MAX_ROWS) {
    throw new UnpackError(`${field}.rows`, `expected a row count from 0 to ${MAX_ROWS}`);
  }
  const columns = table.columns;
  if (!isObject(columns)) throw new UnpackError(`${field}.columns`, 'expected an object of columns');
  const always: Column[] = [];
  const sometimes: Column[] = [];
  for (const key of Object.keys(columns)) {
    if (!FIELD.test(key)) throw new UnpackError(`${field}.columns`, `${JSON.stringify(key.slice(0, 70))} is not a field name`);
    const column = reader(columns[key], rows, `${field}.columns.${key}`);
    (column.hasNull ? sometimes : always).push({ key, read: column.read });
  }
  // Rows are copies of one template holding every field all rows have, so they share one shape.
  const template: Record<string, unknown> = {};
  for (const { key } of always) template[key] = 0;
  const out = new Array<unknown>(rows);
  for (let row = 0; row < rows; row += 1) {
    const item: Record<string, unknown> = { ...template };
    for (const { key, read } of always) item[key] = read(row);
    for (const { key, read } of sometimes) {
      const value = read(row);
      if (value !== null) item[key] = value;
    }
    out[row] = item;
  }
  return out;
}

/** The snapshot a packed one stands for (its tables as rows), or where the packing is wrong. */
export function unpackSnapshot(packed: unknown, field = 'packed'): Unpacked {
  if (!isObject(packed)) return { ok: false, field, message: `field "${field}": expected a packed snapshot object` };
  try {
    const snapshot: Record<string, unknown> = { ...packed };
    for (const table of PACKED_TABLES) snapshot[table] = unpackTable(packed[table], `${field}.${table}`);
    return { ok: true, value: snapshot };
  } catch (error) {
    if (!(error instanceof UnpackError)) throw error;
    return { ok: false, field: error.field, message: `field "${error.field}": ${error.message}` };
  }
}
