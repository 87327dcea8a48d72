/**
 * The driver of the agent throughput benchmark, run in a process of its own (forked by
 * suites/agent.ts with the agent's port and token, the warm-up and the measured seconds).
 *
 * Sending 100,000 calls a second and reading their results costs a client about as much CPU as
 * the agent spends on them; in the process of the client whose receive rate is measured, that
 * cost would be counted against the agent. Here it runs apart, as lean as a load generator
 * should be: calls of one turn leave in one write and event batches are not parsed.
 *
 * Tells the parent over IPC: {type: 'started'} when the measured load begins, and
 * {type: 'done', calls} when its last call has been answered.
 */
import { load, setUp } from './agent-load.ts';
import { BenchClient } from './ws-driver.ts';

export type LoadDriverMessage = { readonly type: 'started' } | { readonly type: 'done'; readonly calls: number };

function tell(message: LoadDriverMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.send === undefined) {
      reject(new Error('load-driver.ts runs as a forked child process'));
      return;
    }
    process.send(message, (error: Error | null) => (error === null ? resolve() : reject(error)));
  });
}

async function main(): Promise<void> {
  const [port, token, warmMs, runMs] = process.argv.slice(2);
  if (port === undefined || token === undefined || warmMs === undefined || runMs === undefined) {
    throw new Error('usage: load-driver.ts <port> <token> <warm-up ms> <measured ms>');
  }
  const driver = await BenchClient.connect(Number(port), token, 'driver', { ignoreEvents: true, batchWrites: true });
  await setUp(driver);
  const warm = Date.now() + Number(warmMs);
  await load(driver, () => Date.now() > warm);
  await tell({ type: 'started' });
  const stop = Date.now() + Number(runMs);
  const calls = await load(driver, () => Date.now() > stop);
  await tell({ type: 'done', calls });
  driver.close();
  process.disconnect();
}

main().catch((error: unknown) => {
  process.stderr.write(`load driver: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
