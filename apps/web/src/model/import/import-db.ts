// The import worker's branch for msMemScope's memscope_dump_*.db (issue 16): SQLite (sql.js, why
// this one: core formats/memscope-db.ts) reads its memscope_dump table into the MemScopeDump its
// CSV gives, which becomes a recorded session as the CSV does (import-memscope.ts).
//
// sql.js is a chunk of its own, fetched the first time a .db is opened, not with the app: 57 KB of
// JS and a 688 KB wasm as built (19 KB + 336 KB gzipped; the import worker grew 3.6 KB). Both come from the agent like the rest of the app.
import { FormatError, type MemScopeDump, readMemScopeDb, type SqliteEngine } from '@pagelens/core';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import type { Reply } from './import-memscope.ts';

let loaded: Promise<SqliteEngine> | undefined;

/** sql.js, loaded once per worker; its wasm from the app's own assets (the page may be offline). */
export function loadSqlite(): Promise<SqliteEngine> {
  loaded ??= import('sql.js').then(({ default: initSqlJs }) => initSqlJs({ locateFile: () => wasmUrl }));
  return loaded;
}

/** A whole .db (SQLite needs every page at hand) read into its dump; undefined once a damaged file's error is replied. */
export async function openDb(
  bytes: Uint8Array,
  name: string,
  reply: Reply,
  sqlite: () => Promise<SqliteEngine>,
): Promise<MemScopeDump | undefined> {
  const engine = await sqlite().catch((error: unknown) => {
    loaded = undefined;
    throw new Error(
      `SQLite did not load in this browser, so ${name} cannot be read (${error instanceof Error ? error.message : String(error)})`,
    );
  });
  try {
    return readMemScopeDb(engine, bytes, name);
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    reply({ type: 'error', message: error.message, at: error.at });
    return undefined;
  }
}
