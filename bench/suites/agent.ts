import { readFileSync } from 'node:fs';
import { startBenchAgent } from '../support/agent.ts';
import { type BenchResult, type BenchSuite, quantile } from '../support/result.ts';
import { BenchClient } from '../support/ws-driver.ts';

const WINDOW = 256;

/** Resident set of a process in bytes, from /proc (Linux). */
function rss(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1024;
}

/** Keeps `WINDOW` malloc/free calls in flight until `until` returns true; resolves with the calls made. */
async function load(driver: BenchClient, until: () => boolean): Promise<number> {
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

async function setUp(driver: BenchClient): Promise<void> {
  await driver.call('aclInit', { configPath: null });
  await driver.call('aclrtSetDevice', { deviceId: 0 });
}

/** Events per second that reach one Node client during sustained, pipelined calls. */
async function eventThroughput(): Promise<{ perSecond: number; calls: number; events: number; seconds: number }> {
  const agent = await startBenchAgent(['--max-calls-per-sec', '0', '--no-journal']);
  try {
    const driver = await BenchClient.connect(agent.port, agent.token, 'driver');
    const viewer = await BenchClient.connect(agent.port, agent.token, 'viewer');
    await setUp(driver);
    const warm = Date.now() + 1000;
    await load(driver, () => Date.now() > warm);
    const before = viewer.events;
    const started = performance.now();
    const stop = Date.now() + 8000;
    const calls = await load(driver, () => Date.now() > stop);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const seconds = (performance.now() - started) / 1000;
    const events = viewer.events - before;
    driver.close();
    viewer.close();
    return { perSecond: events / seconds, calls, events, seconds };
  } finally {
    await agent.stop();
  }
}

/** Round trip of one aclrtMalloc (and its free) at a time over loopback. */
async function roundTrip(): Promise<number[]> {
  const agent = await startBenchAgent(['--no-journal']);
  try {
    const driver = await BenchClient.connect(agent.port, agent.token, 'driver');
    await setUp(driver);
    const samples: number[] = [];
    for (let i = 0; i < 3000; i += 1) {
      const started = performance.now();
      const reply = await driver.call('aclrtMalloc', { size: 4096, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
      const took = performance.now() - started;
      if (i >= 500) samples.push(took);
      const out = reply.out;
      if (out !== null && typeof out === 'object' && 'devPtr' in out && typeof out.devPtr === 'string')
        await driver.call('aclrtFree', { devPtr: out.devPtr });
    }
    driver.close();
    return samples.sort((a, b) => a - b);
  } finally {
    await agent.stop();
  }
}

/** Agent RSS over 30 s while one attached viewer never reads, and a driver keeps the events coming. */
async function slowClientRss(): Promise<{ start: number; max: number; end: number }> {
  const agent = await startBenchAgent(['--max-calls-per-sec', '0', '--no-journal']);
  try {
    const driver = await BenchClient.connect(agent.port, agent.token, 'driver');
    const stuck = await BenchClient.connect(agent.port, agent.token, 'viewer');
    stuck.socket.pause();
    await setUp(driver);
    const start = rss(agent.process.pid);
    let max = start;
    const sampler = setInterval(() => {
      max = Math.max(max, rss(agent.process.pid));
    }, 500);
    const stop = Date.now() + 30_000;
    await load(driver, () => Date.now() > stop);
    clearInterval(sampler);
    const end = rss(agent.process.pid);
    driver.close();
    stuck.socket.terminate();
    return { start, max: Math.max(max, end), end };
  } finally {
    await agent.stop();
  }
}

export const agentSuite: BenchSuite = {
  name: 'agent',
  async run(): Promise<BenchResult[]> {
    const throughput = await eventThroughput();
    const rtt = await roundTrip();
    const memory = await slowClientRss();
    const mib = (bytes: number) => bytes / (1024 * 1024);
    return [
      {
        name: 'agent.events_to_client.per_sec',
        value: throughput.perSecond,
        unit: 'events/s',
        higherIsBetter: true,
        detail: `${throughput.events.toLocaleString('en-US')} events from ${throughput.calls.toLocaleString('en-US')} pipelined aclrtMalloc/aclrtFree calls (${WINDOW} in flight) in ${throughput.seconds.toFixed(1)} s, counted at a second (viewer) client over loopback; target from DESIGN.md`,
        target: 200_000,
      },
      {
        name: 'agent.call_rtt.aclrtMalloc.p50',
        value: quantile(rtt, 0.5),
        unit: 'ms',
        higherIsBetter: false,
        detail: `${rtt.length} sequential aclrtMalloc round trips over loopback (simulator)`,
      },
      {
        name: 'agent.call_rtt.aclrtMalloc.p99',
        value: quantile(rtt, 0.99),
        unit: 'ms',
        higherIsBetter: false,
        detail: `${rtt.length} sequential aclrtMalloc round trips over loopback (simulator)`,
      },
      {
        name: 'agent.rss_with_stuck_client.max',
        value: mib(memory.max),
        unit: 'MiB',
        higherIsBetter: false,
        detail: `agent resident memory over 30 s of sustained calls with one viewer that never reads (started at ${mib(memory.start).toFixed(0)} MiB, ended at ${mib(memory.end).toFixed(0)} MiB); must stay bounded (S-7: +100 MB)`,
      },
    ];
  },
};
