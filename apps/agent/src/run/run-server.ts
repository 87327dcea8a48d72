import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isObject } from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import { SimBackend } from '../backends/sim/sim-backend.ts';
import type { Logger } from '../server/logger.ts';
import { newToken, tokensEqual } from '../server/token.ts';
import { ProgramBridge } from './program-bridge.ts';
import { RunRecord } from './run-record.ts';
import { type Mapping, readMaps } from './sites.ts';
import { TraceEvents } from './trace-events.ts';
import { TraceRecord } from './trace-record.ts';

/*
 * The agent's local channel for interposed programs: a Unix-domain socket in a private directory
 * (mode 0700, the socket 0600), nothing on TCP. A program's first line is its hello with the
 * session token; each later line is one call, answered in order. One connection is one process.
 */

/** The longest line a program may send: a call's JSON, lists included (PL_MAX_LIST items). */
const MAX_LINE = 1 << 20;

export interface ProgramSession {
  readonly bridge: ProgramBridge;
  readonly maps: readonly Mapping[];
  /** Resolves when the program's connection closed (it exited, crashed, or closed it). */
  readonly closed: Promise<void>;
}

export interface RunServer {
  readonly socketPath: string;
  readonly token: string;
  /**
   * Resolves once every connection made before the call has closed and its calls are answered:
   * after a program exited, its connection (even one not yet accepted) is among them, since the
   * socket accepts in order and the drain's own connection comes last.
   */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** A program in trace mode: its calls went to the real library; the agent only observes them. */
export interface TraceSession {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly record: TraceRecord;
  readonly maps: readonly Mapping[];
  readonly closed: Promise<void>;
  /** Its process in the model, whose events are the observed calls (absent on a backend without a simulator host). */
  readonly modelPid?: number;
}

/** A traced program's process in the model: the simulator's host holds it beside the simulated ones. */
function observer(backend: Backend, name: string): TraceEvents | undefined {
  if (!(backend instanceof SimBackend)) return undefined;
  const opened = backend.openProcess(name);
  return new TraceEvents(backend, opened.pid);
}

export interface RunServerOptions {
  readonly backend: Backend;
  readonly log: Logger;
  readonly onProgram: (session: ProgramSession) => void;
  readonly onTrace?: (session: TraceSession) => void;
}

function parseHello(line: string): { pid: number; token: string; argv: string[]; trace: boolean } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.hello !== 1 || typeof value.pid !== 'number' || typeof value.token !== 'string') return undefined;
  const argv = Array.isArray(value.argv) ? value.argv.filter((item): item is string => typeof item === 'string') : [];
  return { pid: value.pid, token: value.token, argv, trace: value.mode === 'trace' };
}

export async function startRunServer(options: RunServerOptions): Promise<RunServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-run-'));
  chmodSync(dir, 0o700);
  const socketPath = join(dir, 'agent.sock');
  const token = newToken();
  const sockets = new Set<Socket>();
  const open = new Set<Promise<void>>();
  const barriers: (() => void)[] = [];

  const accept = (socket: Socket) => {
    sockets.add(socket);
    let buffered = '';
    let bridge: ProgramBridge | undefined;
    let trace: TraceRecord | undefined;
    let chain = Promise.resolve();
    let busy = 0;
    let markClosed: () => void = () => {};
    const closed = new Promise<void>((done) => {
      markClosed = done;
    });
    open.add(closed);
    void closed.then(() => open.delete(closed));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_LINE && !buffered.includes('\n')) {
        options.log.warn('an interposed program sent a line past 1 MiB; closing its connection');
        socket.destroy();
        return;
      }
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (trace !== undefined) {
          trace.line(line);
          continue;
        }
        if (bridge === undefined && line === 'drain') {
          barriers.shift()?.();
          socket.end();
          return;
        }
        if (bridge === undefined) {
          const hello = parseHello(line);
          if (hello === undefined || !tokensEqual(token, hello.token)) {
            options.log.warn('refused a program on the run socket: no hello with the session token');
            socket.end('no\n');
            return;
          }
          const name = `${basename(hello.argv[0] ?? 'program')} [pid ${hello.pid}]`.slice(0, 64);
          if (hello.trace) {
            const observed = observer(options.backend, name);
            trace = new TraceRecord(observed === undefined ? undefined : (call, fn) => observed.record(call, fn));
            options.onTrace?.({
              pid: hello.pid,
              argv: hello.argv,
              record: trace,
              maps: readMaps(hello.pid),
              closed,
              ...(observed === undefined ? {} : { modelPid: observed.pid }),
            });
            continue;
          }
          const opened = options.backend.openProcess(name);
          bridge = new ProgramBridge(opened, { pid: hello.pid, argv: hello.argv }, () => options.backend.state(), new RunRecord());
          socket.write(`ok ${opened.pid}\n`);
          options.onProgram({ bridge, maps: readMaps(hello.pid), closed });
          continue;
        }
        const current = bridge;
        const answer = async () => {
          const reply = await current.handle(line).catch((error: unknown) => {
            options.log.error(`interposed call failed inside the agent: ${error instanceof Error ? error.stack : String(error)}`);
            return '500000';
          });
          if (!socket.destroyed) socket.write(`${reply}\n`);
        };
        // The interposer waits for each answer, so a call nearly always finds the chain idle: it
        // then starts at once instead of a promise turn later. Order is kept either way.
        if (busy === 0) {
          busy += 1;
          chain = answer().finally(() => {
            busy -= 1;
          });
        } else {
          busy += 1;
          chain = chain.then(answer).finally(() => {
            busy -= 1;
          });
        }
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      // The calls already read finish before the process counts as ended.
      void chain.then(markClosed);
    });
  };

  const server: Server = createServer(accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return {
    socketPath,
    token,
    async drain() {
      const reached = new Promise<void>((resolve) => barriers.push(resolve));
      const client = connect(socketPath);
      client.on('error', () => {});
      client.end('drain\n');
      await reached;
      await Promise.all([...open]);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
