import { ACL_ERROR_REPEAT_INITIALIZE, errorName } from '@pagelens/core';
import { type Declarations, declareAll, type KoffiLibrary } from './declarations.ts';
import { type Attempt, discoverLibrary, type Environment, loadLibc } from './discovery.ts';
import { type NativeOutcome, runNative } from './native-call.ts';

/** Shared by the backend and `pagelens doctor`: find the library, declare it, start ACL and ask what it runs on. */

export interface LibraryFacts {
  readonly path: string;
  readonly attempts: readonly Attempt[];
  readonly library: KoffiLibrary;
  readonly libc: KoffiLibrary;
  readonly declarations: Declarations;
  /** What aclDoubleIdentify says when the library is PageLens's C test double (never present in CANN). */
  readonly testDouble?: string;
}

export type LibraryOpening =
  | { readonly ok: true; readonly facts: LibraryFacts }
  | { readonly ok: false; readonly attempts: readonly Attempt[]; readonly report: string };

function identify(library: KoffiLibrary): string | undefined {
  try {
    const text: unknown = library.func('aclDoubleIdentify', 'const char *', [])();
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

export function openLibrary(aclLib: string | undefined, env: Environment): LibraryOpening {
  const discovery = discoverLibrary(aclLib, env);
  if (!discovery.ok) return discovery;
  const libc = loadLibc();
  const declarations = declareAll(discovery.library, libc);
  const testDouble = identify(discovery.library);
  return {
    ok: true,
    facts: {
      path: discovery.path,
      attempts: discovery.attempts,
      library: discovery.library,
      libc,
      declarations,
      ...(testDouble === undefined ? {} : { testDouble }),
    },
  };
}

/** aclInit(NULL); a repeat (100002) is harmless (LT-1). */
export function initialize(declarations: Declarations): NativeOutcome {
  return runNative(declarations, 'aclInit', { configPath: null });
}

export function initialized(outcome: NativeOutcome): boolean {
  return outcome.ret === 0 || outcome.ret === ACL_ERROR_REPEAT_INITIALIZE;
}

export function initFailure(outcome: NativeOutcome, path: string): string {
  return [
    `aclInit failed with ${errorName(outcome.ret)} (${outcome.ret})${outcome.errMsg === undefined ? '' : `: ${outcome.errMsg}`}.`,
    `The library ${path} loaded, but the ACL runtime did not start. Check that:`,
    '  - the NPU driver is installed and `npu-smi info` lists the devices;',
    '  - the driver libraries (/usr/local/Ascend/driver/lib64/driver and /common) were on LD_LIBRARY_PATH when node started;',
    '  - this user may open /dev/davinci* (the HwHiAiUser group);',
    '  - or run `pagelens doctor` for a full report, or `pagelens --backend sim` to use the simulator.',
  ].join('\n');
}

export interface RuntimeFacts {
  readonly deviceCount: number | undefined;
  readonly deviceCountFailure?: NativeOutcome;
  readonly socName: string | null;
  /** aclrtGetVersion: the ACL API version (e.g. 1.17.0), not the CANN version. */
  readonly version?: string;
}

export function runtimeFacts(declarations: Declarations): RuntimeFacts {
  const count = runNative(declarations, 'aclrtGetDeviceCount', {});
  const soc = runNative(declarations, 'aclrtGetSocName', {});
  const version = runNative(declarations, 'aclrtGetVersion', {});
  const { major, minor, patch } = version.out;
  const socName = typeof soc.out.socName === 'string' ? soc.out.socName : null;
  const deviceCount = count.ret === 0 && typeof count.out.count === 'number' ? count.out.count : undefined;
  return {
    deviceCount,
    ...(deviceCount === undefined ? { deviceCountFailure: count } : {}),
    socName,
    ...(version.ret === 0 && version.refused === undefined ? { version: `${major}.${minor}.${patch}` } : {}),
  };
}

/** The host kernel's page size (sysconf(_SC_PAGESIZE); 30 on Linux): the normal page size of DM-11. */
export function hostPageSize(libc: KoffiLibrary): number {
  try {
    const value: unknown = libc.func('sysconf', 'long', ['int'])(30);
    return typeof value === 'number' && value > 0 ? value : 4096;
  } catch {
    return 4096;
  }
}
