/**
 * Runs tasks one after another. The runtime is driven from two threads (the main thread and the
 * native thread), and a sampler tick must never run between a call and the observation of its
 * effect, so every use of the library goes through one of these.
 */
export class SerialLock {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task, task);
    this.#tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
