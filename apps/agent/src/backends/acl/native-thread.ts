import { Worker } from 'node:worker_threads';
import type { NativeOutcome } from './native-call.ts';
import { isNativeReply, type NativeCall, type NativeReply } from './native-protocol.ts';

/**
 * One dedicated OS thread (a Node worker) that runs the calls which may block: the event loop
 * keeps turning while it waits (F1). Calls run one at a time, in order. Each request names the
 * aclrtContext to make current first, because ACL contexts are per thread (V14) and this thread
 * must act in the session's context, not in whatever it used last.
 */
export class NativeThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (reply: NativeReply) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #failure: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: unknown) => {
      if (!isNativeReply(message)) return;
      const waiter = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.failure !== undefined) waiter?.reject(new Error(`the native thread failed: ${message.failure}`));
      else waiter?.resolve(message);
    });
    const fail = (error: Error): void => {
      this.#failure = error;
      for (const waiter of this.#pending.values()) waiter.reject(error);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the native thread exited (code ${code})`)));
  }

  /** Starts the thread and waits until it has loaded the library at `libraryPath`. */
  static start(libraryPath: string): Promise<NativeThread> {
    const worker = new Worker(new URL('./native-thread.mjs', import.meta.url), { workerData: libraryPath });
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(new Error(`the native thread could not start: ${error.message}`));
      worker.once('error', onError);
      worker.once('message', () => {
        worker.off('error', onError);
        // The thread must not keep the agent alive on its own: the backend closes it explicitly.
        worker.unref();
        resolve(new NativeThread(worker));
      });
    });
  }

  /** Runs `calls` in order on the thread, after making `context` current there. */
  run(context: string | null, calls: readonly NativeCall[]): Promise<NativeReply> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, context, calls });
    });
  }

  /** One call; a context failure comes back as that call's outcome. */
  async call(context: string | null, call: NativeCall): Promise<NativeOutcome> {
    const reply = await this.run(context, [call]);
    const outcome = reply.contextFailure ?? reply.outcomes[0];
    if (outcome === undefined) throw new Error(`the native thread answered nothing for ${call.fn}`);
    return outcome;
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}
