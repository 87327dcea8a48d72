import type { Snapshot } from '../model/snapshot.ts';

/**
 * A snapshot's tables in columns: the transport form of a large snapshot. A snapshot of 100,000
 * allocations is 21 MB as JSON rows, most of it field names and repeated values; in columns each
 * field is written once and each value in a few characters (3–4 MB), which the agent stringifies,
 * the socket carries and the browser decodes and parses in a fraction of the time.
 *
 * Packing is lossless and below the schema: `unpackSnapshot` rebuilds the very rows, and the
 * result is then validated as any snapshot is. A column is one of:
 * - `{ "same": v }`: every row holds v;
 * - `{ "deltas": [d0, d1, …] }`: integers, row i holding d0 + … + di;
 * - `{ "pick": [v0, v1, …], "index": [i0, i1, …] }`: row r holding pick[index[r]];
 * - `{ "values": [v0, v1, …] }`: row r holding values[r].
 * `null` stands for a field the row does not have (snapshot values are never null), and a field no
 * row has has no column.
 */
export type Column =
  | { readonly same: unknown }
  | { readonly deltas: readonly number[] }
  | { readonly pick: readonly unknown[]; readonly index: readonly number[] }
  | { readonly values: readonly unknown[] };

export interface PackedTable {
  readonly rows: number;
  readonly columns: Readonly<Record<string, Column>>;
}

/** The snapshot tables that are packed (the others are small and travel as they are). */
export const PACKED_TABLES = [
  'allocations',
  'physical',
  'handles',
  'reservations',
  'mappings',
  'hostBuffers',
  'streams',
  'shares',
  'copies',
] as const;
type TableName = (typeof PACKED_TABLES)[number];

export type PackedSnapshot = Omit<Snapshot, TableName> & { readonly [table in TableName]: PackedTable };

/** Distinct values up to which a column is written as a dictionary. */
const PICK_LIMIT = 256;

/** Field `key` of every row in the smallest of the four forms that fits it. One pass, then at most one more. */
function packColumn(rows: readonly Readonly<Record<string, unknown>>[], key: string): Column {
  const count = rows.length;
  const values = new Array<unknown>(count);
  const first: unknown = count === 0 ? null : (rows[0]?.[key] ?? null);
  let same = true;
  let integers = true;
  let objects = false;
  for (let row = 0; row < count; row += 1) {
    const value: unknown = rows[row]?.[key] ?? null;
    values[row] = value;
    if (value !== first) same = false;
    if (typeof value === 'number') {
      if (integers && !Number.isSafeInteger(value)) integers = false;
    } else {
      integers = false;
      if (value !== null && typeof value === 'object') objects = true;
    }
  }
  if (same) return { same: first };
  if (objects) return { values };
  const picks = new Map<unknown, number>();
  const index = new Array<number>(count);
  for (let row = 0; row < count; row += 1) {
    const value = values[row];
    let at = picks.get(value);
    if (at === undefined) {
      if (picks.size === PICK_LIMIT) return integers ? { deltas: deltasOf(values) } : { values };
      at = picks.size;
      picks.set(value, at);
    }
    index[row] = at;
  }
  return { pick: [...picks.keys()], index };
}

function deltasOf(values: readonly unknown[]): number[] {
  const deltas = new Array<number>(values.length);
  let previous = 0;
  for (let row = 0; row < values.length; row += 1) {
    const value = Number(values[row]);
    deltas[row] = value - previous;
    previous = value;
  }
  return deltas;
}

function packTable(table: readonly object[]): PackedTable {
  // Snapshot rows are plain data objects: read them by field name.
  const rows = table as readonly Readonly<Record<string, unknown>>[];
  const keys = new Set<string>();
  for (const row of rows) for (const key in row) keys.add(key);
  const columns: Record<string, Column> = {};
  for (const key of keys) columns[key] = packColumn(rows, key);
  return { rows: rows.length, columns };
}

/** The columns form of a snapshot (for the agent to send). */
export function packSnapshot(snapshot: Snapshot): PackedSnapshot {
  return {
    ...snapshot,
    allocations: packTable(snapshot.allocations),
    physical: packTable(snapshot.physical),
    handles: packTable(snapshot.handles),
    reservations: packTable(snapshot.reservations),
    mappings: packTable(snapshot.mappings),
    hostBuffers: packTable(snapshot.hostBuffers),
    streams: packTable(snapshot.streams),
    shares: packTable(snapshot.shares),
    copies: packTable(snapshot.copies),
  };
}
