import { runSimulation, type SimReply, type SimRequest } from '../../model/tlb/sim-run.ts';
import { simStore } from './sim-state.ts';

/** Without a worker, runs stay on the UI thread only up to ~100 ms of work (≥ 20 M accesses/s). */
export const MAIN_THREAD_MAX_ACCESSES = 2_000_000;

let worker: Worker | undefined;
let nextId = 1;

function finish(reply: SimReply): void {
  const run = simStore.get().run;
  if (run.kind !== 'running' || run.id !== reply.id) return;
  simStore.update({
    run: reply.ok
      ? { kind: 'done', result: reply.result, ms: reply.ms, signature: run.signature }
      : { kind: 'refused', message: reply.message },
  });
}

function ensureWorker(): Worker | undefined {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return undefined;
  try {
    const created = new Worker(new URL('../../model/tlb/sim-worker.ts', import.meta.url), { type: 'module' });
    created.addEventListener('message', (event: MessageEvent<SimReply>) => finish(event.data));
    created.addEventListener('error', (event) => {
      const run = simStore.get().run;
      created.terminate();
      if (worker === created) worker = undefined;
      if (run.kind === 'running') simStore.update({ run: { kind: 'refused', message: event.message || 'the simulator worker failed' } });
    });
    worker = created;
    return created;
  } catch {
    return undefined;
  }
}

/**
 * Runs the TLB simulator in a worker so the page stays responsive (a 16 M-access run takes most of
 * a second); the answer lands in simStore even if the view was left meanwhile.
 */
export function startRun(request: Omit<SimRequest, 'id'>, accesses: number, signature: string): void {
  const id = nextId;
  nextId += 1;
  const target = ensureWorker();
  if (target === undefined) {
    if (accesses > MAIN_THREAD_MAX_ACCESSES) {
      simStore.update({ run: { kind: 'noWorker', max: MAIN_THREAD_MAX_ACCESSES } });
      return;
    }
    simStore.update({ run: { kind: 'running', id, accesses, signature } });
    // Let the spinner paint before the (≤ ~100 ms) run.
    setTimeout(() => finish(runSimulation({ ...request, id }, () => performance.now())), 0);
    return;
  }
  simStore.update({ run: { kind: 'running', id, accesses, signature } });
  target.postMessage({ ...request, id });
}

/** Stops a run at once: the worker is dropped (a new one starts with the next run). */
export function cancelRun(): void {
  if (simStore.get().run.kind !== 'running') return;
  worker?.terminate();
  worker = undefined;
  simStore.update({ run: { kind: 'cancelled' } });
}
