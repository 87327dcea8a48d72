import { startBenchAgent } from '../support/agent.ts';
import { rss } from '../support/proc.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';
import { BenchClient } from '../support/ws-driver.ts';

const VIEWERS = 500;
const ALLOCATIONS = 2000;

/**
 * A workshop's worth of viewers joining one agent: its resident memory before and after they are
 * all watching (issue 11: 500 viewers took the agent from 108 to 250–420 MiB).
 */
async function viewersRss(): Promise<{ before: number; after: number; peak: number; joinMs: number }> {
  const agent = await startBenchAgent(['--no-journal', '--max-calls-per-sec', '0', '--max-connections', String(VIEWERS + 10)]);
  const viewers: BenchClient[] = [];
  try {
    const driver = await BenchClient.connect(agent.port, agent.token, 'driver');
    await driver.call('aclInit', { configPath: null });
    await driver.call('aclrtSetDevice', { deviceId: 0 });
    for (let i = 0; i < ALLOCATIONS; i += 1) await driver.call('aclrtMalloc', { size: 4096 + i, policy: 2 });
    global.gc?.();
    const before = rss(agent.process.pid);
    const started = performance.now();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss(agent.process.pid));
    }, 20);
    // All at once, as a class opening the link together does.
    const joined = await Promise.all(
      Array.from({ length: VIEWERS }, () => BenchClient.connect(agent.port, agent.token, 'viewer', { ignoreEvents: true })),
    );
    viewers.push(...joined);
    const joinMs = performance.now() - started;
    // One more call reaches every viewer, so that each has been sent the same traffic.
    await driver.call('aclrtMalloc', { size: 4096, policy: 2 });
    const after = rss(agent.process.pid);
    clearInterval(sampler);
    driver.socket.close();
    return { before, after, peak: Math.max(peak, after), joinMs };
  } finally {
    for (const viewer of viewers) viewer.socket.terminate();
    await agent.stop();
  }
}

export const viewersSuite: BenchSuite = {
  name: 'viewers',
  async run(): Promise<BenchResult[]> {
    const { before, after, peak, joinMs } = await viewersRss();
    const mib = (bytes: number) => bytes / (1024 * 1024);
    const detail = `${VIEWERS} viewers joined at once an agent holding ${ALLOCATIONS.toLocaleString('en-US')} allocations, all of them in ${(joinMs / 1000).toFixed(1)} s (each waits for its snapshot); agent RSS ${mib(before).toFixed(0)} → peak ${mib(peak).toFixed(0)} → ${mib(after).toFixed(0)} MiB after (/proc/<pid>/status, sampled every 20 ms)`;
    return [
      { name: 'agent.rss_per_viewer', value: (after - before) / VIEWERS / 1024, unit: 'KiB', higherIsBetter: false, detail },
      { name: 'agent.rss_with_500_viewers', value: mib(after), unit: 'MiB', higherIsBetter: false, detail },
      { name: 'agent.rss_with_500_viewers.peak', value: mib(peak), unit: 'MiB', higherIsBetter: false, detail },
    ];
  },
};
