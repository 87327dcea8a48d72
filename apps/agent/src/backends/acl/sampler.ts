import type { CallRunner } from './call-runner.ts';
import type { NativeThread } from './native-thread.ts';
import { poolCalls, readingFrom, sameReading } from './observe.ts';
import type { ObservedHost } from './observed-host.ts';

/**
 * Live inspection: every `intervalMs` it reads each device's pools (aclrtGetMemInfo, DM-15) on
 * the native thread and emits a poolSample when they changed, with the bytes this agent holds on
 * the device; the rest of the used memory belongs to other processes (or to the runtime itself).
 *
 * aclrtGetMemInfo reads the current device of the calling thread, so each read first makes a
 * context of that device current. Read-only agents open one context per device for this (one
 * aclrtSetDevice each, released at close); agents that allow mutations borrow the session's own
 * contexts instead, so that the session's aclrtSetDevice/aclrtResetDevice reference counts are
 * exactly what the runtime sees, and they sample only the devices the session has set.
 */
export class PoolSampler {
  readonly #runner: CallRunner;
  readonly #thread: NativeThread;
  readonly #host: ObservedHost;
  readonly #own: ReadonlyMap<number, string> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(runner: CallRunner, thread: NativeThread, host: ObservedHost, own: ReadonlyMap<number, string> | undefined) {
    this.#runner = runner;
    this.#thread = thread;
    this.#host = host;
    this.#own = own;
  }

  /** One aclrtSetDevice per device on the native thread, for a read-only agent. */
  static async openContexts(thread: NativeThread, devices: number): Promise<Map<number, string>> {
    const contexts = new Map<number, string>();
    for (let device = 0; device < devices; device += 1) {
      const reply = await thread.run(null, [
        { fn: 'aclrtSetDevice', args: { deviceId: device } },
        { fn: 'aclrtGetCurrentContext', args: {} },
      ]);
      const context = reply.outcomes[1]?.out.context;
      if (reply.outcomes[0]?.ret === 0 && typeof context === 'string') contexts.set(device, context);
    }
    return contexts;
  }

  start(intervalMs: number): void {
    this.#timer = setInterval(() => {
      this.tick().catch(() => undefined);
    }, intervalMs);
    this.#timer.unref();
  }

  /** Reads every device it has a context for; emits what changed. */
  tick(): Promise<void> {
    return this.#runner.lock.run(async () => {
      if (!this.#runner.initialized) return;
      const contexts = [...(this.#own ?? this.#runner.contexts)];
      for (const [device, context] of contexts) {
        const reply = await this.#thread.run(context, poolCalls());
        const reading = readingFrom(reply.outcomes);
        if (reading === undefined) continue;
        if (sameReading(this.#host.state.devices[device]?.lastSample?.pools, reading)) continue;
        this.#runner.emitSample(device, reading);
      }
      this.#host.flush();
    });
  }

  /** Stops sampling and gives back the contexts it opened. */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    const own = this.#own;
    if (own === undefined || own.size === 0 || !this.#runner.initialized) return;
    await this.#runner.lock.run(() =>
      this.#thread.run(
        null,
        [...own.keys()].map((deviceId) => ({ fn: 'aclrtResetDevice', args: { deviceId } })),
      ),
    );
  }
}
