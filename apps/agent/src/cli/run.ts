import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Backend, BackendRegistry } from '../backends/backend.ts';
import { parseAgentUrl, probeAgent, reportStatus } from '../run/agent-socket.ts';
import { checkExitCode, formatSummary, formatTraceSummary } from '../run/check-summary.ts';
import { buildNative, compileFlags, type NativeBuild, NoCompilerError } from '../run/native/build.ts';
import { describeStatus, type ExitStatus, endProgram, type ProgramEnd } from '../run/program-end.ts';
import { type ProgramSession, startRunServer, type TraceSession } from '../run/run-server.ts';
import { consoleLogger, type Logger } from '../server/logger.ts';
import type { RunFlags, ServeOptions } from './program.ts';
import { startAgent } from './serve.ts';

/*
 * `pagelens run [--check] [--trace] [--agent URL] -- PROGRAM [ARGS…]`: builds the interposer (once
 * per source), starts an agent (or uses the running one --agent names), runs PROGRAM with
 * LD_LIBRARY_PATH in front of PageLens's libascendcl.so (or the trace library preloaded), and exits
 * with PROGRAM's status. Without --check or --agent the agent keeps serving the explorer until Ctrl-C.
 */

const SIGNALS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGABRT: 6,
  SIGBUS: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGTERM: 15,
};

function exitCodeOf(status: ExitStatus): number {
  return status.signal !== undefined ? 128 + (SIGNALS[status.signal] ?? 1) : status.code;
}

export async function runFlags(out: (text: string) => void, err: (text: string) => void): Promise<number> {
  try {
    out(`${compileFlags(buildNative())}\n`);
    return 0;
  } catch (error) {
    err(`pagelens flags: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof NoCompilerError ? 127 : 1;
  }
}

/** Simulation mode: the interposer first on the library path. Trace mode: preloaded, the real library found as usual (or in --acl-lib). */
function programEnv(native: NativeBuild, trace: boolean, aclLib: string | undefined): NodeJS.ProcessEnv {
  const path = (parts: readonly (string | undefined)[]) => parts.filter((part) => part !== undefined && part !== '').join(':');
  if (!trace) return { LD_LIBRARY_PATH: path([native.lib, process.env.LD_LIBRARY_PATH]) };
  const libDir = aclLib === undefined ? undefined : existsSync(aclLib) && statSync(aclLib).isDirectory() ? aclLib : dirname(aclLib);
  return { LD_PRELOAD: path([native.traceLibrary, process.env.LD_PRELOAD]), LD_LIBRARY_PATH: path([libDir, process.env.LD_LIBRARY_PATH]) };
}

/** How the run's agent side is set up: a local one (checked or serving) or a running one (--agent). */
interface AgentSide {
  readonly socketPath: string;
  readonly token: string;
  /** After the program exited: every call it made is answered and its end handled. */
  settle(status: ExitStatus, childPid: number): Promise<void>;
  /** Until Ctrl-C when serving; at once otherwise. */
  readonly serves: boolean;
  close(): Promise<void>;
}

/** A program and what the agent made of it, for --check's summary. */
interface Outcomes {
  readonly ends: Promise<ProgramEnd>[];
  readonly traces: Promise<{ session: TraceSession; status: ExitStatus | undefined }>[];
}

/** The handlers of a local agent: its own child's end carries the child's exit status. */
function handlers(
  backend: Backend,
  log: Logger,
  childExit: () => { pid: number; exit: Promise<ExitStatus> },
  outcomes: Outcomes,
  quiet: boolean,
) {
  const statusOf = (pid: number) => (pid === childExit().pid ? childExit().exit : Promise.resolve(undefined));
  return {
    onTrace: (session: TraceSession) => {
      log.info(`traced process: ${session.argv.join(' ')} (pid ${session.pid}); its calls go to the real library and are observed`);
      outcomes.traces.push(
        session.closed.then(async () => {
          const status = await statusOf(session.pid);
          log.info(
            `traced process ${session.pid} ${describeStatus(status)}: ${session.record.total} calls observed, ${session.record.dropped ?? 'unknown'} dropped`,
          );
          return { session, status };
        }),
      );
    },
    onProgram: (session: ProgramSession) => {
      if (!quiet)
        log.info(`process ${session.bridge.process.pid}: ${session.bridge.info.argv.join(' ')} (pid ${session.bridge.info.pid}) connected`);
      // The program's own process has its exit status; a process it forked is known by its closed connection.
      outcomes.ends.push(session.closed.then(async () => endProgram(session, backend, await statusOf(session.bridge.info.pid), log)));
    },
  };
}

async function localAgent(
  options: ServeOptions,
  flags: RunFlags,
  registry: BackendRegistry,
  childExit: () => { pid: number; exit: Promise<ExitStatus> },
  outcomes: Outcomes,
): Promise<AgentSide> {
  const log = consoleLogger(options.quiet);
  if (flags.check) {
    const factory = registry.get('sim');
    if (factory === undefined) throw new Error('the sim backend is not registered');
    const backend = await factory.create({
      ...(options.profile === undefined ? {} : { profileFile: options.profile }),
      devices: options.devices,
      seed: options.seed,
    });
    const server = await startRunServer({ backend, log, ...handlers(backend, log, childExit, outcomes, options.quiet) });
    return {
      socketPath: server.socketPath,
      token: server.token,
      serves: false,
      settle: () => server.drain(),
      close: async () => {
        await server.close();
        await backend.close();
      },
    };
  }
  let backendOf: () => Backend = () => {
    throw new Error('the agent is not started yet');
  };
  const agent = await startAgent(options, registry, {
    onProgram: (session) => handlers(backendOf(), log, childExit, outcomes, options.quiet).onProgram(session),
    onTrace: (session) => handlers(backendOf(), log, childExit, outcomes, options.quiet).onTrace(session),
  });
  backendOf = () => agent.backend;
  const server = agent.runServer;
  if (server === undefined) throw new Error('the agent opened no program socket');
  return {
    socketPath: server.socketPath,
    token: server.token,
    serves: true,
    settle: async (status, pid) => {
      await server.drain();
      const run = agent.runs.runOf(pid);
      if (run !== undefined) agent.runs.finished(run, status);
    },
    close: () => agent.stop(),
  };
}

/** --agent URL: a running agent's program socket; it reclaims and shows the program, this command reports its exit status. */
async function remoteAgent(url: string): Promise<AgentSide> {
  const target = parseAgentUrl(url);
  await probeAgent(target);
  return {
    socketPath: target.socketPath,
    token: target.token,
    serves: false,
    settle: (status, pid) => reportStatus(target, pid, status.signal !== undefined ? { signal: status.signal } : { code: status.code }),
    close: async () => {},
  };
}

export async function runProgram(
  options: ServeOptions,
  flags: RunFlags,
  argv: readonly string[],
  registry: BackendRegistry,
): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('pagelens run needs a program: pagelens run [--check] -- PROGRAM [ARGS…]');
  if (flags.agent !== undefined && flags.check)
    throw new Error('--check prints its summary from an agent of its own: leave out --agent (or $PAGELENS_AGENT) to check a program');
  if (options.backend !== 'sim') throw new Error('pagelens run simulates the device: --backend acl does not apply (trace mode would)');
  let native: ReturnType<typeof buildNative>;
  try {
    native = buildNative();
  } catch (error) {
    process.stderr.write(`pagelens run: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof NoCompilerError ? 127 : 1;
  }

  const outcomes: Outcomes = { ends: [], traces: [] };
  let childPid = -1;
  let resolveChild: (status: ExitStatus) => void = () => {};
  const childExit = new Promise<ExitStatus>((resolve) => {
    resolveChild = resolve;
  });
  let side: AgentSide;
  try {
    side =
      flags.agent !== undefined
        ? await remoteAgent(flags.agent)
        : await localAgent(options, flags, registry, () => ({ pid: childPid, exit: childExit }), outcomes);
  } catch (error) {
    process.stderr.write(`pagelens run: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (flags.agent !== undefined) process.stdout.write(`pagelens run: ${command} reports to the agent at ${flags.agent}\n`);

  const child = spawn(command, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...programEnv(native, flags.trace, options.aclLib),
      PAGELENS_SOCKET: side.socketPath,
      PAGELENS_TOKEN: side.token,
    },
  });
  childPid = child.pid ?? -1;
  // One handler for the whole run: while the program runs a signal goes on to it; after, it stops the agent.
  let running = true;
  let stopRequested: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stopRequested = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (running) child.kill(signal);
    else stopRequested();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  child.on('exit', (code, signal) => {
    running = false;
    resolveChild(signal !== null ? { signal } : { code: code ?? 1 });
  });
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', (error) => {
      process.stderr.write(`pagelens run: cannot start ${command}: ${error.message}\n`);
      resolve(false);
    });
  });
  if (!spawned) running = false;
  const status: ExitStatus = spawned ? await childExit : { code: 127 };
  await side.settle(status, childPid);
  const finished = await Promise.all(outcomes.ends);
  const traced = await Promise.all(outcomes.traces);
  const programCode = exitCodeOf(status);

  if (!side.serves || !spawned) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (flags.check) {
      for (const end of finished) process.stdout.write(`${formatSummary(end).join('\n')}\n`);
      for (const { session, status } of traced) process.stdout.write(`${formatTraceSummary(session, status).join('\n')}\n`);
      if (finished.length + traced.length === 0) process.stdout.write(`pagelens --check: ${argv.join(' ')} made no ACL calls\n`);
    }
    await side.close();
    return flags.check ? checkExitCode(programCode, finished) : programCode;
  }
  consoleLogger(options.quiet).info(
    `${command} ${status.signal !== undefined ? `was killed by ${status.signal}` : `exited with code ${status.code}`}; the explorer keeps serving until Ctrl-C`,
  );
  await stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await side.close();
  return programCode;
}
