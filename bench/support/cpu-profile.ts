import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CdpSession } from './renderer-memory.ts';

/**
 * A V8 CPU profile of the page's main thread over part of a run (CDP Profiler), for finding where a
 * missed target's time goes: written as a .cpuprofile (open it in Chromium's DevTools) and summarised
 * as the functions with the most self time. Only when PAGELENS_BENCH_CPU_PROFILE names a directory.
 */
export function profileDir(): string | undefined {
  const dir = process.env.PAGELENS_BENCH_CPU_PROFILE;
  return dir === undefined || dir === '' ? undefined : dir;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
}

export async function startProfile(cdp: CdpSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
}

/** Stops, writes `<dir>/<name>.cpuprofile` and returns the top self-time lines (ms, function, place). */
export async function stopProfile(cdp: CdpSession, dir: string, name: string, top = 15): Promise<string[]> {
  const reply = await cdp.send('Profiler.stop');
  const profile: unknown = Reflect.get(Object(reply), 'profile');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  const nodes: unknown = Reflect.get(Object(profile), 'nodes');
  const samples: unknown = Reflect.get(Object(profile), 'samples');
  const deltas: unknown = Reflect.get(Object(profile), 'timeDeltas');
  if (!Array.isArray(nodes) || !Array.isArray(samples) || !Array.isArray(deltas)) throw new Error('Profiler.stop returned no profile');
  const byId = new Map<number, ProfileNode>(nodes.map((node: ProfileNode) => [node.id, node]));
  const self = new Map<string, number>();
  // A sample's time is the delta to the next sample (µs).
  for (let i = 0; i < samples.length - 1; i += 1) {
    const frame = byId.get(Number(samples[i]))?.callFrame;
    if (frame === undefined) continue;
    const file = frame.url.split('/').pop() ?? '';
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + Number(deltas[i + 1]) / 1000);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${key}`);
}
