import { parseSize, SIMULATED_DEVICES } from '@pagelens/core';
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MAX_CONNECTIONS } from '../server/http-server.ts';
import { DEFAULT_LIMITS } from '../session/quotas.ts';
import type { ExportOptions } from './export.ts';
import type { OpenFlags } from './open.ts';
import type { StatsOptions } from './stats.ts';

export const DEFAULT_PORT = 7070;
export const DEFAULT_HOST = '127.0.0.1';

export interface ServeOptions {
  readonly backend: string;
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly allowOrigin: readonly string[];
  readonly allowHost: readonly string[];
  readonly webDir: string;
  readonly open: boolean;
  readonly quiet: boolean;
  readonly profile: string | undefined;
  readonly devices: number;
  readonly seed: number;
  readonly allowTakeover: boolean;
  readonly resumeGrace: number;
  readonly journal: string | false;
  readonly maxDeviceBytes: number;
  readonly maxPinnedBytes: number;
  readonly maxHostBytes: number;
  readonly maxConnections: number;
  readonly maxObjects: number;
  readonly maxCallsPerSec: number;
  /** --acl-lib: the ACL library (file or directory) for --backend acl. */
  readonly aclLib: string | undefined;
  readonly allowMutations: boolean;
  readonly sampleMs: number;
}

export interface DoctorOptions {
  readonly aclLib: string | undefined;
}

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`"${value}" is not valid for ${name}; use an integer from ${min} to ${max}`);
    }
    return number;
  };
}

function size(value: string): number {
  if (value === '0' || value === 'unlimited') return 0;
  const parsed = parseSize(value);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.message);
  return parsed.bytes;
}

function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`"${value}" is not an origin; write it as scheme://host[:port], e.g. http://localhost:5173`);
  }
  if (url.origin === 'null' || url.origin !== value.replace(/\/$/, '')) {
    throw new InvalidArgumentError(
      `"${value}" is not an origin; write it as scheme://host[:port] with no path, e.g. http://localhost:5173`,
    );
  }
  return url.origin;
}

function collect<T>(parse: (value: string) => T) {
  return (value: string, previous: T[]): T[] => [...previous, parse(value)];
}

/** `pagelens run`'s own flags; the agent flags come from the root command. */
export interface RunFlags {
  readonly check: boolean;
  readonly trace: boolean;
  readonly agent: string | undefined;
}

export interface Actions {
  serve(options: ServeOptions): Promise<void>;
  replay(file: string, options: { quiet: boolean }): Promise<number>;
  doctor(options: DoctorOptions): Promise<number>;
  stats(file: string, options: StatsOptions): Promise<number>;
  open(file: string, options: ServeOptions, flags: OpenFlags): Promise<number>;
  export(file: string, options: ExportOptions): Promise<number>;
  run(options: ServeOptions, flags: RunFlags, argv: readonly string[]): Promise<number>;
  flags(): Promise<number>;
}

/** The `pagelens` command line. Every flag states its default in --help. */
export function buildProgram(
  defaults: { webDir: string; journalDir: string },
  actions: Actions,
  setExitCode: (code: number) => void,
): Command {
  const program = new Command('pagelens')
    .description('PageLens agent: serves the memory explorer and performs ACL memory operations for it.')
    .showHelpAfterError('(run pagelens --help for every flag)')
    .addOption(
      new Option('--backend <name>', 'where memory operations run: the simulator or the real ACL runtime')
        .choices(['sim', 'acl'])
        .default('sim'),
    )
    .addOption(new Option('--host <address>', 'address to listen on; anything but loopback prints a warning').default(DEFAULT_HOST))
    .addOption(
      new Option('--port <number>', 'port for the web app and /ws (0 picks a free port)')
        .argParser(integer('--port', 0, 65535))
        .default(DEFAULT_PORT),
    )
    .addOption(
      new Option('--token <token>', 'access token clients must present (default: a new random 192-bit token per launch)').env(
        'PAGELENS_TOKEN',
      ),
    )
    .addOption(
      new Option('--allow-origin <origin>', 'another web origin allowed to open /ws (repeatable)')
        .argParser(collect(parseOrigin))
        .default([], 'none: only the agent’s own pages'),
    )
    .addOption(
      new Option('--allow-host <name>', 'another Host header name accepted (repeatable)')
        .argParser(collect((v: string) => v.toLowerCase()))
        .default([], 'none: localhost, 127.0.0.1 and [::1] only'),
    )
    .addOption(
      new Option(
        '--profile <name|file.json>',
        'device profile: Ascend910B2, Ascend910B4, Ascend910_9391, Ascend310P3 or a JSON file',
      ).default(undefined, 'Ascend910B2'),
    )
    .addOption(
      new Option('--devices <n>', 'simulated devices on the host')
        .argParser(integer('--devices', SIMULATED_DEVICES.min, SIMULATED_DEVICES.max))
        .default(1),
    )
    .addOption(
      new Option('--seed <n>', 'seed of the simulator’s randomness (copy jitter)').argParser(integer('--seed', 0, 0xffffffff)).default(1),
    )
    .addOption(new Option('--allow-takeover', 'let a new driver take the session from the current one').default(false))
    .addOption(
      new Option('--resume-grace <seconds>', 'how long a disconnected driver’s session waits for it')
        .argParser(integer('--resume-grace', 0, 3600))
        .default(30),
    )
    .addOption(new Option('--journal <dir>', 'directory for session journals (ndjson)').default(defaults.journalDir))
    .addOption(new Option('--no-journal', 'do not write journals'))
    .addOption(
      new Option('--max-device-bytes <size>', 'device memory one session may hold (0 = the device’s size)')
        .argParser(size)
        .default(DEFAULT_LIMITS.deviceBytes, 'unlimited'),
    )
    .addOption(
      new Option('--max-pinned-bytes <size>', 'pinned host memory one session may hold')
        .argParser(size)
        .default(DEFAULT_LIMITS.pinnedHostBytes, '16 GiB'),
    )
    .addOption(
      new Option('--max-host-bytes <size>', 'pageable host memory (malloc) one session may hold')
        .argParser(size)
        .default(DEFAULT_LIMITS.pageableHostBytes, '16 GiB'),
    )
    .addOption(
      new Option('--max-objects <n>', 'live objects (allocations, handles, buffers…) one session may hold')
        .argParser(integer('--max-objects', 0, 10_000_000))
        .default(DEFAULT_LIMITS.liveObjects),
    )
    .addOption(
      new Option('--max-calls-per-sec <n>', 'calls per second one session may make (0 = unlimited)')
        .argParser(integer('--max-calls-per-sec', 0, 10_000_000))
        .default(DEFAULT_LIMITS.callsPerSecond),
    )
    .addOption(
      new Option('--max-connections <n>', 'open WebSocket connections, drivers and viewers together; more are refused (503)')
        .argParser(integer('--max-connections', 1, 100_000))
        .default(DEFAULT_MAX_CONNECTIONS),
    )
    .addOption(
      new Option(
        '--acl-lib <path>',
        'ACL library for --backend acl: libascendcl.so / libacl_rt.so or a directory holding one (tried before $ASCEND_HOME_PATH/lib64 and the usual CANN paths)',
      ),
    )
    .addOption(
      new Option('--allow-mutations', 'with --backend acl: allow calls that allocate, free, copy or map (refused otherwise)').default(
        false,
      ),
    )
    .addOption(
      new Option('--sample-ms <n>', "with --backend acl: how often to read every device's page pools (0 = never)")
        .argParser(integer('--sample-ms', 0, 3_600_000))
        .default(1000),
    )
    .addOption(new Option('--web-dir <dir>', 'directory of the built web app').default(defaults.webDir, 'apps/web/dist'))
    .addOption(new Option('--open', 'open the URL in the default browser').default(false))
    .addOption(new Option('--quiet', 'print only the URL and warnings').default(false))
    .action(async (options: ServeOptions) => {
      await actions.serve(options);
    });

  program
    .command('replay')
    .description('re-run a journal against the simulator and report whether every result and event matches')
    .argument('<journal>', 'a .ndjson journal written by the agent')
    .option('--quiet', 'print only the verdict', false)
    .action(async (file: string, options: { quiet: boolean }) => {
      setExitCode(await actions.replay(file, options));
    });
  program
    .command('doctor')
    .description('check whether --backend acl can run here (library, symbols, version, SoC, devices, pools, kernel) and say what to fix')
    .option('--acl-lib <path>', 'the ACL library (file or directory) to check instead of searching for it')
    .action(async (options: DoctorOptions, command: Command) => {
      // --acl-lib may also have been given before the subcommand name.
      const parent = command.parent?.opts<{ aclLib?: string }>().aclLib;
      setExitCode(await actions.doctor({ aclLib: options.aclLib ?? parent }));
    });
  program
    .command('stats')
    .description(
      'summarise a memory file (torch_npu / PyTorch snapshot pickle, memscope_dump_*.csv or .db, memory_record.csv, operator_memory.csv)',
    )
    .argument('<file>', 'the file to read')
    .option(
      '--json',
      'print JSON: format, devices [{device, segments, reservedBytes, allocatedBytes, activeBytes, traceEvents, actions}], pages (modeled), host (pinned host memory, when recorded)',
      false,
    )
    .option('--profile <name>', 'device profile the modeled pages use (Ascend910B2, Ascend910B4, Ascend910_9391, Ascend310P3)')
    .option('--page-size-1g', "model torch_npu's PYTORCH_NPU_ALLOC_CONF=page_size:1g (snapshots do not record it)", false)
    .action(async (file: string, options: StatsOptions, command: Command) => {
      // --profile is also the server's flag: commander gives it to the parent wherever it stands.
      const parent = command.parent?.opts<{ profile?: string }>().profile;
      setExitCode(await actions.stats(file, { ...options, profile: options.profile ?? parent }));
    });
  program
    .command('open')
    .description('start the explorer with a memory file loaded (read-only; no simulator session); the server flags apply')
    .argument(
      '<file>',
      "a torch_npu / PyTorch memory snapshot pickle, msMemScope's memscope_dump_*.csv or .db, or the torch_npu profiler's memory_record.csv or operator_memory.csv",
    )
    .option('--page-size-1g', "model torch_npu's PYTORCH_NPU_ALLOC_CONF=page_size:1g (snapshots do not record it)", false)
    .action(async (file: string, flags: OpenFlags, command: Command) => {
      setExitCode(await actions.open(file, command.parent?.opts<ServeOptions>() ?? command.opts<ServeOptions>(), flags));
    });
  program
    .command('export')
    .description(
      'write a memory snapshot as Chrome trace-event JSON for Perfetto: counters per device, alloc and free instants with stacks',
    )
    .argument('<file>', 'a torch_npu / PyTorch memory snapshot pickle')
    .requiredOption('--perfetto <out.json>', 'the JSON file to write (- for stdout)')
    .option('--profile <name>', 'device profile the modeled page counters use (Ascend910B2, Ascend910B4, Ascend910_9391, Ascend310P3)')
    .option('--page-size-1g', "model torch_npu's PYTORCH_NPU_ALLOC_CONF=page_size:1g (snapshots do not record it)", false)
    .action(async (file: string, options: ExportOptions, command: Command) => {
      const parent = command.parent?.opts<{ profile?: string }>().profile;
      setExitCode(await actions.export(file, { ...options, profile: options.profile ?? parent }));
    });
  program
    .command('run')
    .description('run PROGRAM with PageLens’s libascendcl.so (simulation mode) and show its ACL calls live; exits with its status')
    .argument('<program...>', 'the program and its arguments, after --')
    .option('--check', 'no web server: print calls, errors, functions not modeled and leaks at exit; non-zero on failure or leak', false)
    .option(
      '--trace',
      'trace mode: preload in front of the real CANN library (found as usual, or in --acl-lib) and observe its calls',
      false,
    )
    .addOption(
      new Option('--agent <url>', 'use a running agent: its explorer URL (reached through its local program socket; see README)').env(
        'PAGELENS_AGENT',
      ),
    )
    .action(async (argv: string[], flags: RunFlags, command: Command) => {
      setExitCode(await actions.run(command.parent?.opts<ServeOptions>() ?? command.opts<ServeOptions>(), flags, argv));
    });
  program
    .command('flags')
    .description('print the compiler and linker flags for ACL code against PageLens’s headers and library: cc $(pagelens flags) app.c')
    .action(async () => {
      setExitCode(await actions.flags());
    });
  return program;
}
