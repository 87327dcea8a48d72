import { compile, Execution, SimHost, SimRuntime, scenarioById } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { liveObjectCount, objectAtValue } from './host-objects.ts';

async function pausedAt(id: string, text: string) {
  const scenario = scenarioById(id);
  if (scenario === undefined) throw new Error(`no scenario ${id}`);
  const host = new SimHost();
  const runtime = new SimRuntime(host);
  const ex = new Execution(compile(scenario.code).program, runtime, scenario.setup === '' ? {} : { setup: scenario.setup });
  await ex.runToLine(scenario.code.split('\n').findIndex((line) => line.includes(text)) + 1);
  const value = (name: string) => ex.variables().find((v) => v.name === name)?.value ?? '';
  return { host, value };
}

describe('objectAtValue', () => {
  it('finds the allocation, host buffer and stream behind the device sample’s variables', async () => {
    const { host, value } = await pausedAt('seed-device-memory', 'aclrtMemcpy(deviceA');
    const state = host.state;
    expect(objectAtValue(state, value('deviceA'))).toEqual({ kind: 'allocation', id: [...state.allocations.keys()][0] });
    expect(objectAtValue(state, value('hostA'))).toEqual({ kind: 'host', id: [...state.hostBuffers.keys()][0] });
    expect(objectAtValue(state, value('stream'))?.kind).toBe('stream');
    expect(objectAtValue(state, value('bytes'))).toBeUndefined();
    expect(objectAtValue(state, '0x0')).toBeUndefined();
    // Three device allocations, three host buffers, the created stream and device 0's default stream.
    expect(liveObjectCount(state)).toBe(3 + 3 + 2);
  });

  it('finds the reservation and the physical handle of the VMM sample', async () => {
    const { host, value } = await pausedAt('seed-vmm', 'aclrtUnmapMem(virPtr)');
    expect(objectAtValue(host.state, value('virPtr'))).toEqual({ kind: 'reservation', id: [...host.state.reservations.keys()][0] });
    expect(objectAtValue(host.state, value('handle'))).toEqual({ kind: 'handle', id: [...host.state.handles.keys()][0] });
    // The handle, the reservation, the mapping and device 0's default stream (the host buffer was freed just before).
    expect(liveObjectCount(host.state)).toBe(4);
  });
});
