import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { findProfile, HEADER_BYTES, isSqliteFile, memoryCsvKind } from '@pagelens/core';
import { startAgentServer } from '../server/http-server.ts';
import { consoleLogger, redacting } from '../server/logger.ts';
import { FILE_PATH, type ServedFile } from '../server/one-file.ts';
import { newToken } from '../server/token.ts';
import { CloseCode } from '../session/peer-socket.ts';
import type { ServeOptions } from './program.ts';
import { openInBrowser, untilSignal, urlHost } from './serve.ts';

/** `pagelens open FILE`'s own flag; the server flags (port, host, token, profile…) come from the root command. */
export interface OpenFlags {
  readonly pageSize1g: boolean;
}

const PROTO = 0x80;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Why FILE cannot be opened, in words a person can act on; undefined when it can. Checked before any port is taken. */
export function unopenable(path: string): string | undefined {
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) return `${path} is a directory; give the memory file itself (a .pickle from torch_npu's _dump_snapshot, say)`;
    if (!stat.isFile()) return `${path} is not a regular file`;
    size = stat.size;
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    if (code === 'ENOENT') return `${path} does not exist`;
    if (code === 'EACCES') return `${path} is not readable: permission denied`;
    return `${path} cannot be read (${code || 'error'})`;
  }
  if (size === 0) return `${path} is empty: a memory snapshot pickle starts with byte 0x80, a CSV with its header line`;
  // A pickle's first byte, SQLite's 16-byte header (msMemScope's memscope_dump_*.db), or a CSV's header line.
  const head = new Uint8Array(Math.min(size, HEADER_BYTES));
  let read = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    return code === 'EACCES' ? `${path} is not readable: permission denied` : `${path} cannot be read (${code || 'error'})`;
  }
  const first = read > 0 ? head[0] : undefined;
  const bytes = head.subarray(0, read);
  if (first === PROTO || isSqliteFile(bytes) || /\.(pickle|pkl)$/i.test(path)) return undefined;
  if (memoryCsvKind(basename(path), bytes) !== undefined) return undefined;
  return (
    `${path} is not a memory file the explorer opens: not a snapshot pickle (it starts with byte 0x${(first ?? 0).toString(16).padStart(2, '0')}, a pickle with 0x80), ` +
    `not an SQLite database, and not one of the Ascend CSVs (told by name or header line). It opens torch_npu / PyTorch snapshots, ` +
    `msMemScope's memscope_dump_*.csv and .db, and the torch_npu profiler's memory_record.csv and operator_memory.csv`
  );
}

/** The page's URL: the token, and `open` naming the file so the page loads it from FILE_PATH instead of joining a session. */
export function openUrl(origin: string, token: string, name: string, profile: string | undefined, pageSize1g: boolean): string {
  const url = new URL('/', origin);
  url.searchParams.set('token', token);
  url.searchParams.set('open', name);
  if (profile !== undefined) url.searchParams.set('profile', profile);
  if (pageSize1g) url.searchParams.set('pageSize1g', '1');
  return url.toString();
}

/**
 * Serves the web app and the one file, with no backend and no session: the page reads the file
 * from the agent through its import worker, as if it had been dropped on it. A WebSocket is
 * refused, since there is no session to join. Returns the exit code.
 */
export async function openFile(file: string, options: ServeOptions, flags: OpenFlags, err: (text: string) => void): Promise<number> {
  const path = resolve(file);
  const problem = unopenable(path);
  if (problem !== undefined) {
    err(`pagelens open: ${problem}\n`);
    return 1;
  }
  if (options.profile !== undefined && findProfile(options.profile) === undefined) {
    err(`pagelens open: unknown profile "${options.profile}"; use Ascend910B2, Ascend910B4, Ascend910_9391 or Ascend310P3\n`);
    return 1;
  }
  const token = options.token ?? newToken();
  const log = redacting(consoleLogger(options.quiet), [token]);
  const served: ServedFile = { path, name: basename(path) };
  const allowedHosts = new Set(options.allowHost);
  if (!LOOPBACK.has(options.host)) {
    log.warn(`listening on ${options.host}, not loopback: anyone who can reach this address and has the token can read ${served.name}`);
    if (options.host !== '0.0.0.0' && options.host !== '::') allowedHosts.add(options.host);
  }
  const server = await startAgentServer({
    host: options.host,
    port: options.port,
    webDir: resolve(options.webDir),
    policy: { token, allowedHosts, allowedOrigins: new Set(options.allowOrigin) },
    log,
    maxConnections: options.maxConnections,
    file: served,
    accept: (socket) => {
      socket.close(CloseCode.policyViolation, `this agent shows a file (pagelens open), not a session; GET ${FILE_PATH}`);
      return { message: () => undefined, closed: () => undefined };
    },
  });
  const url = openUrl(`http://${urlHost(options.host)}:${server.port}`, token, served.name, options.profile, flags.pageSize1g);
  process.stdout.write(`PageLens is showing ${served.name} (a recording, read-only; no simulator session).\nOpen: ${url}\n`);
  if (options.open) openInBrowser(url);
  await untilSignal(log);
  await server.close();
  return 0;
}
