import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../src/journal/file-journal.ts';
import { replayJournal } from '../src/journal/replay.ts';
import { silentLogger } from '../src/server/logger.ts';
import { startHarness, TOKEN } from './support/agent-harness.ts';
import { TestClient } from './support/ws-client.ts';

const BIN = fileURLToPath(new URL('../bin/pagelens.mjs', import.meta.url));
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function recordSession(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-journal-'));
  dirs.push(dir);
  const journal = openFileJournal(dir, silentLogger);
  const harness = await startHarness({ journal, resumeGraceMs: 20, devices: 2 });
  const driver = await TestClient.connect(harness.port, TOKEN);
  await driver.hello('driver');
  await driver.ok('aclInit', { configPath: null });
  await driver.ok('aclrtSetDevice', { deviceId: 0 });
  const { hostPtr } = await driver.ok('aclrtMallocHost', { size: 8 * 1024 * 1024 });
  const { ptr } = await driver.ok('malloc', { size: 8 * 1024 * 1024 });
  const { devPtr } = await driver.ok('aclrtMalloc', { size: 8 * 1024 * 1024, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await driver.ok('aclrtMemcpy', { dst: devPtr, destMax: 8 * 1024 * 1024, src: ptr, count: 8 * 1024 * 1024, kind: 1 });
  await driver.ok('aclrtMemcpy', { dst: devPtr, destMax: 8 * 1024 * 1024, src: hostPtr, count: 8 * 1024 * 1024, kind: 1 });
  expect(await driver.call('aclrtMalloc', { size: 0, policy: 0 })).toMatchObject({ ret: 100000 });
  await driver.ok('aclrtSetDevice', { deviceId: 0 }).catch(() => undefined);
  await driver.call('aclrtSetDevice', { deviceId: 1 }, { process: 1 });
  driver.close();
  await driver.closed;
  await new Promise((resolve) => setTimeout(resolve, 100));
  await harness.close();
  const [file] = readdirSync(dir);
  if (file === undefined) throw new Error('no journal written');
  return join(dir, file);
}

describe('journal and replay', () => {
  it('records calls, results and events, and replay finds every one identical (same seed)', async () => {
    const file = await recordSession();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; source?: string });
    expect(lines[0]?.type).toBe('header');
    expect(lines.some((line) => line.type === 'call' && line.source === 'teardown')).toBe(true);
    const out: string[] = [];
    const code = await replayJournal(file, { quiet: false, out: (line) => out.push(line) });
    expect(code, out.join('\n')).toBe(0);
    expect(out.join('\n')).toMatch(/replay: \d+ calls and \d+ events match/);
  });

  it('a journal that disagrees with the simulator is reported with the call that differs', async () => {
    const file = await recordSession();
    const text = readFileSync(file, 'utf8').replace('"ret":100000', '"ret":0');
    writeFileSync(file, text);
    const out: string[] = [];
    expect(await replayJournal(file, { quiet: false, out: (line) => out.push(line) })).toBe(1);
    expect(out.join('\n')).toContain('aclrtMalloc');
    expect(out.join('\n')).toContain('recorded ret 0');
  });

  it('a call that emits 140,000 events (resetting a full device) replays without overflowing the stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-journal-'));
    dirs.push(dir);
    const file = join(dir, 'large.ndjson');
    const entry = (value: object): string => `${JSON.stringify(value)}\n`;
    const call = (id: number, fn: string, args: object): string =>
      entry({ type: 'call', session: 's1', process: 0, id, fn, args, source: 'client' }) +
      entry({ type: 'result', session: 's1', id, ret: 0, out: {} });
    const lines = [
      entry({
        type: 'header',
        version: 1,
        created: '2026-11-29T00:00:00.000Z',
        config: { backend: 'sim', profile: 'Ascend910B2', devices: 1, seed: 1 },
      }),
      entry({ type: 'session', session: 's1', action: 'open' }),
      entry({ type: 'process', session: 's1', process: 0, pid: 4001, name: 'session s1' }),
      call(1, 'aclrtSetDevice', { deviceId: 0 }),
    ];
    for (let id = 2; id < 140_002; id += 1) lines.push(call(id, 'aclrtMalloc', { size: 4096, policy: 2 }));
    lines.push(call(140_002, 'aclrtResetDevice', { deviceId: 0 }));
    writeFileSync(file, lines.join(''));
    const out: string[] = [];
    // The journal records no events and no pointers, so replay reports differences (exit 1); it must get that far.
    expect(await replayJournal(file, { quiet: true, out: (line) => out.push(line) })).toBe(1);
    expect(out.join('\n')).toMatch(/replay: .*differ/);
  }, 60_000);

  it('an unreadable journal says what is wrong (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-journal-'));
    dirs.push(dir);
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, '{"type":"header"}\nnot json\n');
    const out: string[] = [];
    expect(await replayJournal(file, { quiet: false, out: (line) => out.push(line) })).toBe(2);
    expect(out[0]).toMatch(/line 1 .* is not a journal entry/);
    expect(await replayJournal(join(dir, 'missing.ndjson'), { quiet: false, out: (line) => out.push(line) })).toBe(2);
  });
});

describe('the real CLI', () => {
  it('SIGTERM tears the driver session down in order, tells viewers, exits 0, and the journal replays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-cli-'));
    dirs.push(dir);
    const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet', '--journal', dir], {
      env: { ...process.env, PAGELENS_TOKEN: 'cli-token' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /:(\d+)\/\?token=/.exec(text);
        if (match?.[1] !== undefined) resolve(Number(match[1]));
      });
      setTimeout(() => reject(new Error(`no URL printed: ${text}`)), 20_000);
    });
    const driver = await TestClient.connect(port, 'cli-token');
    await driver.hello('driver');
    const viewer = await TestClient.connect(port, 'cli-token');
    await viewer.hello('viewer');
    await driver.ok('aclInit', { configPath: null });
    await driver.ok('aclrtSetDevice', { deviceId: 0 });
    const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 };
    const { handle } = await driver.ok('aclrtMallocPhysical', { size: 2 * 1024 * 1024, prop, flags: 0 });
    const { virPtr } = await driver.ok('aclrtReserveMemAddress', { size: 2 * 1024 * 1024, alignment: 0, expectPtr: null, flags: 0 });
    await driver.ok('aclrtMapMem', { virPtr, size: 2 * 1024 * 1024, offset: 0, handle, flags: 0 });
    await driver.ok('aclrtMalloc', { size: 1024, policy: 0 });
    await driver.ok('aclrtMallocHost', { size: 1024 });
    await driver.ok('aclrtCreateStream');
    // A teardown that hangs fails on the suite's hang guard (vitest.config.ts), not on a clock here.
    child.kill('SIGTERM');
    const closed = await viewer.closed;
    expect(closed.code).toBe(1001);
    expect(await exited).toBe(0);
    const order = viewer.events
      .filter((e) => e.kind === 'call' && e.seq > 0)
      .map((e) => (e.kind === 'call' ? e.fn : ''))
      .slice(-8);
    expect(order).toEqual([
      'aclrtUnmapMem',
      'aclrtReleaseMemAddress',
      'aclrtFreePhysical',
      'aclrtFree',
      'aclrtFreeHost',
      'aclrtDestroyStream',
      'aclrtResetDeviceForce',
      'aclFinalize',
    ]);
    expect(viewer.replica.allocations.size + viewer.replica.physical.size + viewer.replica.hostBuffers.size).toBe(0);
    const [file] = readdirSync(dir);
    const replay = spawn(process.execPath, [BIN, 'replay', join(dir, file ?? '')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    replay.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    expect(await new Promise((resolve) => replay.on('exit', resolve))).toBe(0);
    expect(output).toMatch(/events match/);
  }, 30_000);
});
