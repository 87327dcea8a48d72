import { readdirSync, readFileSync } from 'node:fs';
import { rssParts } from './proc.ts';

/**
 * Memory of Chromium's renderers while a page works, sampled every ~250 ms from two places:
 * - the resident set (RSS) of every renderer process under this Node process (Chromium is
 *   Playwright's child here; renderers are its descendants with --type=renderer), summed, from
 *   /proc — it holds the page's JS heaps (workers' too), DOM, canvases and Blink's own memory;
 *   pages shared between renderers count once per process;
 * - the page's main-thread JS heap in use (CDP Performance.getMetrics, JSHeapUsedSize); a worker's
 *   heap is not in it. The renderer answers CDP on its main thread, so a long task delays a sample.
 */

/** The CDP calls the sampler makes. */
export interface CdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  detach(): Promise<void>;
}

export interface MemoryPeaks {
  readonly rendererRss: number;
  readonly jsHeapUsed: number;
  readonly rssSamples: number;
  readonly heapSamples: number;
  /** The longest wait between two heap samples, ms (long tasks on the page's main thread). */
  readonly longestHeapGapMs: number;
  readonly renderers: number;
  /** When the RSS peak was sampled, ms after sampling began; and the last RSS sample, bytes. */
  readonly rssPeakAtMs: number;
  readonly lastRss: number;
  /** The first sample (before the work began), bytes. */
  readonly firstRss: number;
  /** At the RSS peak: each renderer's RSS, and the summed anonymous part (heaps, malloc; not mapped files or shared memory). */
  readonly peakByProcess: readonly number[];
  readonly peakAnon: number;
}

const INTERVAL_MS = 250;

/** Parent pid of every process on the machine, from /proc/<pid>/stat. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name is parenthesised and may hold spaces; ppid is the second field after it.
      const after = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ');
      map.set(Number(name), Number(after?.[1]));
    } catch {
      // The process ended between listing and reading: it is no renderer of ours.
    }
  }
  return map;
}

/** Chromium renderer processes descending from `root`. */
export function rendererPids(root: number): number[] {
  const map = parents();
  const ours = (pid: number): boolean => {
    for (let at = map.get(pid); at !== undefined && at > 1; at = map.get(at)) if (at === root) return true;
    return false;
  };
  return [...map.keys()].filter((pid) => {
    if (!ours(pid)) return false;
    try {
      // Zygote-forked processes rewrite their title: arguments separated by spaces, not NULs.
      return /(?:^|[\s\0])--type=renderer(?:[\s\0]|$)/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
}

function rendererRss(root: number): { bytes: number; count: number; byProcess: number[]; anon: number } {
  let bytes = 0;
  let anon = 0;
  const byProcess: number[] = [];
  const pids = rendererPids(root);
  for (const pid of pids) {
    try {
      const parts = rssParts(pid);
      bytes += parts.rss;
      anon += parts.anon;
      byProcess.push(parts.rss);
    } catch {
      // A renderer that just exited holds nothing.
    }
  }
  return { bytes, count: pids.length, byProcess, anon };
}

function jsHeapUsed(reply: unknown): number {
  const metrics: unknown = Reflect.get(Object(reply), 'metrics');
  if (!Array.isArray(metrics)) throw new Error('Performance.getMetrics returned no metrics');
  const found: unknown = metrics.find((metric: unknown) => Reflect.get(Object(metric), 'name') === 'JSHeapUsedSize');
  const value: unknown = Reflect.get(Object(found), 'value');
  if (typeof value !== 'number') throw new Error('Performance.getMetrics has no JSHeapUsedSize');
  return value;
}

/** Samples until `stop()`, which returns the peaks. */
export async function sampleMemory(cdp: CdpSession): Promise<{ stop(): Promise<MemoryPeaks> }> {
  await cdp.send('Performance.enable');
  let rendererPeak = 0;
  let renderers = 0;
  let rssSamples = 0;
  let peakAt = 0;
  let lastRss = 0;
  let peakByProcess: number[] = [];
  let peakAnon = 0;
  const first = rendererRss(process.pid).bytes;
  const began = performance.now();
  const timer = setInterval(() => {
    const { bytes, count, byProcess, anon } = rendererRss(process.pid);
    if (bytes > rendererPeak) {
      peakAt = performance.now() - began;
      peakByProcess = byProcess;
      peakAnon = anon;
    }
    rendererPeak = Math.max(rendererPeak, bytes);
    lastRss = bytes;
    renderers = Math.max(renderers, count);
    rssSamples += 1;
  }, INTERVAL_MS);
  let running = true;
  let heapPeak = 0;
  let heapSamples = 0;
  let longestGap = 0;
  const heapLoop = (async () => {
    let last = performance.now();
    while (running) {
      const started = performance.now();
      heapPeak = Math.max(heapPeak, jsHeapUsed(await cdp.send('Performance.getMetrics')));
      heapSamples += 1;
      longestGap = Math.max(longestGap, performance.now() - last);
      last = performance.now();
      const wait = INTERVAL_MS - (last - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    async stop() {
      running = false;
      clearInterval(timer);
      await heapLoop;
      return {
        rendererRss: rendererPeak,
        jsHeapUsed: heapPeak,
        rssSamples,
        heapSamples,
        longestHeapGapMs: longestGap,
        renderers,
        rssPeakAtMs: peakAt,
        lastRss,
        firstRss: first,
        peakByProcess,
        peakAnon,
      };
    },
  };
}
