import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BackendRegistry } from '../backends/backend.ts';
import { checkExitCode, formatSummary, formatTraceSummary } from '../run/check-summary.ts';
import { buildNative, compileFlags, type NativeBuild, NoCompilerError } from '../run/native/build.ts';
import { describeStatus, type ExitStatus, endProgram, type ProgramEnd } from '../run/program-end.ts';
import { type ProgramSession, startRunServer, type TraceSession } from '../run/run-server.ts';
import { consoleLogger } from '../server/logger.ts';
import type { RunFlags, ServeOptions } from './program.ts';
import { startAgent } from './serve.ts';

/*
 * `pagelens run [--check] -- PROGRAM [ARGS…]`: builds the interposer (once per source), starts an
 * agent, runs PROGRAM with LD_LIBRARY_PATH in front of PageLens's libascendcl.so, and exits with
 * PROGRAM's status. Without --check the agent keeps serving the explorer until Ctrl-C.
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

export async function runProgram(
  options: ServeOptions,
  flags: RunFlags,
  argv: readonly string[],
  registry: BackendRegistry,
): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('pagelens run needs a program: pagelens run [--check] -- PROGRAM [ARGS…]');
  if (flags.agent !== undefined)
    throw new Error(
      '--agent / $PAGELENS_AGENT (reporting to an agent already running) is not available in this build; pagelens run starts its own',
    );
  if (options.backend !== 'sim') throw new Error('pagelens run simulates the device: --backend acl does not apply (trace mode would)');
  let native: ReturnType<typeof buildNative>;
  try {
    native = buildNative();
  } catch (error) {
    process.stderr.write(`pagelens run: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof NoCompilerError ? 127 : 1;
  }

  let stopAgent: () => Promise<void>;
  let backend: Awaited<ReturnType<typeof startAgent>>['backend'];
  const log = consoleLogger(options.quiet);
  if (flags.check) {
    const factory = registry.get('sim');
    if (factory === undefined) throw new Error('the sim backend is not registered');
    backend = await factory.create({
      ...(options.profile === undefined ? {} : { profileFile: options.profile }),
      devices: options.devices,
      seed: options.seed,
    });
    stopAgent = () => backend.close();
  } else {
    const agent = await startAgent(options, registry);
    backend = agent.backend;
    stopAgent = agent.stop;
  }

  const ends: Promise<ProgramEnd>[] = [];
  const traces: Promise<{ session: TraceSession; status: ExitStatus | undefined }>[] = [];
  let childPid = -1;
  let resolveChild: (status: ExitStatus) => void = () => {};
  const childExit = new Promise<ExitStatus>((resolve) => {
    resolveChild = resolve;
  });
  const server = await startRunServer({
    backend,
    log,
    onTrace: (session: TraceSession) => {
      log.info(`traced process: ${session.argv.join(' ')} (pid ${session.pid}); its calls go to the real library and are observed`);
      traces.push(
        session.closed.then(async () => {
          const status = session.pid === childPid ? await childExit : undefined;
          log.info(
            `traced process ${session.pid} ${describeStatus(status)}: ${session.record.calls.length} calls observed, ${session.record.dropped ?? 'unknown'} dropped`,
          );
          return { session, status };
        }),
      );
    },
    onProgram: (session: ProgramSession) => {
      if (!options.quiet)
        log.info(`process ${session.bridge.process.pid}: ${session.bridge.info.argv.join(' ')} (pid ${session.bridge.info.pid}) connected`);
      ends.push(
        session.closed.then(async () => {
          // The program's own process has its exit status; a process it forked is known by its closed connection.
          const status = session.bridge.info.pid === childPid ? await childExit : undefined;
          return endProgram(session, backend, status, log);
        }),
      );
    },
  });

  const child = spawn(command, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...programEnv(native, flags.trace, options.aclLib),
      PAGELENS_SOCKET: server.socketPath,
      PAGELENS_TOKEN: server.token,
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
  await server.drain();
  const finished = await Promise.all(ends);
  const traced = await Promise.all(traces);
  const programCode = exitCodeOf(status);

  if (flags.check || !spawned) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const end of finished) process.stdout.write(`${formatSummary(end).join('\n')}\n`);
    for (const { session, status } of traced) process.stdout.write(`${formatTraceSummary(session, status).join('\n')}\n`);
    if (finished.length + traced.length === 0) process.stdout.write(`pagelens --check: ${argv.join(' ')} made no ACL calls\n`);
    await server.close();
    await stopAgent();
    return checkExitCode(programCode, finished);
  }
  log.info(
    `${command} ${status.signal !== undefined ? `was killed by ${status.signal}` : `exited with code ${status.code}`}; the explorer keeps serving until Ctrl-C`,
  );
  await stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await server.close();
  await stopAgent();
  return programCode;
}
