import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isObject } from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import { SimBackend } from '../backends/sim/sim-backend.ts';
import type { Logger } from '../server/logger.ts';
import { newToken, tokensEqual } from '../server/token.ts';
import { IngestBudget } from './ingest-budget.ts';
import { LineReader } from './line-reader.ts';
import { ProgramBridge } from './program-bridge.ts';
import type { ExitStatus } from './program-end.ts';
import { RunRecord } from './run-record.ts';
import type { RunRegistry } from './run-registry.ts';
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
  /** The explorer's list of runs (absent under --check, which has no explorer). */
  readonly runs?: RunRegistry;
  /** The agent's session token (a fresh one when absent). */
  readonly token?: string;
  /** Where to listen, inside a private directory the caller made (a fresh one when absent): `agent-socket.ts`. */
  readonly socketPath?: string;
}

/** What a parent that ran a program elsewhere tells the agent of its end (`pagelens run --agent`). */
function parseStatus(line: string): { token: string; pid: number; status: ExitStatus } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.status !== 1 || typeof value.token !== 'string' || typeof value.pid !== 'number') return undefined;
  if (typeof value.signal === 'string') return { token: value.token, pid: value.pid, status: { signal: value.signal } };
  if (typeof value.code === 'number') return { token: value.token, pid: value.pid, status: { code: value.code } };
  return undefined;
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
  const dir = options.socketPath === undefined ? mkdtempSync(join(tmpdir(), 'pagelens-run-')) : undefined;
  if (dir !== undefined) chmodSync(dir, 0o700);
  const socketPath = options.socketPath ?? join(dir ?? '', 'agent.sock');
  if (options.socketPath !== undefined) rmSync(socketPath, { force: true });
  const token = options.token ?? newToken();
  const { runs } = options;
  const sim = options.backend instanceof SimBackend ? options.backend : undefined;
  const tagThread =
    sim === undefined
      ? undefined
      : (thread: number | undefined) => {
          sim.simHost.callThread = thread;
        };
  const sockets = new Set<Socket>();
  const open = new Set<Promise<void>>();
  const barriers: (() => void)[] = [];

  const accept = (socket: Socket) => {
    sockets.add(socket);
    const lines = new LineReader();
    // A traced program's records: read within the agent's budget for them (ingest-budget.ts).
    const budget = new IngestBudget();
    let resume: ReturnType<typeof setTimeout> | undefined;
    const throttle = (ms: number) => {
      const pause = budget.spend(ms);
      if (pause <= 0 || resume !== undefined) return;
      socket.pause();
      resume = setTimeout(() => {
        resume = undefined;
        socket.resume();
      }, pause);
    };
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
    socket.on('data', (chunk: Buffer) => {
      lines.push(chunk);
      if (lines.unendedBytes > MAX_LINE) {
        options.log.warn('an interposed program sent a line past 1 MiB; closing its connection');
        socket.destroy();
        return;
      }
      // Only the chunks of an already traced connection are charged (the hello is not).
      const charged = trace;
      const started = charged === undefined ? 0 : performance.now();
      for (let line = lines.next(); line !== undefined; line = lines.next()) {
        if (trace !== undefined) {
          trace.line(line);
          runs?.touched();
          continue;
        }
        if (bridge === undefined && line === 'drain') {
          barriers.shift()?.();
          socket.end();
          return;
        }
        if (bridge === undefined && line.startsWith('ping ')) {
          socket.end(tokensEqual(token, line.slice(5)) ? 'pong\n' : 'no\n');
          return;
        }
        const status = bridge === undefined ? parseStatus(line) : undefined;
        if (status !== undefined) {
          const run = tokensEqual(token, status.token) ? runs?.runOf(status.pid) : undefined;
          if (run !== undefined) runs?.finished(run, status.status);
          socket.end(run === undefined ? 'no\n' : 'ok\n');
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
            const record = new TraceRecord(observed === undefined ? undefined : (call, fn) => observed.record(call, fn));
            trace = record;
            if (observed !== undefined) {
              const counts = { calls: () => record.total, errors: () => record.errorCount, dropped: () => record.dropped };
              const run = runs?.add({ pid: observed.pid, osPid: hello.pid, command: hello.argv.join(' '), mode: 'traced' }, counts);
              if (run !== undefined) void closed.then(() => runs?.ended(run));
            }
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
          const record = new RunRecord();
          bridge = new ProgramBridge(opened, { pid: hello.pid, argv: hello.argv }, () => options.backend.state(), record, tagThread);
          // Simulated calls are answered one by one: none is ever dropped.
          const counts = { calls: () => record.total, errors: () => record.errors.length, dropped: () => 0 };
          const run = runs?.add({ pid: opened.pid, osPid: hello.pid, command: hello.argv.join(' '), mode: 'simulated' }, counts);
          if (run !== undefined) void closed.then(() => runs?.ended(run));
          socket.write(`ok ${opened.pid}\n`);
          options.onProgram({ bridge, maps: readMaps(hello.pid), closed });
          continue;
        }
        const current = bridge;
        const send = (reply: string) => {
          busy -= 1;
          if (!socket.destroyed) socket.write(`${reply}\n`);
          runs?.touched();
        };
        const failed = (error: unknown) => {
          options.log.error(`interposed call failed inside the agent: ${error instanceof Error ? error.stack : String(error)}`);
          send('500000');
        };
        // One promise per call: the bridge's answer, then the write. The interposer waits for each
        // answer, so a call nearly always finds the chain idle and starts at once instead of a
        // promise turn later. Order is kept either way.
        const answer = () => current.handle(line).then(send, failed);
        busy += 1;
        chain = busy === 1 ? answer() : chain.then(answer);
      }
      if (charged !== undefined) throttle(performance.now() - started);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(resume);
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
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      else rmSync(socketPath, { force: true });
    },
  };
}
