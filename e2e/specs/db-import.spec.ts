import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { expect, openExplorer, snap, test } from '../support/fixtures.ts';
import { withServedFile } from '../support/served-file.ts';

const MiB = 1024 * 1024;
const T0 = 1732000000000000000n;

/**
 * An msMemScope memscope_dump_*.db as its DbHandler writes one (Ascend/msmemscope
 * csrc/analysis/constant.h): a 40 MiB HAL region on device 0, framework blocks in it, MSTX marks
 * and a HOST malloc the model does not place; Attr as JSON, as the .db holds it.
 */
async function memScopeDb(): Promise<Buffer> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(
    'CREATE TABLE memscope_dump ("ID" INTEGER, "Event" TEXT, "Event Type" TEXT, "Name" TEXT, "Timestamp(ns)" INTEGER, ' +
      '"Process Id" INTEGER, "Thread Id" INTEGER, "Device Id" TEXT, "Ptr" TEXT, "Attr" TEXT, "Call Stack(Python)" TEXT, "Call Stack(C)" TEXT)',
  );
  let id = 0;
  const row = (event: string, type: string, ptr: bigint | undefined, size: number | undefined, stack = '') => {
    id += 1;
    const attr = size === undefined ? '{}' : `{"size":"${size}"}`;
    // Timestamps past 2^53 go in as SQL integer literals, exact (a bound JS number would round them).
    db.run(`INSERT INTO memscope_dump VALUES (?, ?, ?, 'N/A', ${T0 + BigInt(id * 1000)}, 7, 7, '0', ?, ?, ?, '')`, [
      id,
      event,
      type,
      ptr === undefined ? 'N/A' : `0x${ptr.toString(16)}`,
      attr,
      stack,
    ]);
  };
  const base = 0x12c000000000n;
  row('MALLOC', 'HAL', base, 40 * MiB);
  for (let i = 0; i < 6; i += 1) {
    row('MALLOC', 'PTA', base + BigInt(i * 4 * MiB), 2 * MiB, i === 3 ? 'eval.py(5): evaluate' : `train.py(${10 + i}): step`);
    row('MSTX', 'Mark', undefined, undefined);
  }
  row('FREE', 'PTA', base, 2 * MiB);
  row('MALLOC', 'HOST', 0x7f0000000000n, 64);
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

test("an msMemScope .db opened with Open file becomes the same kind of session as its CSV; SQLite's chunk is fetched only then", async ({
  page,
  agent,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const sqlite: string[] = [];
  page.on('request', (request) => {
    if (/sql-wasm/.test(request.url())) sqlite.push(new URL(request.url()).pathname);
  });
  await openExplorer(page, agent);
  // The app is up and has imported nothing: SQLite is not part of it yet.
  expect(sqlite).toEqual([]);

  const db = await memScopeDb();
  await page
    .getByTestId('open-file-input')
    .setInputFiles({ name: 'memscope_dump_20261201.db', mimeType: 'application/octet-stream', buffer: db });
  const banner = page.getByTestId('import-banner');
  await expect(banner).toContainText('memscope_dump_20261201.db');
  await expect(banner).toContainText('msMemScope dump');
  await expect(page.getByTestId('actions')).toHaveCount(0);
  await expect(page.getByTestId('import-segments')).toHaveText('1');
  const unplaced = page.getByTestId('import-unplaced');
  await expect(unplaced.locator('[data-reason="not-malloc-free"]')).toContainText('rows: 6 · first at row 3 of the table');
  await expect(unplaced.locator('[data-reason="host"]')).toContainText('rows: 1');
  // From the agent, like the rest of the app: the loader chunk and the wasm, once each.
  expect(sqlite.filter((path) => path.endsWith('.wasm'))).toHaveLength(1);
  expect(sqlite.filter((path) => path.endsWith('.js'))).toHaveLength(1);

  await page.getByTestId('tab-pages').click();
  await expect(page.getByTestId('page-map-legend').getByTestId('legend-count-huge')).toHaveText(String((40 * MiB) / (2 * MiB)));
  await page.getByTestId('tab-log').click();
  const log = page.getByTestId('log');
  await log.getByTestId('log-filter-stack').fill('evaluate');
  await expect(log.getByTestId('log-row')).toHaveCount(1);
  await expect(log.getByTestId('log-row')).toContainText('alloc');
  await snap(page, 'db-memscope-log-1280');
});

test('a damaged .db and one without the memscope_dump table say so; the session stays', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const damaged = await memScopeDb();
  damaged.fill(0x5a, 100);
  await page
    .getByTestId('open-file-input')
    .setInputFiles({ name: 'memscope_dump_bad.db', mimeType: 'application/octet-stream', buffer: damaged });
  await expect(page.getByTestId('import-error')).toContainText('memscope_dump_bad.db did not open');
  await expect(page.getByTestId('import-error-message')).toContainText('SQLite cannot read this database (');
  await expect(page.getByTestId('import-error-message')).toContainText("expected msMemScope's memscope_dump_*.db");

  const SQL = await initSqlJs();
  const other = new SQL.Database();
  other.run('CREATE TABLE python_trace_7 ("FuncInfo" TEXT)');
  const foreign = Buffer.from(other.export());
  other.close();
  await page.getByTestId('open-file-input').setInputFiles({ name: 'trace.db', mimeType: 'application/octet-stream', buffer: foreign });
  await expect(page.getByTestId('import-error-message')).toContainText(
    'trace.db: an SQLite database without msMemScope\'s table "memscope_dump"; tables found: "python_trace_7"',
  );
  await expect(page.getByTestId('import-banner')).toHaveCount(0);
  await expect(page.getByTestId('actions')).toBeVisible();
  await snap(page, 'db-error-1280');
});

test('pagelens open FILE.db starts the explorer with the dump loaded, streamed from the agent', async ({ page }) => {
  const path = join(mkdtempSync(join(tmpdir(), 'pagelens-open-db-')), 'memscope_dump_20261201.db');
  writeFileSync(path, await memScopeDb());
  await withServedFile(page, path, async () => {
    const banner = page.getByTestId('import-banner');
    await expect(banner).toContainText('memscope_dump_20261201.db');
    await expect(banner).toContainText('msMemScope dump');
    await expect(page.getByTestId('import-segments')).toHaveText('1');
    await expect(page.getByTestId('actions')).toHaveCount(0);
  });
});
