import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimHost, SimRuntime } from '@pagelens/core';
import { type BenchResult, type BenchSuite, quantile } from '../support/result.ts';

/*
 * `pagelens run` (simulation mode): the round trip of one interposed ACL call from a C program
 * through the Unix socket to the simulator and back, measured in the program, beside the same call
 * made directly on the simulator in this process (no socket) and a local C call (the clock's cost).
 */

const BIN = fileURLToPath(new URL('../../apps/agent/bin/pagelens.mjs', import.meta.url));
const SOURCE = fileURLToPath(new URL('../native/run-roundtrip.c', import.meta.url));
const THROUGHPUT = fileURLToPath(new URL('../native/trace-throughput.c', import.meta.url));
/** Calls per thread and phase in the 4-thread trace run: enough for phases long against the CPU clock's 10 ms ticks. */
const THREAD_CALLS = 2_500_000;
const CALLS = 20_000;
/** Each measurement is repeated this many times, side by side, and the median reported: on a shared machine one run can land in a busy second. */
const ROUNDS = 3;
const DOUBLE = fileURLToPath(new URL('../../apps/agent/test/acl-double/', import.meta.url));

/** The C test double of the ACL ABI (apps/agent/test/acl-double), standing in for CANN: no Ascend host here. */
function buildDouble(dir: string): string {
  const sources = readdirSync(DOUBLE)
    .filter((name) => name.startsWith('double_') && name.endsWith('.c'))
    .map((name) => join(DOUBLE, name));
  const lib = join(dir, 'double');
  mkdirSync(lib, { recursive: true });
  execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', join(lib, 'libascendcl.so'), ...sources, '-lpthread'], { stdio: 'pipe' });
  return lib;
}

function parse(stdout: string, name: string): { p50: number; p99: number } {
  const match = new RegExp(`^${name} p50_ns=(\\d+) p99_ns=(\\d+)$`, 'm').exec(stdout);
  if (match === null) throw new Error(`no ${name} line in the bench program's output:\n${stdout}`);
  return { p50: Number(match[1]) / 1000, p99: Number(match[2]) / 1000 };
}

async function directSimCall(): Promise<number[]> {
  const runtime = new SimRuntime(new SimHost(), 'bench');
  await runtime.aclrtSetDevice({ deviceId: 0 });
  for (let i = 0; i < 1000; i += 1) await runtime.aclrtGetDevice({});
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    await runtime.aclrtGetDevice({});
    samples.push((performance.now() - started) * 1000);
  }
  return samples.sort((a, b) => a - b);
}

/** A plain echo server in this process: what any Node agent's socket round trip costs at least. */
async function echoFloor(program: string, dir: string, lib: string): Promise<{ p50: number; p99: number }> {
  const path = join(dir, 'echo.sock');
  const server = createServer((socket) => socket.on('data', () => socket.write('0 0\n')));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  // The program is linked against the interposer; this run makes no ACL call through it.
  const child = spawn(program, [String(CALLS), path], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LD_LIBRARY_PATH: lib },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (code !== 0) throw new Error(`the echo floor run failed (${code})`);
  return parse(stdout, 'echo');
}

function number(stdout: string, pattern: RegExp, what: string): number {
  const match = pattern.exec(stdout);
  if (match === null) throw new Error(`no ${what} in the trace bench's output:\n${stdout}`);
  return Number(match[1]);
}

interface PhaseCpu {
  readonly workers: number;
  readonly others: number;
  readonly agent: number;
}

/** A measured phase's CPU seconds as trace-throughput.c prints them. */
function phaseCpu(stdout: string, phase: 'direct' | 'traced'): PhaseCpu {
  const match = new RegExp(`^cpu ${phase} workers=(\\S+) others=(\\S+) agent=(\\S+)$`, 'm').exec(stdout);
  if (match === null) throw new Error(`no ${phase} CPU line in the trace bench's output:\n${stdout}`);
  return { workers: Number(match[1]), others: Number(match[2]), agent: Number(match[3]) };
}

/** The 1-minute load average, for the details: on a shared 2-core machine it moves every figure. */
function load(): string {
  return `load average ${loadavg()[0]?.toFixed(2) ?? '?'} on ${availableParallelism()} cores`;
}

/**
 * Trace mode under load: 4 threads calling as fast as they can, straight into the real library and
 * then through the interposer (same run); and whether every record reached the agent or was
 * counted as dropped.
 */
function traceThroughput(flags: readonly string[], dir: string, doubleDir: string): BenchResult[] {
  const program = join(dir, 'trace-throughput');
  execFileSync('cc', ['-O2', ...flags, THROUGHPUT, '-o', program, '-lpthread'], { stdio: 'pipe' });
  const run = spawnSync(
    process.execPath,
    [BIN, 'run', '--trace', '--check', '--quiet', '--acl-lib', doubleDir, '--', program, String(THREAD_CALLS)],
    { encoding: 'utf8', env: { ...process.env, ACL_DOUBLE_LOG: '' }, maxBuffer: 1 << 24 },
  );
  if (run.status !== 0) throw new Error(`the trace throughput program failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  const direct = number(run.stdout, /^direct seconds=\S+ calls_per_s=(\d+)$/m, 'direct rate');
  const traced = number(run.stdout, /^traced seconds=\S+ calls_per_s=(\d+)$/m, 'traced rate');
  const intercepted = number(run.stdout, /^intercepted calls=(\d+)$/m, 'intercepted count');
  const observed = number(run.stdout, /^ACL calls observed: (\d+)/m, 'observed count');
  const dropped = number(run.stdout, /^Dropped records: (\d+)$/m, 'dropped count');
  const cpuDirect = phaseCpu(run.stdout, 'direct');
  const cpuTraced = phaseCpu(run.stdout, 'traced');
  const phaseCalls = 4 * THREAD_CALLS;
  const tracedSeconds = phaseCalls / traced;
  const setting = `4 threads × ${THREAD_CALLS.toLocaleString('en-US')} aclrtGetDevice calls per phase after one warm-up of each; the real library is the C test double (no Ascend host here; with no log it formats nothing, its state lock stays) on a shared machine, ${load()}, the agent on the same cores; the run with the median slowdown of ${ROUNDS}`;
  const cpu = (phase: PhaseCpu) =>
    `workers ${phase.workers.toFixed(3)} s, reporter and rest of the program ${phase.others.toFixed(3)} s, agent ${phase.agent.toFixed(3)} s`;
  return [
    {
      name: 'run.trace.threads4.direct_calls_per_s',
      value: direct,
      unit: 'calls/s',
      higherIsBetter: true,
      detail: `the program calling the real library's own function (dlsym in libascendcl.so), nothing intercepted: what the program makes without PageLens; ${setting}`,
      target: 1_000_000,
    },
    {
      name: 'run.trace.threads4.slowdown',
      value: (direct / traced - 1) * 100,
      unit: '%',
      higherIsBetter: false,
      detail: `wall time through the interposer over wall time direct, minus 1 (traced ${traced.toLocaleString('en-US')} calls/s, direct ${direct.toLocaleString('en-US')} calls/s, same run); CPU seconds direct: ${cpu(cpuDirect)}; traced: ${cpu(cpuTraced)}; ${setting}`,
      target: 10,
    },
    {
      name: 'run.trace.threads4.added_cpu_per_call',
      value: ((cpuTraced.workers - cpuDirect.workers) / phaseCalls) * 1e9,
      unit: 'ns',
      higherIsBetter: false,
      detail: `the calling threads' CPU (getrusage per thread) traced minus direct, over the ${phaseCalls.toLocaleString('en-US')} calls of a phase: what the interposer costs the program's own threads, free of the wall clock's share of other load (10 ms CPU ticks); ${setting}`,
    },
    {
      name: 'run.trace.threads4.agent_cpu_share',
      value: cpuTraced.agent < 0 ? -1 : (cpuTraced.agent / tracedSeconds) * 100,
      unit: '% core',
      higherIsBetter: false,
      detail: `the agent's CPU (/proc of the program's parent, the agent under pagelens run) during the traced phase over its wall time: capped near 10 % of a core by the agent's ingest budget (apps/agent/src/run/ingest-budget.ts); ${setting}`,
    },
    {
      name: 'run.trace.threads4.unaccounted',
      value: intercepted - observed - dropped,
      unit: 'records',
      higherIsBetter: false,
      detail: `intercepted calls (${intercepted.toLocaleString('en-US')}, counted by the program) minus records the agent observed (${observed.toLocaleString('en-US')}) and records counted as dropped (${dropped.toLocaleString('en-US')}): 0 when every event reached the agent or was counted`,
      target: 0,
    },
    {
      name: 'run.trace.threads4.dropped_share',
      value: (dropped / intercepted) * 100,
      unit: '%',
      higherIsBetter: false,
      detail: `records counted as dropped because the 65,536-record ring was full: the agent reads a traced program's records within 10 % of a core (each costs it a few µs), so a flood like this one is thinned, not observed in full; ${setting}`,
    },
  ];
}

export const runSuite: BenchSuite = {
  name: 'run',
  async run(): Promise<BenchResult[]> {
    const flags = execFileSync(process.execPath, [BIN, 'flags'], { encoding: 'utf8' }).trim().split(/\s+/);
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-bench-run-'));
    const program = join(dir, 'roundtrip');
    execFileSync('cc', ['-O2', ...flags, SOURCE, '-o', program], { stdio: 'pipe' });
    const lib = flags.find((flag) => flag.startsWith('-L'))?.slice(2) ?? '';
    // The agent's round trip and the echo floor, alternated round by round.
    const rounds: { interposed: { p50: number; p99: number }; local: { p50: number; p99: number }; floor: { p50: number; p99: number } }[] =
      [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const run = spawnSync(process.execPath, [BIN, 'run', '--check', '--quiet', '--', program, String(CALLS)], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`the bench program failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
      rounds.push({
        interposed: parse(run.stdout, 'interposed'),
        local: parse(run.stdout, 'local'),
        floor: await echoFloor(program, dir, lib),
      });
    }
    const middle = <T>(items: readonly T[], key: (item: T) => number): T => {
      const sorted = [...items].sort((a, b) => key(a) - key(b));
      const picked = sorted[Math.floor(sorted.length / 2)];
      if (picked === undefined) throw new Error('no rounds were measured');
      return picked;
    };
    const interposed = middle(rounds, (r) => r.interposed.p50).interposed;
    const floor = middle(rounds, (r) => r.floor.p50).floor;
    const local = middle(rounds, (r) => r.local.p50).local;
    const each = (pick: (r: (typeof rounds)[number]) => number) => rounds.map((r) => pick(r).toFixed(2)).join(', ');
    const direct = await directSimCall();
    const doubleDir = buildDouble(dir);
    const traceRun = spawnSync(
      process.execPath,
      [BIN, 'run', '--trace', '--check', '--quiet', '--acl-lib', doubleDir, '--', program, String(CALLS), 'trace'],
      { encoding: 'utf8', env: { ...process.env, ACL_DOUBLE_LOG: '' } },
    );
    if (traceRun.status !== 0)
      throw new Error(`the trace bench program failed (${traceRun.status}):\n${traceRun.stdout}\n${traceRun.stderr}`);
    const traced = parse(traceRun.stdout, 'traced');
    const plain = parse(traceRun.stdout, 'direct');
    const slowdownOf = (results: readonly BenchResult[]) => results.find((r) => r.name === 'run.trace.threads4.slowdown')?.value ?? 0;
    const traceRounds = Array.from({ length: ROUNDS }, () => traceThroughput(flags, dir, doubleDir));
    const slowdowns = traceRounds.map((results) => slowdownOf(results).toFixed(1)).join(', ');
    const throughput = middle(traceRounds, slowdownOf).map((r) =>
      r.name === 'run.trace.threads4.slowdown' ? { ...r, detail: `${r.detail} (slowdowns of the ${ROUNDS} runs: ${slowdowns} %)` } : r,
    );
    const detail = `${CALLS} aclrtGetDevice calls from a C program under pagelens run --check, timed in the program (CLOCK_MONOTONIC) after 1000 warm-up calls; the median of ${ROUNDS} runs alternated with the echo floor's (p50s ${each((r) => r.interposed.p50)} µs); ${load()}`;
    return [
      { name: 'run.roundtrip.p50', value: interposed.p50, unit: 'µs', higherIsBetter: false, detail, target: 20 },
      { name: 'run.roundtrip.p99', value: interposed.p99, unit: 'µs', higherIsBetter: false, detail },
      {
        name: 'run.direct_sim_call.p50',
        value: quantile(direct, 0.5),
        unit: 'µs',
        higherIsBetter: false,
        detail: `the same call on SimRuntime in the bench process, no socket (${CALLS} calls), measured in the same run`,
      },
      {
        name: 'run.echo_floor.p50',
        value: floor.p50,
        unit: 'µs',
        higherIsBetter: false,
        detail: `the same program’s write and read (polled for up to 30 µs, then blocking, as the interposer reads) against a plain Node echo server on a Unix socket, in the same run: the transport alone; the median of ${ROUNDS} rounds (p50s ${each((r) => r.floor.p50)} µs); ${load()}`,
      },
      {
        name: 'run.trace.added_cost.p50',
        value: traced.p50 - plain.p50,
        unit: 'µs',
        higherIsBetter: false,
        detail: `trace mode: p50 of an intercepted aclrtGetDevice (${traced.p50} µs) minus p50 of the same function called directly in the same run (${plain.p50} µs), ${CALLS} calls each; the real library is the C test double (no Ascend host here)`,
        target: 1,
      },
      {
        name: 'run.local_c_call.p50',
        value: local.p50,
        unit: 'µs',
        higherIsBetter: false,
        detail: 'a no-op C function in the same program, timed the same way (the clock’s cost)',
      },
      ...throughput,
    ];
  },
};
