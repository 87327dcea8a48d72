import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { Backend, BackendRegistry } from '../backends/backend.ts';
import { noJournal } from '../journal/entries.ts';
import { openFileJournal } from '../journal/file-journal.ts';
import { agentSocketPath } from '../run/agent-socket.ts';
import { endProgram } from '../run/program-end.ts';
import { RunRegistry } from '../run/run-registry.ts';
import { type ProgramSession, type RunServer, startRunServer, type TraceSession } from '../run/run-server.ts';
import { startAgentServer } from '../server/http-server.ts';
import { consoleLogger, type Logger, redacting } from '../server/logger.ts';
import { newToken } from '../server/token.ts';
import { Hub } from '../session/hub.ts';
import type { ServeOptions } from './program.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** The host as a URL names it: a wildcard bind is opened on loopback, IPv6 in brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`could not start ${command}; open the URL yourself\n`));
  child.unref();
}

/** A started agent: its backend, the URL to open, and how to stop it (sessions torn down first). */
export interface StartedAgent {
  readonly backend: Backend;
  readonly url: string;
  readonly log: Logger;
  /** The local channel for `pagelens run` programs (the simulator only: on the acl backend a program's calls would reach the real devices). */
  readonly runServer: RunServer | undefined;
  readonly runs: RunRegistry;
  stop(): Promise<void>;
}

/** What the agent does with the programs that come to its socket; `pagelens run` brings its own (it knows their exit status). */
export interface ProgramHandlers {
  readonly onProgram: (session: ProgramSession) => void;
  readonly onTrace?: (session: TraceSession) => void;
}

/** A program someone else started (`pagelens run --agent`): reclaimed when its connection closes (LT-3). */
function servedPrograms(backend: Backend, log: Logger): ProgramHandlers {
  return {
    onProgram: (session) => void session.closed.then(() => endProgram(session, backend, undefined, log)),
    onTrace: (session) =>
      void session.closed.then(() =>
        log.info(
          `traced process ${session.pid} ended: ${session.record.total} calls observed, ${session.record.dropped ?? 'unknown'} dropped`,
        ),
      ),
  };
}

/** The program socket; an agent that cannot make it serves the explorer all the same (and says why). */
async function openProgramSocket(
  backend: Backend,
  log: Logger,
  runs: RunRegistry,
  token: string,
  port: number,
  programs: ProgramHandlers | undefined,
): Promise<RunServer | undefined> {
  try {
    return await startRunServer({
      backend,
      log,
      runs,
      token,
      socketPath: agentSocketPath(port),
      ...(programs ?? servedPrograms(backend, log)),
    });
  } catch (error) {
    if (programs !== undefined) throw error;
    log.warn(`no program socket, so pagelens run --agent cannot use this agent: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Starts the agent (backend, hub, HTTP + WebSocket server, the program socket) and prints the URL. */
export async function startAgent(options: ServeOptions, registry: BackendRegistry, programs?: ProgramHandlers): Promise<StartedAgent> {
  const token = options.token ?? newToken();
  const log = redacting(consoleLogger(options.quiet), [token]);
  const factory = registry.get(options.backend);
  if (factory === undefined) throw new Error(`unknown backend "${options.backend}"; available: ${registry.names().join(', ')}`);
  const backend = await factory.create({
    ...(options.profile === undefined ? {} : { profileFile: options.profile }),
    devices: options.devices,
    seed: options.seed,
  });
  if (backend.name === 'acl' && (options.profile !== undefined || options.devices !== 1)) {
    log.warn('--profile and --devices describe a simulated host; the acl backend uses the real devices and ignores them');
  }
  if (!LOOPBACK.has(options.host)) {
    log.warn(
      `listening on ${options.host}, not loopback: anyone who can reach this address and has the token can drive the agent. Prefer an SSH tunnel to 127.0.0.1.`,
    );
  }
  const allowedHosts = new Set(options.allowHost);
  if (!LOOPBACK.has(options.host) && options.host !== '0.0.0.0' && options.host !== '::') allowedHosts.add(options.host);
  const journal = options.journal === false ? noJournal : openFileJournal(resolve(options.journal), log);
  const runs = new RunRegistry();
  const hub = new Hub({
    backend,
    journal,
    log,
    limits: {
      deviceBytes: options.maxDeviceBytes,
      pinnedHostBytes: options.maxPinnedBytes,
      pageableHostBytes: options.maxHostBytes,
      liveObjects: options.maxObjects,
      callsPerSecond: options.maxCallsPerSec,
    },
    allowTakeover: options.allowTakeover,
    resumeGraceMs: options.resumeGrace * 1000,
    greeting: () => (runs.message().runs.length === 0 ? [] : [runs.message()]),
    onReset: () => runs.hostReset(),
  });
  runs.onChange((message) => hub.broadcast(message));
  const server = await startAgentServer({
    host: options.host,
    port: options.port,
    webDir: resolve(options.webDir),
    policy: { token, allowedHosts, allowedOrigins: new Set(options.allowOrigin) },
    log,
    maxConnections: options.maxConnections,
    accept: (socket, remote) => hub.connect(socket, remote),
  });

  const url = `http://${urlHost(options.host)}:${server.port}/?token=${token}`;
  const runServer = backend.name === 'sim' ? await openProgramSocket(backend, log, runs, token, server.port, programs) : undefined;
  const where =
    backend.name === 'sim'
      ? `the simulator (${backend.config().profile} × ${backend.config().devices})`
      : `the ACL runtime (${backend.config().devices} device${backend.config().devices === 1 ? '' : 's'})`;
  process.stdout.write(`PageLens is running on ${where}.\nOpen: ${url}\n`);
  if (backend.name !== 'sim' && backend.host.note !== undefined) log.warn(backend.host.note);
  if (journal.path !== undefined) log.info(`journal: ${journal.path}`);
  if (runServer !== undefined && programs === undefined) process.stdout.write(`Programs: pagelens run --agent '${url}' -- PROGRAM\n`);
  if (options.open) openInBrowser(url);
  const stop = () =>
    Promise.resolve(runServer?.close())
      .then(() => runs.close())
      .then(() => hub.shutdown())
      .then(() => server.close())
      .then(() => backend.close())
      .catch((error: unknown) => log.error(`shutdown: ${error instanceof Error ? error.message : String(error)}`));
  return { backend, url, log, runServer, runs, stop };
}

/** Resolves at the first SIGINT or SIGTERM. */
export function untilSignal(log: Logger): Promise<void> {
  return new Promise<void>((done) => {
    const stop = (signal: NodeJS.Signals): void => {
      log.info(`${signal}: tearing down sessions and shutting down`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Starts the agent and resolves once it has shut down after SIGINT or SIGTERM. */
export async function serve(options: ServeOptions, registry: BackendRegistry): Promise<void> {
  const agent = await startAgent(options, registry);
  await untilSignal(agent.log);
  await agent.stop();
}
