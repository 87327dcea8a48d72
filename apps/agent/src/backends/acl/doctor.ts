import { release } from 'node:os';
import { ACL_FUNCTION_NAMES, errorName, formatBytes, kernelAtMost } from '@pagelens/core';
import { readPools } from './device-reads.ts';
import { DISCOVERY_ADVICE, describeAttempt, type Environment } from './discovery.ts';
import { runNative } from './native-call.ts';
import type { PoolReading } from './observe.ts';
import { initFailure, initialize, initialized, openLibrary, runtimeFacts } from './probe.ts';
import { matchProfile } from './profile-match.ts';

/*
 * `pagelens doctor`: can the acl backend run on this machine, and if not, what to fix. It runs in
 * its own process, so it may set and reset devices freely; it allocates nothing.
 */

export interface DoctorOptions {
  readonly aclLib?: string;
  readonly env: Environment;
  readonly out: (line: string) => void;
  /** The host's kernel release (HM-5); os.release() unless a test says otherwise. */
  readonly kernelRelease?: string;
}

type Level = 'ok' | 'warn' | 'fail' | 'info';

const DRIVER_DIRECTORIES = ['/usr/local/Ascend/driver/lib64/driver', '/usr/local/Ascend/driver/lib64/common'];

function pools(reading: PoolReading): string {
  const one = (name: string, figures: { free: number; total: number }): string =>
    figures.total === 0 ? `${name} none` : `${name} ${formatBytes(figures.free)} free of ${formatBytes(figures.total)}`;
  return [one('normal', reading.normal), one('huge', reading.huge), one('giant', reading.giant), one('all', reading.all)].join('; ');
}

/** Prints the report; answers the exit code: 0 when the acl backend can run, 1 when it cannot. */
export function runDoctor(options: DoctorOptions): number {
  const say = (level: Level, text: string): void => options.out(`[${level}]${' '.repeat(5 - level.length)}${text}`);
  options.out('PageLens doctor: can the acl backend run on this machine?');
  options.out('');
  const kernel = options.kernelRelease ?? release();
  const checkKernel = (): void => {
    if (kernelAtMost(kernel, 5, 10)) {
      say(
        'warn',
        `host kernel ${kernel} is 5.10 or older: registering malloc memory (aclrtHostRegister/V2) fails there; use aclrtMallocHost (HM-5)`,
      );
    } else {
      say('ok', `host kernel ${kernel} (newer than 5.10: malloc memory can be registered, HM-5)`);
    }
  };
  const ldPath = options.env.LD_LIBRARY_PATH ?? '';
  const driverOnPath = DRIVER_DIRECTORIES.every((dir) => ldPath.split(':').includes(dir));

  const opening = openLibrary(options.aclLib, options.env);
  if (!opening.ok) {
    say('fail', 'no ACL runtime library (libascendcl.so or libacl_rt.so) loaded. Tried, in order:');
    opening.attempts.forEach((attempt, index) => {
      options.out(`         ${index + 1}. ${describeAttempt(attempt)}`);
    });
    if (!driverOnPath) say('info', `LD_LIBRARY_PATH does not name the driver directories (${DRIVER_DIRECTORIES.join(', ')})`);
    checkKernel();
    options.out('');
    options.out('Result: the acl backend cannot run here. What to do:');
    for (const line of DISCOVERY_ADVICE) options.out(`  ${line}`);
    return 1;
  }
  const { facts } = opening;
  const source = facts.attempts.find((attempt) => attempt.outcome === 'loaded')?.source ?? '';
  say('ok', `library: ${facts.path} (${source})`);
  for (const attempt of facts.attempts) if (attempt.outcome === 'failed') say('warn', describeAttempt(attempt));
  if (facts.testDouble !== undefined) say('warn', `TEST DOUBLE, not Ascend hardware: ${facts.testDouble}`);

  const missing = facts.declarations.missing.filter((name) => ACL_FUNCTION_NAMES.some((fn) => fn === name));
  const total = ACL_FUNCTION_NAMES.length;
  if (missing.length === 0) say('ok', `symbols: all ${total} catalogue functions are exported`);
  else say('warn', `symbols: ${total - missing.length} of ${total} catalogue functions; turned off (missing): ${missing.join(', ')}`);
  const noContext = ['aclrtGetCurrentContext', 'aclrtSetCurrentContext'].filter((name) =>
    facts.declarations.missing.some((m) => m === name),
  );
  if (noContext.length > 0)
    say('warn', `${noContext.join(' and ')} missing: blocking calls will run on the main thread, and sampling is off`);

  const init = initialize(facts.declarations);
  if (!initialized(init)) {
    say('fail', `aclInit: ${errorName(init.ret)} (${init.ret})${init.errMsg === undefined ? '' : `: ${init.errMsg}`}`);
    checkKernel();
    options.out('');
    options.out('Result: the acl backend cannot run here.');
    for (const line of initFailure(init, facts.path).split('\n').slice(1)) options.out(line);
    return 1;
  }
  say('ok', 'aclInit');
  const runtime = runtimeFacts(facts.declarations);
  say(
    runtime.version === undefined ? 'info' : 'ok',
    runtime.version === undefined
      ? 'ACL version: aclrtGetVersion is not exported'
      : `ACL API version ${runtime.version} (aclrtGetVersion; not the CANN version)`,
  );
  const match = matchProfile(runtime.socName);
  say(
    match.note === undefined ? 'ok' : 'warn',
    `SoC ${runtime.socName ?? '(aclrtGetSocName returned NULL)'} → profile ${match.profile.name}${match.note === undefined ? '' : `: ${match.note}`}`,
  );
  let canRun = true;
  if (runtime.deviceCount === undefined || runtime.deviceCount === 0) {
    const failure = runtime.deviceCountFailure;
    say(
      'fail',
      failure === undefined
        ? 'devices: none'
        : `aclrtGetDeviceCount: ${errorName(failure.ret)}${failure.errMsg === undefined ? '' : `: ${failure.errMsg}`}`,
    );
    canRun = false;
  } else {
    say('ok', `devices: ${runtime.deviceCount}`);
    for (let device = 0; device < runtime.deviceCount; device += 1) {
      const set = runNative(facts.declarations, 'aclrtSetDevice', { deviceId: device });
      if (set.ret !== 0) {
        say('warn', `device ${device}: aclrtSetDevice answered ${errorName(set.ret)}${set.errMsg === undefined ? '' : `: ${set.errMsg}`}`);
        continue;
      }
      const reading = readPools(facts.declarations);
      say(
        reading === undefined ? 'warn' : 'ok',
        `device ${device} pools: ${reading === undefined ? 'aclrtGetMemInfo did not answer' : pools(reading)}`,
      );
      runNative(facts.declarations, 'aclrtResetDevice', { deviceId: device });
    }
  }
  checkKernel();
  if (!driverOnPath && facts.testDouble === undefined) {
    say(
      'info',
      `LD_LIBRARY_PATH does not name ${DRIVER_DIRECTORIES.join(' and ')}; fine if the library loaded, but set it before node if calls fail`,
    );
  }
  runNative(facts.declarations, 'aclFinalize', {});
  options.out('');
  if (!canRun) {
    options.out('Result: the acl backend cannot run here: the runtime started but reports no usable device (check `npu-smi info`).');
    return 1;
  }
  options.out(
    facts.testDouble === undefined
      ? 'Result: the acl backend can run here: pagelens --backend acl (add --allow-mutations to allocate)'
      : 'Result: the acl backend can run against this TEST DOUBLE (no hardware): pagelens --backend acl --acl-lib <it> --allow-mutations',
  );
  return 0;
}
