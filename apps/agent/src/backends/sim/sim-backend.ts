import { readFile } from 'node:fs/promises';
import { hostname, release } from 'node:os';
import {
  ACL_FUNCTION_NAMES,
  type AclFunctionName,
  BUILTIN_PROFILE_NAMES,
  DEFAULT_PROFILE,
  type DeviceInfo,
  type DeviceProfile,
  findProfile,
  type HostInfo,
  type HostState,
  loadProfileJson,
  type MemoryEvent,
  noteOf,
  SIMULATED_DEVICES,
  SimHost,
  SimRuntime,
  text,
} from '@pagelens/core';
import type { Backend, BackendConfig, BackendFactory, BackendProcess, ResetOptions } from '../backend.ts';

export const MAX_DEVICES = SIMULATED_DEVICES.max;

/** A built-in profile name, or a JSON file describing one (see packages/core/src/profiles). */
export async function resolveProfile(nameOrFile: string | undefined): Promise<{ profile: DeviceProfile; json?: unknown }> {
  if (nameOrFile === undefined) return { profile: DEFAULT_PROFILE };
  const builtin = findProfile(nameOrFile);
  if (builtin !== undefined) return { profile: builtin };
  if (!nameOrFile.endsWith('.json')) {
    throw new Error(`unknown profile "${nameOrFile}"; use ${BUILTIN_PROFILE_NAMES.join(', ')} or a path to a .json profile`);
  }
  const text = await readFile(nameOrFile, 'utf8').catch((error: unknown) => {
    throw new Error(`cannot read profile file ${nameOrFile}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const loaded = loadProfileJson(text, nameOrFile);
  if (!loaded.ok) throw new Error(loaded.message);
  return { profile: loaded.profile, json: JSON.parse(text) as unknown };
}

function checkDevices(devices: number): number {
  if (!Number.isInteger(devices) || devices < SIMULATED_DEVICES.min || devices > MAX_DEVICES) {
    throw new Error(`--devices ${devices} is out of range; a simulated host has ${SIMULATED_DEVICES.min} to ${MAX_DEVICES} devices`);
  }
  return devices;
}

function capabilities(profile: DeviceProfile): string[] {
  const { features } = profile;
  return (['giantPages', 'p2p', 'vmm', 'vaFlag'] as const).filter((feature) => features[feature]);
}

/** The simulator behind the agent: one simulated host, replaced on reset. */
export class SimBackend implements Backend {
  readonly name = 'sim';
  readonly functions: ReadonlySet<AclFunctionName> = new Set(ACL_FUNCTION_NAMES);
  #host: SimHost;
  #config: BackendConfig;
  #profile: DeviceProfile;
  readonly #listeners = new Set<(events: readonly MemoryEvent[]) => void>();

  constructor(profile: DeviceProfile, devices: number, seed: number, profileJson?: unknown) {
    this.#profile = profile;
    this.#config = {
      backend: 'sim',
      profile: profile.name,
      devices: checkDevices(devices),
      seed,
      ...(profileJson === undefined ? {} : { profileJson }),
    };
    this.#host = this.#createHost();
  }

  #createHost(): SimHost {
    const host = new SimHost({ devices: Array.from({ length: this.#config.devices }, () => this.#profile), seed: this.#config.seed });
    host.subscribe((events) => {
      for (const listener of this.#listeners) listener(events);
    });
    return host;
  }

  get host(): HostInfo {
    return {
      provenance: 'simulated',
      hostname: hostname(),
      kernelVersion: this.#profile.host.kernelVersion,
      hostPageSize: this.#profile.host.pageSize,
      ...noteOf([text('host-note-sim', { profile: this.#profile.label, kernel: release() })]),
    };
  }

  config(): BackendConfig {
    return this.#config;
  }

  devices(): DeviceInfo[] {
    return this.#host.state.devices.map((device) => ({
      id: device.id,
      profile: device.profile.name,
      socName: device.profile.name,
      capabilities: capabilities(device.profile),
    }));
  }

  state(): HostState {
    return this.#host.state;
  }

  subscribe(listener: (events: readonly MemoryEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  openProcess(name: string): BackendProcess {
    const runtime = new SimRuntime(this.#host, name);
    return { pid: runtime.pid, runtime };
  }

  /** The simulator host itself, for tests that inject failures. */
  get simHost(): SimHost {
    return this.#host;
  }

  /** A client may switch to another built-in profile; profile files are for the command line only (clients never name agent files). */
  async reset(options: ResetOptions): Promise<void> {
    if (options.profile !== undefined) {
      const profile = findProfile(options.profile);
      if (profile === undefined) {
        throw new Error(`unknown profile "${options.profile}"; a reset may choose ${BUILTIN_PROFILE_NAMES.join(', ')}`);
      }
      this.#profile = profile;
      const { profileJson: _previous, ...rest } = this.#config;
      this.#config = { ...rest, profile: profile.name };
    }
    this.#config = {
      ...this.#config,
      devices: checkDevices(options.devices ?? this.#config.devices),
      seed: options.seed ?? this.#config.seed,
    };
    this.#host = this.#createHost();
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

export const simBackendFactory: BackendFactory = {
  name: 'sim',
  description: 'the PageLens simulator of an Ascend host (default)',
  async create(options) {
    const { profile, json } = await resolveProfile(options.profileFile ?? options.profile);
    return new SimBackend(profile, options.devices ?? 1, options.seed ?? 1, json);
  },
};
