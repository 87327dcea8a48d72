import { afterEach } from 'vitest';
import { type Harness, type HarnessOptions, startHarness, TOKEN } from './agent-harness.ts';
import { TestClient } from './ws-client.ts';

/** A VMM prop for 2 MiB huge-page physical memory on device 0 (VM-3), as a wire client writes it. */
export const HUGE_PROP = { handleType: 0, allocationType: 0, memAttr: 'ACL_HBM_MEM_HUGE', location: { type: 1, id: 0 }, reserve: 0 };

/**
 * A test file's agent: each test starts one with `start`; after each test it is closed with every
 * client `connect` opened on it.
 */
export function agentPerTest() {
  let current: Harness | undefined;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await current?.close();
    current = undefined;
  });
  const harness = (): Harness => {
    if (current === undefined) throw new Error('no harness: call start() first');
    return current;
  };
  return {
    async start(options: HarnessOptions = {}): Promise<Harness> {
      current = await startHarness(options);
      return current;
    },
    harness,
    async connect(): Promise<TestClient> {
      const client = await TestClient.connect(harness().port, TOKEN);
      clients.push(client);
      return client;
    },
  };
}
