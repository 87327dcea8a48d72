import { ASCEND_910B2, checkArgs, devicePools, GiB, isAclFunctionName, MiB, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import {
  absorb,
  absorbLesson,
  advance,
  callsFor,
  currentStep,
  lessonCall,
  lessonsAvailable,
  startWizard,
  WIZARD_FUNCTIONS,
  WIZARD_STEPS,
  type WizardState,
} from './vmm-wizard.ts';

/** Runs "Next" on a real simulated process until the wizard finishes or a call fails. */
async function runAll(state: WizardState, runtime: SimRuntime): Promise<WizardState> {
  let current = state;
  while (current.step < WIZARD_STEPS.length) {
    const device = runtime.host.state.processes.get(runtime.pid)?.currentDevice ?? -1;
    const call = callsFor(current, device)[0];
    if (call === undefined) {
      current = advance(current);
      continue;
    }
    expect(checkArgs(call.fn, call.args)).toEqual({ ok: true });
    const result = await runtime[call.fn](call.args as never);
    current = absorb(current, call, { ...result, ok: result.ret === 0, out: result });
    if (current.failed !== undefined) return current;
  }
  return current;
}

describe('VMM wizard step machine', () => {
  it('walks granularity → … → free physical on the simulator and leaves every pool at baseline (VM-2 … VM-8)', async () => {
    const sim = new SimHost({ devices: [ASCEND_910B2] });
    const runtime = new SimRuntime(sim, 'wizard');
    const device = sim.state.devices[0];
    if (device === undefined) throw new Error('no device');
    const baseline = devicePools(device);
    const finished = await runAll(startWizard(0), runtime);
    expect(finished.failed).toBeUndefined();
    expect(finished.step).toBe(WIZARD_STEPS.length);
    expect(finished.granularity).toBe(2 * MiB);
    expect(
      Object.values(finished.records)
        .flat()
        .map((record) => record.fn),
    ).toEqual([
      'aclrtSetDevice',
      'aclrtMemGetAllocationGranularity',
      'aclrtMallocPhysical',
      'aclrtReserveMemAddress',
      'aclrtMapMem',
      'aclrtMemSetAccess',
      'aclrtMallocHost',
      'aclrtMemcpy',
      'aclrtUnmapMem',
      'aclrtReleaseMemAddress',
      'aclrtFreePhysical',
      'aclrtFreeHost',
    ]);
    // The panel offers the wizard only when the agent offers every function a run calls.
    expect(
      new Set(
        Object.values(finished.records)
          .flat()
          .map((record) => record.fn),
      ),
    ).toEqual(new Set(WIZARD_FUNCTIONS));
    expect(devicePools(device)).toEqual(baseline);
    expect(sim.state.hostBuffers.size).toBe(0);
    expect(sim.state.reservations.size + sim.state.mappings.size + sim.state.handles.size).toBe(0);
  });

  it('stays on the step with the error when a call fails', () => {
    const state = { ...startWizard(0), step: 1, granularity: 2 * MiB };
    const call = callsFor(state, 0)[0] ?? { fn: 'aclrtMallocPhysical', args: {} };
    const failed = absorb(state, call, { ok: false, ret: 207000, retName: 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT' });
    expect(failed.failed?.result.ret).toBe(207000);
    // Trying again makes the same call again.
    expect(callsFor(failed, 0)).toEqual([call]);
    expect(advance(failed).step).toBe(1);
    expect(currentStep(advance(failed))).toBe('physical');
  });

  it('sets the device first when the process has none (LT-2)', () => {
    const state = { ...startWizard(1), step: 1, granularity: 2 * MiB };
    expect(callsFor(state, -1).map((call) => call.fn)).toEqual(['aclrtSetDevice', 'aclrtMallocPhysical']);
    expect(callsFor(state, 1).map((call) => call.fn)).toEqual(['aclrtMallocPhysical']);
    // Already for the granularity query: a real runtime answers it only in a context of the device.
    expect(callsFor(startWizard(1), -1).map((call) => call.fn)).toEqual(['aclrtSetDevice', 'aclrtMemGetAllocationGranularity']);
  });

  it('uses a 1 GiB granule for HUGE1G', async () => {
    const sim = new SimHost({ devices: [ASCEND_910B2] });
    const runtime = new SimRuntime(sim, 'wizard');
    const state = startWizard(0, 10);
    const call = callsFor(state, 0)[0];
    if (call === undefined || !isAclFunctionName(call.fn)) throw new Error('no call');
    const result = await runtime.aclrtMemGetAllocationGranularity(call.args as never);
    expect(absorb(state, call, { ok: true, out: result }).granularity).toBe(GiB);
  });

  it('lessons: release while mapped fails, free physical while mapped is deferred and skips the later free (VM-8)', async () => {
    const sim = new SimHost({ devices: [ASCEND_910B2] });
    const runtime = new SimRuntime(sim, 'wizard');
    let state = startWizard(0);
    // Run up to and including "map".
    while (currentStep(state) !== 'access') {
      const call = callsFor(state, sim.state.processes.get(runtime.pid)?.currentDevice ?? -1)[0];
      if (call === undefined) state = advance(state);
      else {
        const result = await runtime[call.fn](call.args as never);
        state = absorb(state, call, { ...result, ok: result.ret === 0, out: result });
      }
    }
    expect(lessonsAvailable(state)).toEqual(['release-while-mapped', 'free-physical-while-mapped']);
    const release = lessonCall(state, 'release-while-mapped');
    const refused = await runtime.aclrtReleaseMemAddress(release.args as never);
    expect(refused.ret).toBe(100000);
    state = absorbLesson(state, 'release-while-mapped', release, { ok: false, ret: refused.ret });
    expect(state.lesson?.record.result.ok).toBe(false);
    const free = lessonCall(state, 'free-physical-while-mapped');
    const deferred = await runtime.aclrtFreePhysical(free.args as never);
    expect(deferred.ret).toBe(0);
    state = absorbLesson(state, 'free-physical-while-mapped', free, { ok: true });
    expect(state.handleFreed).toBe(true);
    expect(lessonsAvailable(state)).toEqual(['release-while-mapped']);
    const finished = await runAll(state, runtime);
    expect(finished.failed).toBeUndefined();
    expect(finished.records[WIZARD_STEPS.indexOf('freePhysical')]?.map((r) => r.fn)).toEqual(['aclrtFreeHost']);
    expect(sim.state.physical.size).toBe(0);
  });

  it('offers the unaligned-size lesson at the physical step once the granularity is known (VM-2)', () => {
    const state = { ...startWizard(0), step: 1, granularity: 2 * MiB };
    expect(lessonsAvailable(state)).toEqual(['physical-unaligned']);
    expect(lessonCall(state, 'physical-unaligned').args.size).toBe(3 * MiB);
  });
});

describe('the C a step shows before it runs', () => {
  it('names pointers not known yet by their C names', () => {
    const state = { ...startWizard(0), step: WIZARD_STEPS.indexOf('use'), granularity: 2 * MiB, virPtr: '0x100000000000' };
    const calls = callsFor(state, 0);
    expect(calls.map((call) => call.fn)).toEqual(['aclrtMallocHost', 'aclrtMemcpy']);
    expect(calls[1]?.args).toMatchObject({ dst: '0x100000000000', src: 'hostPtr', kind: 1 });
  });
});
