import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';

/** Real snapshots from public repositories (fixtures/public/PROVENANCE.md), with figures CPython summed (sum_public.py). */
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./fixtures/public/${name}`, import.meta.url)));
interface Expected {
  readonly keys: readonly string[];
  readonly devices: readonly {
    device: number;
    segments: number;
    reservedBytes: number;
    allocatedBytes: number;
    activeBytes: number;
    traceEvents: number;
    actions: Record<string, number>;
    hugePages: number;
    addresses: string[];
    blockStates: Record<string, number>;
    allocFrames: number;
  }[];
}
const EXPECTED: Record<string, Expected> = JSON.parse(new TextDecoder().decode(fixture('expected.json')));

describe.each(Object.keys(EXPECTED))('%s (a real job, published)', (name) => {
  const result = openMemoryFile(fixture(name), name);
  const want = EXPECTED[name];
  if (want === undefined) throw new Error(`no figures for ${name}`);

  it('opens, and stats equal the sums CPython computed', () => {
    if (!result.ok || result.file.kind !== 'snapshot') throw new Error(result.ok ? result.file.kind : result.message);
    expect(result.file.format).toBe('pytorch_cuda');
    const stats = snapshotStats(result.file, { profile: ASCEND_910B2, pageSize1g: false });
    expect(stats.devices).toHaveLength(want.devices.length);
    for (const [i, device] of stats.devices.entries()) {
      const wanted = want.devices[i];
      if (wanted === undefined) throw new Error(`no figures for device ${i}`);
      const { hugePages, addresses, actions, blockStates, allocFrames, ...figures } = wanted;
      expect(device).toMatchObject(figures);
      expect(Object.fromEntries(Object.entries(device.actions).filter(([, n]) => n > 0))).toEqual(actions);
      expect(stats.pages.devices[i]?.byClass.huge.pages).toBe(hugePages);
      const mine = result.file.segments.filter((s) => s.device === device.device);
      expect(mine.map((s) => s.address.toString())).toEqual(addresses);
      const states: Record<string, number> = {};
      for (const block of mine.flatMap((s) => s.blocks)) states[block.state] = (states[block.state] ?? 0) + 1;
      expect(states).toEqual(blockStates);
      const trace = Array.from(result.file.deviceTraces[device.device] ?? []);
      expect(trace.filter((e) => e.action === 'alloc').reduce((sum, e) => sum + e.frames.length, 0)).toBe(allocFrames);
    }
  });

  it('becomes a recorded session whose trace replays onto its segments', () => {
    if (!result.ok || result.file.kind !== 'snapshot') throw new Error(result.ok ? result.file.kind : result.message);
    const session = importSnapshot(result.file, { profile: ASCEND_910B2, pageSize1g: false, name });
    expect(session.inconsistent).toBe(0);
    expect(session.finalMismatch).toBe(0);
    const allocs = want.devices.reduce((sum, device) => sum + (device.actions.alloc ?? 0), 0);
    const blocks = want.devices.reduce((sum, device) => sum + session.blocks.all(device.device).length, 0);
    // Every traced allocation is a block, and so is every block alive at the end that the trace did not see made.
    expect(blocks).toBeGreaterThanOrEqual(allocs);
  });
});
