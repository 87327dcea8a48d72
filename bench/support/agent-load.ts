import type { BenchClient } from './ws-driver.ts';

/** aclrtMalloc/aclrtFree calls the load keeps in flight. */
export const WINDOW = 256;

export async function setUp(driver: BenchClient): Promise<void> {
  await driver.call('aclInit', { configPath: null });
  await driver.call('aclrtSetDevice', { deviceId: 0 });
}

/** Keeps `WINDOW` malloc/free calls in flight until `until` returns true; resolves with the calls made. */
export async function load(driver: BenchClient, until: () => boolean): Promise<number> {
  let calls = 0;
  const live: string[] = [];
  const worker = async (): Promise<void> => {
    while (!until()) {
      if (live.length > 2000 || (live.length > 0 && calls % 2 === 1)) {
        const devPtr = live.pop() ?? '0x0';
        await driver.call('aclrtFree', { devPtr });
      } else {
        const reply = await driver.call('aclrtMalloc', { size: 4096 + (calls % 64) * 4096, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
        const out = reply.out;
        if (out !== null && typeof out === 'object' && 'devPtr' in out && typeof out.devPtr === 'string') live.push(out.devPtr);
      }
      calls += 1;
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, worker));
  return calls;
}
