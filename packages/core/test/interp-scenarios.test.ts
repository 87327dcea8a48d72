import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { declaredDevices } from '../src/scenarios/host.ts';
import { SCENARIOS, scenarioById } from '../src/scenarios/index.ts';
import type { Scenario } from '../src/scenarios/scenario.ts';
import { MiB } from '../src/units/bytes.ts';
import { harness, lineOf, shown } from './interp-helpers.ts';

function scenario(id: string): Scenario {
  const found = scenarioById(id);
  if (found === undefined) throw new Error(`no scenario ${id}`);
  return found;
}

async function play(s: Scenario) {
  // On the host the scenario declares: its designed outcome is promised there.
  const h = harness(s.code, {
    inputs: s.inputs,
    setup: s.setup,
    devices: declaredDevices(s.host),
    ...(s.entry === undefined ? {} : { entry: s.entry }),
  });
  const outcome = await h.ex.run();
  return { ...h, outcome };
}

/** The ACL failures each scenario shows on purpose; every other call must succeed. */
const EXPECTED_FAILURES: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  'huge-first-fallback': [['aclrtMalloc', 207001]],
  'vmm-deferred-free': [['aclrtReleaseMemAddress', 100000]],
};

describe('built-in scenarios', () => {
  it('have unique ids, both languages, RULES.md ids, and compile with their inputs', () => {
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
    for (const s of SCENARIOS) {
      expect(
        [s.title.en, s.title.zh, s.description.en, s.description.zh].every((text) => text.length > 0),
        s.id,
      ).toBe(true);
      expect(
        s.rules.every((rule) => /^(DM|PT|HM|VM|CP|LT|CX|EV|IP)-\d+$/.test(rule)),
        s.id,
      ).toBe(true);
      const compiled = compile(s.code, { inputs: s.inputs.map((i) => i.name) });
      expect(
        compiled.diagnostics.filter((d) => d.severity !== 'note'),
        s.id,
      ).toEqual([]);
      expect(compile(s.setup, { inputs: s.inputs.map((i) => i.name) }).ok, s.id).toBe(true);
    }
    expect(SCENARIOS.filter((s) => s.origin === 'seed').map((s) => s.id)).toEqual([
      'seed-device-memory',
      'seed-pinned-memory',
      'seed-host-register',
      'seed-vmm',
    ]);
  });

  it.each(SCENARIOS.map((s) => [s.id, s] as const))('%s runs to the end with only its intended ACL failures', async (_id, s) => {
    const { ex, outcome } = await play(s);
    expect(outcome.state).toBe('finished');
    expect(ex.calls.filter((c) => c.ret !== 0).map((c) => [c.fn, c.ret])).toEqual(EXPECTED_FAILURES[s.id] ?? []);
    expect([...ex.lineMarks.values()].flatMap((m) => [...m.warnings, ...m.errors])).toEqual([]);
  });

  it('streams-and-events: the compute stream waits for the copy on an event; the host waits only at the synchronize (CX, EV)', async () => {
    const { ex, events, host } = await play(scenario('streams-and-events'));
    const kinds = events.map((event) => event.kind);
    expect(kinds.filter((kind) => kind.startsWith('event') || kind.startsWith('context'))).toEqual([
      'contextCreate',
      'contextCreate',
      'contextCurrent',
      'eventCreate',
      'eventCreate',
      'eventRecord',
      'eventRecord',
      'eventWait',
      'eventDestroy',
      'eventDestroy',
      'contextDestroy',
      'contextDestroy',
    ]);
    const [load, work] = host.state.copies.slice(-2);
    // The device-to-device copy on the compute stream starts when the load ends (EV-3).
    expect(work?.start).toBe(load?.end);
    expect(ex.output).toHaveLength(1);
    expect(ex.output[0]).toMatch(/^loading took \d+\.\d{3} ms\n$/);
  });

  it('policies: DM-3/DM-4 put 1 MiB aclrtMalloc on a huge page and 1 MiB aclrtMallocAlign32 on normal pages', async () => {
    const { ex, events } = await play(scenario('policies'));
    expect(shown(ex, 'pageSizes')).toBe('{2097152, 2097152, 4096, 4096, 2097152, 2097152, 4096, 2097152}');
    const allocs = events.flatMap((e) => (e.kind === 'alloc' ? [[e.fn, e.size / MiB, e.padded, e.pageClass, e.pages]] : []));
    expect(allocs).toEqual([
      ['aclrtMalloc', 1, MiB + 32, 'huge', 1],
      ['aclrtMalloc', 1, MiB + 32, 'huge', 1],
      ['aclrtMalloc', 1, MiB + 32, 'normal', 257],
      ['aclrtMallocAlign32', 1, MiB, 'normal', 256],
      ['aclrtMalloc', 3, 3 * MiB + 32, 'huge', 2],
      ['aclrtMalloc', 3, 3 * MiB + 32, 'huge', 2],
      ['aclrtMalloc', 3, 3 * MiB + 32, 'normal', 769],
      ['aclrtMallocAlign32', 3, 3 * MiB, 'huge', 2],
    ]);
  });

  it('huge-first-fallback: DM-4 falls back to normal pages when the huge pool is empty, DM-5 fails with 207001', async () => {
    const s = scenario('huge-first-fallback');
    const { ex, events, host } = await play(s);
    const allocs = events.flatMap((e) => (e.kind === 'alloc' ? [e] : []));
    const fallback = allocs.find((a) => a.size === 1536 * 1024);
    expect(fallback?.pageClass).toBe('normal');
    expect(ex.lineMarks.get(lineOf(s.code, 'ret = aclrtMalloc(&strict'))?.calls).toEqual([
      {
        fn: 'aclrtMalloc',
        ret: 207001,
        retName: 'ACL_ERROR_RT_MEMORY_ALLOCATION',
        message: 'not enough free huge pages on device 0: 2 needed, 0 free',
      },
    ]);
    expect(ex.output).toEqual(['HUGE_ONLY failed: 207001\n']);
    expect(shown(ex, 'freeHuge')).toBe('0');
    expect(host.state.allocations.size).toBe(0);
  });

  it('pageable-vs-pinned: HM-1 stages pageable copies, HM-3 makes their async copy block', async () => {
    const { host } = await play(scenario('pageable-vs-pinned'));
    expect(host.state.copies.map((c) => [c.fn, c.path, c.mode, c.bytes / MiB])).toEqual([
      ['aclrtMemcpy', 'pageable-staged', 'sync', 64],
      ['aclrtMemcpy', 'pinned', 'sync', 64],
      ['aclrtMemcpyAsync', 'pinned', 'async', 64],
      ['aclrtMemcpyAsync', 'pageable-staged', 'async-blocking', 64],
    ]);
    const [staged, pinned] = host.state.copies;
    expect((staged?.end ?? 0) - (staged?.start ?? 0)).toBeGreaterThan((pinned?.end ?? 0) - (pinned?.start ?? 0));
  });

  it('va-consistent-register: HM-6 gives the host address back with VA_FLAG and another one without', async () => {
    const s = scenario('va-consistent-register');
    const { ex, events } = await play(s);
    expect([shown(ex, 'consistent'), shown(ex, 'differs')]).toEqual(['true', 'true']);
    expect(shown(ex, 'sameVaDev')).toBe(shown(ex, 'sameVa'));
    expect(events.flatMap((e) => (e.kind === 'hostRegister' ? [e.vaConsistent] : []))).toEqual([true, false]);
  });

  it('vmm-deferred-free: VM-8 frees the handle at once and the memory at the unmap', async () => {
    const s = scenario('vmm-deferred-free');
    const { ex, events } = await play(s);
    const calls = events.flatMap((e) => (e.kind === 'call' ? [e] : []));
    const seqOf = (fn: string) => calls.find((c) => c.fn === fn)?.seq;
    const physFree = events.find((e) => e.kind === 'physFree');
    const physRelease = events.find((e) => e.kind === 'physRelease');
    expect(physFree?.kind === 'physFree' && physFree.deferred).toBe(true);
    expect(physFree?.call).toBe(seqOf('aclrtFreePhysical'));
    expect(physRelease?.call).toBe(seqOf('aclrtUnmapMem'));
    expect(ex.lineMarks.get(lineOf(s.code, 'aclError ret = aclrtReleaseMemAddress'))?.calls.map((c) => c.retName)).toEqual([
      'ACL_ERROR_INVALID_PARAM',
    ]);
    expect(shown(ex, 'ret')).toBe('0');
  });
});
