import type { AclFunctionName, AclRuntime, DeviceInfo, HostInfo, HostState, MemoryEvent } from '@pagelens/core';

/** One process on the backend's host, through which a session makes its calls. */
export interface BackendProcess {
  readonly pid: number;
  readonly runtime: AclRuntime;
}

export interface ResetOptions {
  readonly profile?: string;
  readonly devices?: number;
  readonly seed?: number;
}

/** What a journal needs to rebuild the same host. */
export interface BackendConfig {
  readonly backend: string;
  readonly profile: string;
  /** The profile itself when it came from a file, so a replay does not need the file. */
  readonly profileJson?: unknown;
  readonly devices: number;
  readonly seed: number;
}

/**
 * The seam between sessions and whatever performs memory operations: the simulator, or the ACL
 * runtime through koffi. Sessions see only this; each backend registers by name.
 */
export interface Backend {
  readonly name: string;
  readonly host: HostInfo;
  readonly functions: ReadonlySet<AclFunctionName>;
  config(): BackendConfig;
  devices(): DeviceInfo[];
  /** The replicated state, reduced from the same events the subscribers get. */
  state(): HostState;
  subscribe(listener: (events: readonly MemoryEvent[]) => void): () => void;
  openProcess(name: string): BackendProcess;
  /** Replaces the host with a fresh one (the sessions have torn down first). */
  reset(options: ResetOptions): Promise<void>;
  close(): Promise<void>;
}

export interface BackendFactory {
  readonly name: string;
  readonly description: string;
  create(options: ResetOptions & { readonly profileFile?: string }): Promise<Backend>;
}

/** Backends by name, built explicitly at start-up. */
export class BackendRegistry {
  readonly #factories = new Map<string, BackendFactory>();

  register(factory: BackendFactory): this {
    this.#factories.set(factory.name, factory);
    return this;
  }

  get(name: string): BackendFactory | undefined {
    return this.#factories.get(name);
  }

  names(): string[] {
    return [...this.#factories.keys()];
  }
}
