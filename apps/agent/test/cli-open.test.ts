import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { unopenable } from '../src/cli/open.ts';
import { spawnCli } from './support/cli-process.ts';

const FIXTURES = fileURLToPath(new URL('../../../packages/core/test/formats/fixtures/', import.meta.url));
const SNAPSHOT = join(FIXTURES, 'torch_npu_small.pickle');
const WEB_DIR = mkdtempSync(join(tmpdir(), 'pagelens-open-web-'));
writeFileSync(join(WEB_DIR, 'index.html'), '<!doctype html><title>PageLens</title>');

/** Starts `pagelens open FILE` on a free port and resolves with its printed URL. */
async function started(file: string, extra: readonly string[] = []) {
  const cli = spawnCli(['--port', '0', '--web-dir', WEB_DIR, ...extra, 'open', file], process.env);
  const [, printed] = await cli.printed(/Open: (http:\/\/\S+)/);
  const url = new URL(printed ?? '');
  return { cli, url, token: url.searchParams.get('token') ?? '' };
}

describe('pagelens open FILE', () => {
  it('refuses a missing file before any port is taken, naming it', async () => {
    const cli = spawnCli(['--port', '0', 'open', '/nonexistent/job.pickle'], process.env);
    expect(await cli.exited).toBe(1);
    expect(cli.output().stderr).toBe('pagelens open: /nonexistent/job.pickle does not exist\n');
    expect(cli.output().stdout).not.toContain('Open:');
  });

  it('says what is wrong with a directory, an empty file, a foreign CSV and an unreadable file; takes SQLite and the Ascend CSVs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-open-'));
    expect(unopenable(dir)).toMatch(/is a directory; give the memory file itself/);
    const empty = join(dir, 'empty.pickle');
    writeFileSync(empty, '');
    expect(unopenable(empty)).toMatch(/is empty: a memory snapshot pickle starts with byte 0x80, a CSV with its header line/);
    // The profiler's and msMemScope's CSVs, by name, or by header line under any name.
    expect(unopenable(join(FIXTURES, 'memory_record.csv'))).toBeUndefined();
    const renamed = join(dir, 'step_12.csv');
    writeFileSync(renamed, readFileSync(join(FIXTURES, 'memory_record.csv')));
    expect(unopenable(renamed)).toBeUndefined();
    const memscope = join(dir, 'export.csv');
    writeFileSync(memscope, 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr\n');
    expect(unopenable(memscope)).toBeUndefined();
    const foreign = join(dir, 'losses.csv');
    writeFileSync(foreign, 'step,loss\n1,0.5\n');
    expect(unopenable(foreign)).toMatch(
      /is not a memory file the explorer opens: not a snapshot pickle \(it starts with byte 0x73, a pickle with 0x80\).*memory_record\.csv and operator_memory\.csv/,
    );
    const locked = join(dir, 'locked.pickle');
    writeFileSync(locked, new Uint8Array([0x80, 4]), { mode: 0o000 });
    // root reads any file: the check can only be seen failing as another user.
    if (process.getuid?.() !== 0) expect(unopenable(locked)).toMatch(/is not readable: permission denied/);
    expect(unopenable(SNAPSHOT)).toBeUndefined();
    // msMemScope's .db is told by SQLite's header, not its name; the page's import worker reads it.
    const db = join(dir, 'dump');
    writeFileSync(db, new Uint8Array([...new TextEncoder().encode('SQLite format 3\0'), ...new Uint8Array(84)]));
    expect(unopenable(db)).toBeUndefined();
    writeFileSync(db, new TextEncoder().encode('SQLite format 2\0'));
    expect(unopenable(db)).toMatch(/not an SQLite database.*msMemScope's memscope_dump_\*\.csv and \.db/);
  });

  it('serves the web app and exactly that file, streamed, to the token only; no session joins', async () => {
    const { cli, url, token } = await started(SNAPSHOT, ['--quiet']);
    expect(url.searchParams.get('open')).toBe('torch_npu_small.pickle');
    expect(cli.output().stdout).toContain('PageLens is showing torch_npu_small.pickle (a recording, read-only; no simulator session).');
    const fileUrl = new URL('/file', url);

    expect((await fetch(fileUrl)).status).toBe(401);
    expect((await fetch(fileUrl, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    const response = await fetch(fileUrl, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(decodeURIComponent(response.headers.get('x-pagelens-file-name') ?? '')).toBe('torch_npu_small.pickle');
    const body = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(body).equals(readFileSync(SNAPSHOT))).toBe(true);
    // A query cannot name another file: there is only the one.
    const other = await fetch(new URL(`/file?path=${encodeURIComponent('/etc/passwd')}&token=${token}`, url));
    expect(Buffer.from(await other.arrayBuffer()).equals(readFileSync(SNAPSHOT))).toBe(true);
    expect((await fetch(fileUrl, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status).toBe(405);
    expect((await fetch(new URL('/', url))).status).toBe(200);

    const ws = new WebSocket(`ws://${url.host}/ws?token=${token}`);
    const closed = await new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/shows a file \(pagelens open\), not a session/);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('an agent started without open serves no file', async () => {
    const cli = spawnCli(['--port', '0', '--web-dir', WEB_DIR, '--no-journal', '--quiet'], process.env);
    const [, printed] = await cli.printed(/Open: (http:\/\/\S+)/);
    const url = new URL(printed ?? '');
    const response = await fetch(new URL('/file', url), { headers: { Authorization: `Bearer ${url.searchParams.get('token')}` } });
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/serves no file: start it with pagelens open FILE/);
    cli.child.kill('SIGTERM');
    await cli.exited;
  });
});
