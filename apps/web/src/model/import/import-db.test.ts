import { ASCEND_910B2, BlockIndex, unpackEvents } from '@pagelens/core';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { openCsv } from './import-csv.ts';
import type { ImportReply } from './import-protocol.ts';

const MiB = 1024 * 1024;
/** Node's sql.js (the worker's loads its wasm from the app's assets, which a Node test has no server for). */
const sqlite = () => initSqlJs();
const SQL = await sqlite();

const COLUMNS =
  '"ID" INTEGER, "Event" TEXT, "Event Type" TEXT, "Name" TEXT, "Timestamp(ns)" INTEGER, "Process Id" INTEGER, "Thread Id" INTEGER, "Device Id" TEXT, "Ptr" TEXT, "Attr" TEXT, "Call Stack(Python)" TEXT, "Call Stack(C)" TEXT';
/** The same three rows as import-csv.test.ts's DUMP. */
const ROWS = [
  `1, 'MALLOC', 'HAL', 'N/A', 1000, 1, 1, '0', '0x12c000000000', '{size:${4 * MiB}}', '', ''`,
  `2, 'MALLOC', 'PTA', 'N/A', 2000, 1, 1, '0', '0x12c000000000', '{size:4096}', 'train.py(3): step', ''`,
  `3, 'MSTX', 'Mark', 'epoch', 3000, 1, 1, '0', 'N/A', '{}', '', ''`,
];

function database(table = 'memscope_dump'): Uint8Array<ArrayBuffer> {
  const db = new SQL.Database();
  db.run(`CREATE TABLE ${table} (${COLUMNS})`);
  for (const row of ROWS) db.run(`INSERT INTO ${table} VALUES (${row})`);
  // A copy on an ArrayBuffer of its own, as a Blob part must be.
  const bytes = new Uint8Array(db.export());
  db.close();
  return bytes;
}

/** Runs the worker's non-pickle branch on `bytes`, the first chunk shorter than SQLite's 16-byte header. */
async function run(bytes: Uint8Array<ArrayBuffer>, name: string, purpose?: 'perfetto'): Promise<ImportReply[]> {
  const reader = new Blob([bytes.subarray(3)]).stream().getReader();
  const replies: ImportReply[] = [];
  await openCsv(
    { name, total: bytes.length, head: bytes.subarray(0, 3), reader },
    purpose === undefined ? { url: '', token: '', name } : { url: '', token: '', name, purpose },
    ASCEND_910B2,
    (m) => replies.push(m),
    sqlite,
  );
  return replies;
}

describe('the import worker: msMemScope .db', () => {
  it('a memscope_dump table becomes the session its CSV would, whatever the file is called', async () => {
    const bytes = database();
    const replies = await run(bytes, 'upload.bin');
    expect(replies[0]).toMatchObject({ type: 'progress', bytesRead: bytes.length });
    const done = replies.at(-1);
    if (done?.type !== 'done') throw new Error(JSON.stringify(done));
    expect(done.facts).toMatchObject({
      name: 'upload.bin',
      bytes: bytes.length,
      format: 'msmemscope',
      segments: 1,
      traceEntries: 3,
      unplacedIn: 'row',
    });
    expect(done.facts.unplaced).toEqual([{ reason: 'not-malloc-free', count: 1, firstLine: 3 }]);
    expect(
      BlockIndex.from(done.blocks)
        .all(0)
        .map((block) => block.size),
    ).toEqual([4096]);
    expect(unpackEvents(done.events).some((event) => event.kind === 'alloc' && event.size === 4 * MiB)).toBe(true);
  });

  it('exports to Perfetto as its CSV does: the HAL allocation and the block as instant events', async () => {
    const exported = (await run(database(), 'memscope_dump_1.db', 'perfetto')).at(-1);
    if (exported?.type !== 'perfetto') throw new Error(JSON.stringify(exported));
    const trace = JSON.parse(await exported.json.text()) as { traceEvents: { ph: string; name: string }[] };
    expect(trace.traceEvents.filter((event) => event.ph === 'i').map((event) => event.name)).toEqual(['segment_alloc', 'alloc']);
    expect(exported.events).toBe(trace.traceEvents.length);
  });

  it('a database without the table is the reader’s message', async () => {
    const replies = await run(database('other'), 'memscope_dump_1.db');
    expect(replies.at(-1)).toEqual({
      type: 'error',
      message: 'memscope_dump_1.db: an SQLite database without msMemScope\'s table "memscope_dump"; tables found: "other"',
      at: undefined,
    });
  });

  it('SQLite that does not load is said, naming the file', async () => {
    const broken = () => Promise.reject(new Error('no wasm'));
    const bytes = database();
    const reader = new Blob([bytes]).stream().getReader();
    const run = openCsv(
      { name: 'm.db', total: bytes.length, head: new Uint8Array(0), reader },
      { url: '', token: '', name: 'm.db' },
      ASCEND_910B2,
      () => undefined,
      broken,
    );
    await expect(run).rejects.toThrow('SQLite did not load in this browser, so m.db cannot be read (no wasm)');
  });
});
