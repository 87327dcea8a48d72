import { hostname, release } from 'node:os';
import {
  ACL_FUNCTION_NAMES,
  type AclFunctionName,
  type DeviceInfo,
  type DeviceProfile,
  errorName,
  type HostInfo,
  type HostState,
  type MemoryEvent,
  noteOf,
  type Text,
  text,
} from '@pagelens/core';
import type { Backend, BackendConfig, BackendProcess, ResetOptions } from '../backend.ts';
import { AclFfiRuntime } from './acl-runtime.ts';
import { CallRunner } from './call-runner.ts';
import type { Environment } from './discovery.ts';
import { runNative } from './native-call.ts';
import { NativeThread } from './native-thread.ts';
import { ObservedHost } from './observed-host.ts';
import { hostPageSize, initFailure, initialize, initialized, type LibraryFacts, openLibrary, runtimeFacts } from './probe.ts';
import { matchProfile } from './profile-match.ts';
import { PoolSampler } from './sampler.ts';

export interface AclBackendOptions {
  /** --acl-lib: a library file or a directory holding one. */
  readonly aclLib?: string;
  /** --allow-mutations: without it every call that changes state is refused (S-9). */
  readonly allowMutations: boolean;
  /** --sample-ms: pool sampling period; 0 turns the sampler off. */
  readonly sampleMs: number;
  readonly env: Environment;
}

/** The simulator's limit, kept here too: the protocol carries at most 16 devices. */
const MAX_DEVICES = 16;
const VMM_SYMBOLS: readonly AclFunctionName[] = ['aclrtMallocPhysical', 'aclrtReserveMemAddress', 'aclrtMapMem', 'aclrtUnmapMem'];

interface Opened {
  readonly facts: LibraryFacts;
  readonly socName: string;
  readonly version: string | undefined;
  readonly profile: DeviceProfile;
  readonly notes: readonly Text[];
  readonly deviceCount: number;
  readonly thread: NativeThread | undefined;
  readonly options: AclBackendOptions;
}

/**
 * The real ACL runtime behind the agent, through koffi. Built against the documented ABI
 * (reference/acl-api.md) and tested against a C double of it, never on Ascend hardware.
 */
export class AclBackend implements Backend {
  readonly name = 'acl';
  readonly functions: ReadonlySet<AclFunctionName>;
  readonly #opened: Opened;
  readonly #host: ObservedHost;
  readonly #runner: CallRunner;
  readonly #sampler: PoolSampler | undefined;
  readonly #pageSize: number;
  #nextPid = 1;

  private constructor(opened: Opened, host: ObservedHost, sampler: (runner: CallRunner) => PoolSampler | undefined) {
    this.#opened = opened;
    this.#host = host;
    this.#pageSize = hostPageSize(opened.facts.libc);
    this.#runner = new CallRunner({
      declarations: opened.facts.declarations,
      thread: opened.thread,
      host,
      allowMutations: opened.options.allowMutations,
      hostPageSize: this.#pageSize,
      profileOf: () => opened.profile,
    });
    this.#sampler = sampler(this.#runner);
    this.functions = new Set(ACL_FUNCTION_NAMES.filter((fn) => this.#runner.callable(fn)));
  }

  /** Finds and starts the runtime; throws an Error whose message says what to do when it cannot. */
  static async open(options: AclBackendOptions): Promise<AclBackend> {
    const opening = openLibrary(options.aclLib, options.env);
    if (!opening.ok) throw new Error(opening.report);
    const { facts } = opening;
    const init = initialize(facts.declarations);
    if (!initialized(init)) throw new Error(initFailure(init, facts.path));
    const runtime = runtimeFacts(facts.declarations);
    if (runtime.deviceCount === undefined || runtime.deviceCount === 0) {
      const failure = runtime.deviceCountFailure;
      runNative(facts.declarations, 'aclFinalize', {});
      throw new Error(
        failure === undefined
          ? `the ACL runtime at ${facts.path} reports no devices; check \`npu-smi info\` and the driver`
          : `aclrtGetDeviceCount failed with ${errorName(failure.ret)}${failure.errMsg === undefined ? '' : `: ${failure.errMsg}`}`,
      );
    }
    const match = matchProfile(runtime.socName);
    const notes: Text[] = [];
    if (runtime.deviceCount > MAX_DEVICES) notes.push(text('host-note-devices-capped', { found: runtime.deviceCount, shown: MAX_DEVICES }));
    if (match.noteCode !== undefined) notes.push(match.noteCode);
    const contextCalls =
      facts.declarations.functions.has('aclrtGetCurrentContext') && facts.declarations.functions.has('aclrtSetCurrentContext');
    let thread: NativeThread | undefined;
    if (!contextCalls) notes.push(text('host-note-no-context-calls'));
    else {
      try {
        thread = await NativeThread.start(facts.path);
      } catch (error) {
        notes.push(text('host-note-no-thread', { error: error instanceof Error ? error.message : String(error) }));
      }
    }
    const opened: Opened = {
      facts,
      socName: runtime.socName ?? 'unknown',
      version: runtime.version,
      profile: match.profile,
      notes,
      deviceCount: Math.min(runtime.deviceCount, MAX_DEVICES),
      thread,
      options,
    };
    const host = new ObservedHost(Array.from({ length: opened.deviceCount }, () => match.profile));
    const own =
      thread !== undefined && options.sampleMs > 0 && !options.allowMutations
        ? await PoolSampler.openContexts(thread, opened.deviceCount)
        : undefined;
    const backend = new AclBackend(opened, host, (runner) =>
      thread !== undefined && options.sampleMs > 0 ? new PoolSampler(runner, thread, host, own) : undefined,
    );
    await backend.#sampler?.tick();
    backend.#sampler?.start(options.sampleMs);
    return backend;
  }

  get host(): HostInfo {
    const { facts, version, socName, notes, options } = this.#opened;
    const source =
      facts.testDouble !== undefined
        ? text('host-note-test-double', { path: facts.path, double: facts.testDouble })
        : version === undefined
          ? text('host-note-runtime', { path: facts.path, soc: socName })
          : text('host-note-runtime-version', { path: facts.path, version, soc: socName });
    const parts = [source, ...notes, text('host-note-no-frames'), ...(options.allowMutations ? [] : [text('host-note-read-only')])];
    return { provenance: 'observed', hostname: hostname(), kernelVersion: release(), hostPageSize: this.#pageSize, ...noteOf(parts) };
  }

  config(): BackendConfig {
    return { backend: 'acl', profile: this.#opened.profile.name, devices: this.#opened.deviceCount, seed: 0 };
  }

  devices(): DeviceInfo[] {
    const { profile, socName, facts } = this.#opened;
    const has = (fn: AclFunctionName): boolean => facts.declarations.functions.has(fn);
    const capabilities = [
      ...(profile.features.giantPages ? ['giantPages'] : []),
      ...(profile.features.p2p && has('aclrtDeviceEnablePeerAccess') ? ['p2p'] : []),
      ...(profile.features.vmm && VMM_SYMBOLS.every(has) ? ['vmm'] : []),
      ...(profile.features.vaFlag && has('aclrtMallocHostWithCfg') ? ['vaFlag'] : []),
    ];
    return this.#host.state.devices.map((device) => ({ id: device.id, profile: profile.name, socName, capabilities }));
  }

  state(): HostState {
    return this.#host.state;
  }

  subscribe(listener: (events: readonly MemoryEvent[]) => void): () => void {
    return this.#host.subscribe(listener);
  }

  /** A session's process. On hardware there is one OS process, the agent: each session gets its own pid in the model. */
  openProcess(name: string): BackendProcess {
    const pid = this.#nextPid++;
    this.#host.emit({ kind: 'process', pid, name: `${name} (agent pid ${process.pid})`.slice(0, 64) });
    this.#host.flush();
    return { pid, runtime: new AclFfiRuntime(pid, this.#runner) };
  }

  /** The hub tears the session down first; the devices themselves cannot be swapped for others. */
  async reset(options: ResetOptions): Promise<void> {
    if (options.profile !== undefined || options.devices !== undefined || options.seed !== undefined) {
      throw new Error('the acl backend runs on the real devices: only the simulator can change the profile, the device count or the seed');
    }
  }

  /** Stops sampling, finalizes ACL (LT-1: once, at exit) and stops the native thread. */
  async close(): Promise<void> {
    await this.#sampler?.stop();
    await this.#runner.lock.run(async () => {
      if (this.#runner.initialized) runNative(this.#opened.facts.declarations, 'aclFinalize', {});
      this.#runner.initialized = false;
    });
    await this.#opened.thread?.close();
  }
}
