import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { runStats } from '../src/cli/stats.ts';
import { spawnCli } from './support/cli-process.ts';

/** The snapshot fixtures CPython wrote (packages/core/test/formats/fixtures/make_fixtures.py) and the figures it summed. */
const FIXTURES = fileURLToPath(new URL('../../../packages/core/test/formats/fixtures/', import.meta.url));
const fixture = (name: string): string => join(FIXTURES, name);
const EXPECTED = JSON.parse(readFileSync(fixture('expected.json'), 'utf8'));

async function stats(file: string, options: Partial<Parameters<typeof runStats>[1]> = {}) {
  let out = '';
  let err = '';
  const code = await runStats(
    file,
    { json: false, profile: undefined, pageSize1g: false, ...options },
    { out: (t) => (out += t), err: (t) => (err += t) },
  );
  return { code, out, err };
}

describe('pagelens stats', () => {
  it('the command line: stats FILE --json prints the figures CPython summed', async () => {
    const cli = spawnCli(['stats', fixture('torch_npu_small.pickle'), '--json', '--profile', 'Ascend910B4'], process.env);
    expect(await cli.exited).toBe(0);
    const json = JSON.parse(cli.output().stdout);
    const want = EXPECTED['torch_npu_small.pickle'];
    expect(json.format).toBe('torch_npu');
    expect(json.devices).toHaveLength(want.devices.length);
    json.devices.forEach((device: Record<string, unknown>, i: number) => {
      const { hugePages, addresses, actions, ...figures } = want.devices[i];
      expect(device).toMatchObject(figures);
      expect(Object.fromEntries(Object.entries(device.actions as Record<string, number>).filter(([, n]) => n > 0))).toEqual(actions);
      expect(json.pages.devices[i].byClass.huge.pages).toBe(hugePages);
    });
    expect(json.pages.modeled).toBe(true);
    expect(json.pages.profile).toBe('Ascend910B4');
  });

  it('pinned host memory (host_segments, host_traces, protocol 5): the JSON and the text give the host figures CPython summed', async () => {
    const want = EXPECTED['cuda_pinned_small.pickle'].host;
    const json = JSON.parse((await stats(fixture('cuda_pinned_small.pickle'), { json: true })).out);
    expect(json.host).toMatchObject({ segments: want.segments, reservedBytes: want.reservedBytes, traceEvents: want.traceEvents });
    expect(Object.fromEntries(Object.entries(json.host.actions as Record<string, number>).filter(([, n]) => n > 0))).toEqual(want.actions);
    const { out } = await stats(fixture('cuda_pinned_small.pickle'));
    expect(out).toContain(
      `pinned host: ${want.segments} segments, ${want.reservedBytes / 2 ** 20} MiB at the end; ${want.traceEvents} trace events`,
    );
    // A file without host keys prints no host line and no host key.
    expect((await stats(fixture('cuda_small.pickle'))).out).not.toContain('pinned host');
    expect(JSON.parse((await stats(fixture('cuda_small.pickle'), { json: true })).out).host).toBeUndefined();
  });

  it('the command line: a damaged file exits 1 with the reason', async () => {
    const cli = spawnCli(['stats', fixture('torch_npu_truncated.pickle')], process.env);
    expect(await cli.exited).toBe(1);
    expect(cli.output().stderr).toMatch(/torch_npu_truncated\.pickle: truncated at byte 29772: /);
  });

  it('human output: a table per device and the modeled pages', async () => {
    const { code, out } = await stats(fixture('cuda_small.pickle'));
    expect(code).toBe(0);
    const want = EXPECTED['cuda_small.pickle'].devices[0];
    expect(out).toContain('pytorch_cuda memory snapshot');
    expect(out).toMatch(/device\s+segments\s+reserved\s+allocated\s+active\s+trace events/);
    expect(out).toMatch(new RegExp(`^0\\s+${want.segments}\\s`, 'm'));
    expect(out).toContain(`segment_alloc ${want.actions.segment_alloc}`);
    expect(out).toMatch(/pages \(modeled: /);
    expect(out).toMatch(/normal 4 KiB\s+huge 2 MiB\s+giant 1 GiB\s+waste\s+PTEs/);
  });

  it('--page-size-1g moves large segments to 1 GiB pages; --profile picks the profile', async () => {
    const plain = JSON.parse((await stats(fixture('torch_npu_small.pickle'), { json: true })).out);
    const oneG = JSON.parse((await stats(fixture('torch_npu_small.pickle'), { json: true, pageSize1g: true })).out);
    expect(plain.pages.devices[0].byClass.giant.pages).toBe(0);
    expect(oneG.pages.devices[0].byClass.giant.pages).toBeGreaterThan(0);
    expect(oneG.pages.devices[0].wasteBytes).toBeGreaterThan(0);
    const p310 = JSON.parse((await stats(fixture('torch_npu_small.pickle'), { json: true, pageSize1g: true, profile: 'Ascend310P3' })).out);
    expect(p310.pages.profile).toBe('Ascend310P3');
    expect(p310.pages.devices[0].byClass.giant.pages).toBe(0);
    expect(await stats(fixture('torch_npu_small.pickle'), { profile: 'Ascend999' })).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown profile'),
    });
  });

  it('CSV files: rows per device; a missing column exits 1 naming it and the columns found', async () => {
    const record = JSON.parse((await stats(fixture('memory_record.csv'), { json: true })).out);
    expect(record).toEqual({
      format: 'memory_record',
      devices: [
        { device: 0, rows: 2, actions: { PTA: 2 } },
        { device: 1, rows: 1, actions: { GE: 1 } },
      ],
    });
    const missing = await stats(fixture('memory_record_missing_column.csv'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('missing column "Total Reserved(MB)"; columns found: "Component", "Timestamp(us)"');
  });

  it('an msMemScope CSV, told by its header alone, read in chunks: its rows, then the snapshot it becomes with its pages', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pagelens-stats-csv-')), 'upload.csv');
    // More rows than one 4 MiB chunk holds: the dump is read in several.
    const header = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
    const lines = [header, '1,MALLOC,HAL,N/A,1000,1,1,0,0x12c000000000,"{size:67108864,page_type:huge}",,'];
    for (let i = 0; i < 40_000; i += 1) {
      const ptr = `0x${(0x12c000000000 + (i % 1000) * 4096).toString(16)}`;
      lines.push(`${2 + 2 * i},MALLOC,PTA,N/A,${2000 + i},1,1,0,${ptr},"{size:4096}","train.py(${i % 7}): step",`);
      lines.push(`${3 + 2 * i},FREE,PTA,N/A,${2000 + i},1,1,0,${ptr},"{size:4096}",,`);
    }
    writeFileSync(path, lines.join('\n'));
    expect(statSync(path).size).toBeGreaterThan(4 * 1024 * 1024);
    const { code, out } = await stats(path);
    expect(code).toBe(0);
    expect(out).toContain('MALLOC 40001, FREE 40000');
    expect(out).toContain('as a snapshot: msMemScope dump: 1 HAL row as device allocations, 80,000 framework rows as blocks');
    expect(out).toMatch(/pages \(page sizes as the file recorded them for 1 of 1 segments/);
  });

  it('an msMemScope dump of an expandable-segments job: its HAL create rows are counted as physical handles', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pagelens-stats-csv-')), 'memscope_dump_20261207.csv');
    const header = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
    writeFileSync(
      path,
      [
        header,
        '1,MALLOC,HAL,N/A,1000,1,1,0,0x55d0c0a01000,"{size:20971520,page_type:huge,alloc_type:create}",,',
        '2,MALLOC,HAL,N/A,2000,1,1,0,0x55d0c0a02000,"{size:20971520,page_type:huge,alloc_type:create}",,',
        '3,MALLOC,HAL,N/A,3000,1,1,0,0x12c000000000,"{size:4194304,page_type:huge,alloc_type:alloc}",,',
      ].join('\n'),
    );
    const json = JSON.parse((await stats(path, { json: true })).out);
    expect(json.halHandles).toBe(2);
    expect(json.asSnapshot.devices[0].segments).toBe(3);
    expect((await stats(path)).out).toContain('2 HAL allocations are physical handles (alloc_type create)');
  });

  it('a hostile pickle and a foreign file are refused; a missing file is a clear error', async () => {
    expect(await stats(fixture('hostile_reduce.pickle'))).toMatchObject({
      code: 1,
      err: expect.stringContaining('STACK_GLOBAL (0x93) is refused'),
    });
    const foreign = join(tmpdir(), `pagelens-stats-${process.pid}.txt`);
    writeFileSync(foreign, 'just some notes\n');
    expect(await stats(foreign)).toMatchObject({ code: 1, err: expect.stringContaining('not a file PageLens reads') });
    expect(await stats(join(tmpdir(), 'no-such-pagelens-file.pickle'))).toMatchObject({
      code: 1,
      err: expect.stringContaining('cannot read'),
    });
  });
});

/** A memscope_dump table as msMemScope writes it (csrc/analysis/constant.h): rows on devices 0 and 1, and a HOST one. */
async function memScopeDb(table = 'memscope_dump'): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(
    `CREATE TABLE ${table} ("ID" INTEGER, "Event" TEXT, "Event Type" TEXT, "Name" TEXT, "Timestamp(ns)" INTEGER, "Process Id" INTEGER, ` +
      '"Thread Id" INTEGER, "Device Id" TEXT, "Ptr" TEXT, "Attr" TEXT, "Call Stack(Python)" TEXT, "Call Stack(C)" TEXT)',
  );
  const rows = [
    [1, 'MALLOC', 'HAL', '0', '0x12c000000000', '{"size":"4194304"}'],
    [2, 'MALLOC', 'PTA', '0', '0x12c000000000', '{"size":"4096"}'],
    [3, 'FREE', 'PTA', '0', '0x12c000000000', '{"size":"4096"}'],
    [4, 'MALLOC', 'HAL', '1', '0x12d000000000', '{"size":"2097152","page_type":"normal"}'],
    [5, 'MALLOC', 'HOST', 'CPU', '0x7f0000000000', '{"size":"64"}'],
  ] as const;
  for (const [id, event, type, device, ptr, attr] of rows) {
    db.run(`INSERT INTO ${table} VALUES (?, ?, ?, 'N/A', ?, 7, 7, ?, ?, ?, '', '')`, [
      id,
      event,
      type,
      1732000000000 + id,
      device,
      ptr,
      attr,
    ]);
  }
  const bytes = db.export();
  db.close();
  return bytes;
}

describe("pagelens stats on msMemScope's .db", () => {
  it('the command line: rows per device and their kinds, as for the CSV', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pagelens-stats-db-')), 'memscope_dump_20261201.db');
    writeFileSync(path, await memScopeDb());
    const cli = spawnCli(['stats', path, '--json'], process.env);
    expect(await cli.exited).toBe(0);
    const { asSnapshot, ...rows } = JSON.parse(cli.output().stdout);
    expect(rows).toEqual({
      format: 'memscope_dump',
      halHandles: 0,
      devices: [
        { device: null, rows: 1, actions: { MALLOC: 1 } },
        { device: 0, rows: 3, actions: { MALLOC: 2, FREE: 1 } },
        { device: 1, rows: 1, actions: { MALLOC: 1 } },
      ],
    });
    // And the snapshot it becomes: each HAL allocation a segment. Device 0's 4 MiB says no page size:
    // modeled huge-first, 2 huge pages (aclrtMallocAlign32 adds no pad, DM-3). Device 1's 2 MiB says
    // page_type normal: 512 normal pages, as recorded.
    expect(
      asSnapshot.devices.map((d: { device: number; segments: number; reservedBytes: number }) => [d.device, d.segments, d.reservedBytes]),
    ).toEqual([
      [0, 1, 4 * 1024 * 1024],
      [1, 1, 2 * 1024 * 1024],
    ]);
    const pages = asSnapshot.pages.devices.map((d: { byClass: Record<string, { pages: number }>; recordedSegments: number }) => [
      d.byClass.normal?.pages,
      d.byClass.huge?.pages,
      d.recordedSegments,
    ]);
    expect(pages).toEqual([
      [0, 2, 0],
      [512, 0, 1],
    ]);
    expect(asSnapshot.pages.basis).toMatch(/^page sizes as the file recorded them for 1 of 2 segments/);
  });

  it('a database without the table, and a damaged one, exit 1 with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-stats-db-'));
    const foreign = join(dir, 'other.db');
    writeFileSync(foreign, await memScopeDb('python_trace_7'));
    expect(await stats(foreign)).toMatchObject({
      code: 1,
      err: expect.stringContaining('an SQLite database without msMemScope\'s table "memscope_dump"; tables found: "python_trace_7"'),
    });
    const damaged = join(dir, 'damaged.db');
    const bytes = await memScopeDb();
    bytes.fill(0x5a, 100);
    writeFileSync(damaged, bytes);
    expect(await stats(damaged)).toMatchObject({ code: 1, err: expect.stringContaining('SQLite cannot read this database (') });
  });
});
