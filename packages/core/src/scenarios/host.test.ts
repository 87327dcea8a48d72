import { describe, expect, it } from 'vitest';
import { compile } from '../interp/compile.ts';
import { Execution } from '../interp/execution.ts';
import { BUILTIN_PROFILE_NAMES } from '../profiles/builtin.ts';
import { SimHost } from '../sim/sim-host.ts';
import { SimRuntime } from '../sim/sim-runtime.ts';
import { type CurrentHost, declaredDevices, hostDifferences, type ScenarioHost, scenarioHostProblem } from './host.ts';
import { SCENARIOS, scenarioById } from './index.ts';
import type { Scenario } from './scenario.ts';

const FRESH_910B2: ScenarioHost = { profile: 'Ascend910B2', devices: 1, fresh: true };
const UNTOUCHED: CurrentHost = { profiles: ['Ascend910B2'], callsSinceReset: 0 };

/** Runs `code` (with `setup`) in a new process of `host`; the ACL codes of its aclrtMalloc calls, in order. */
async function mallocCodes(host: SimHost, s: Pick<Scenario, 'code' | 'setup'>): Promise<number[]> {
  const compiled = compile(s.code, { inputs: [] });
  const execution = new Execution(compiled.program, new SimRuntime(host), { setup: s.setup });
  const outcome = await execution.run();
  expect(outcome.state).toBe('finished');
  return execution.calls.filter((call) => call.fn === 'aclrtMalloc').map((call) => call.ret);
}

describe('scenario host declarations', () => {
  it.each(SCENARIOS.map((s) => [s.id, s] as const))('%s declares a host a reset can give', (_id, s) => {
    // A scenario without a declaration (a JavaScript caller, a cast) must not slip through.
    expect(s.host, s.id).toBeDefined();
    expect(scenarioHostProblem(s.host)).toBeUndefined();
    expect(typeof s.host.fresh).toBe('boolean');
    expect(declaredDevices(s.host)).toHaveLength(s.host.devices);
  });

  it('refuses an unknown profile, a non-canonical spelling and devices outside 1..16, naming what is allowed', () => {
    expect(scenarioHostProblem({ ...FRESH_910B2, profile: 'Ascend999' })).toBe(
      `unknown profile "Ascend999"; a scenario's host may name ${BUILTIN_PROFILE_NAMES.join(', ')}`,
    );
    // A declaration is written once, in the table's spelling, so two scenarios never disagree on a name.
    expect(scenarioHostProblem({ ...FRESH_910B2, profile: '910b2' })).toMatch(/unknown profile "910b2"/);
    for (const devices of [0, 17, 1.5]) {
      expect(scenarioHostProblem({ ...FRESH_910B2, devices })).toBe(
        `devices ${devices} is out of range; a simulated host has 1 to 16 devices`,
      );
    }
    expect(() => declaredDevices({ ...FRESH_910B2, devices: 17 })).toThrow(/1 to 16/);
    expect(scenarioHostProblem({ profile: 'Ascend310P3', devices: 16, fresh: false })).toBeUndefined();
  });

  it('huge-first-fallback needs a fresh host: a 1 MiB buffer left on the device turns its fallback into 207001', async () => {
    const s = scenarioById('huge-first-fallback');
    if (s === undefined) throw new Error('no huge-first-fallback scenario');
    expect(s.host.fresh).toBe(true);
    const fresh = new SimHost({ devices: declaredDevices(s.host) });
    // small, filler, fallback succeed; only the HUGE_ONLY one fails (DM-4, DM-5)
    expect(await mallocCodes(fresh, s)).toEqual([0, 0, 0, 207001]);
    const used = new SimHost({ devices: declaredDevices(s.host) });
    await mallocCodes(used, {
      code: 'int main(void) { void* p = nullptr; aclrtMalloc(&p, 1048576, ACL_MEM_MALLOC_NORMAL_ONLY); return 0; }',
      setup: s.setup,
    });
    expect(await mallocCodes(used, s)).toEqual([0, 0, 207001, 207001]);
  });
});

describe('hostDifferences', () => {
  it('finds none when the host is the declared one, whatever the spelling of the profile', () => {
    expect(hostDifferences(FRESH_910B2, UNTOUCHED)).toEqual([]);
    expect(hostDifferences(FRESH_910B2, { profiles: ['910b2'], callsSinceReset: 0 })).toEqual([]);
  });

  it('names the profile, the device count and the calls since the reset, in that order', () => {
    const current: CurrentHost = { profiles: ['Ascend310P3', 'Ascend310P3'], callsSinceReset: 7 };
    expect(hostDifferences(FRESH_910B2, current)).toEqual([
      { kind: 'profile', wanted: 'Ascend910B2', actual: ['Ascend310P3'] },
      { kind: 'devices', wanted: 1, actual: 2 },
      { kind: 'used', calls: 7 },
    ]);
  });

  it('counts one differing device as a different profile and lists each model once', () => {
    const wanted: ScenarioHost = { profile: 'Ascend910B2', devices: 3, fresh: false };
    expect(hostDifferences(wanted, { profiles: ['Ascend910B2', 'Ascend910B4', 'Ascend910B2'], callsSinceReset: 0 })).toEqual([
      { kind: 'profile', wanted: 'Ascend910B2', actual: ['Ascend910B2', 'Ascend910B4'] },
    ]);
  });

  it('ignores earlier calls when the scenario does not need a fresh host', () => {
    expect(hostDifferences({ ...FRESH_910B2, fresh: false }, { ...UNTOUCHED, callsSinceReset: 40 })).toEqual([]);
    expect(hostDifferences(FRESH_910B2, { ...UNTOUCHED, callsSinceReset: 1 })).toEqual([{ kind: 'used', calls: 1 }]);
  });
});
