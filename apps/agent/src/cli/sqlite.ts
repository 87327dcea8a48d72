import type { SqliteEngine } from '@pagelens/core';

/**
 * sql.js in Node, for msMemScope's .db (why sql.js: core formats/memscope-db.ts). Imported only
 * when a .db is opened, so the other commands never load its 688 KB wasm.
 */
export async function loadSqlite(): Promise<SqliteEngine> {
  const { default: initSqlJs } = await import('sql.js');
  return initSqlJs();
}
