import { aclrtMemAttr, aclrtMemLocationType, aclrtMemMallocPolicy, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import {
  currentRuns,
  filterAfterRuns,
  focusFrames,
  nextProcessFilter,
  ofProcess,
  processFocus,
  processOwners,
  showsProcess,
} from './process-filter.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Two processes on one simulated device: the first (rt) and a second one it shares frames with. */
async function twoProcesses() {
  const scene = await simulated();
  const other = new SimRuntime(scene.host, 'other');
  await other.aclInit({ configPath: null });
  await other.aclrtSetDevice({ deviceId: 0 });
  const mallocOf = async (rt: SimRuntime, size: number, policy: keyof typeof aclrtMemMallocPolicy.byName) => {
    const result = await rt.aclrtMalloc({ size, policy: aclrtMemMallocPolicy.byName[policy] });
    if (result.devPtr === undefined) throw new Error(`aclrtMalloc failed: ${result.ret}`);
    // Each process has its own address space: the same address can be another process's allocation.
    const addr = Number.parseInt(result.devPtr, 16);
    const found = [...scene.state.allocations.values()].find((item) => item.pid === rt.pid && item.addr === addr);
    if (found === undefined) throw new Error(`no allocation of ${rt.pid} at ${result.devPtr}`);
    return found.id;
  };
  return { ...scene, other, mallocOf };
}

describe('the process filter', () => {
  it('shows every process while unset and one process when set', () => {
    expect(showsProcess(undefined, 7)).toBe(true);
    expect(showsProcess(7, 7)).toBe(true);
    expect(showsProcess(7, 8)).toBe(false);
    const items = [{ pid: 1 }, { pid: 2 }, { pid: 1 }];
    expect(ofProcess(undefined, items)).toBe(items);
    expect(ofProcess(1, items)).toEqual([{ pid: 1 }, { pid: 1 }]);
    expect(ofProcess(3, items)).toEqual([]);
  });

  it('cycles through the runs and back to all (Shift+P)', () => {
    expect(nextProcessFilter([], undefined)).toBeUndefined();
    expect(nextProcessFilter([4, 9], undefined)).toBe(4);
    expect(nextProcessFilter([4, 9], 4)).toBe(9);
    expect(nextProcessFilter([4, 9], 9)).toBeUndefined();
    // A filter whose run is gone starts the cycle again.
    expect(nextProcessFilter([4, 9], 5)).toBe(4);
  });

  it('drops a filter whose run a host reset took away, and keeps one on a current process', () => {
    const gone = { pid: 4002, beforeReset: true as const };
    const now = { pid: 4003 };
    expect(currentRuns([gone, now])).toEqual([now]);
    expect(filterAfterRuns(4002, [gone, now])).toBeUndefined();
    expect(filterAfterRuns(4003, [gone, now])).toBe(4003);
    // A process that is no run (the explorer's own session) keeps its filter.
    expect(filterAfterRuns(4001, [gone, now])).toBe(4001);
    // The new host gave the pid to a new run: the filter now means that one.
    expect(filterAfterRuns(4002, [gone, { pid: 4002 }])).toBe(4002);
    expect(filterAfterRuns(undefined, [gone])).toBeUndefined();
  });

  it('finds the owners of one process: its allocations and the physical memory it holds a handle to', async () => {
    const { rt, other, mallocOf, state } = await twoProcesses();
    const mine = await mallocOf(rt, 4 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    const theirs = await mallocOf(other, 4 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    const prop = {
      handleType: 0,
      allocationType: 0,
      memAttr: aclrtMemAttr.byName.ACL_HBM_MEM_HUGE,
      location: { type: aclrtMemLocationType.byName.ACL_MEM_LOCATION_TYPE_DEVICE, id: 0 },
      reserve: 0,
    };
    const made = await other.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 });
    expect(made.ret).toBe(0);
    const physical = [...state.physical.keys()];
    expect(physical).toHaveLength(1);
    expect(processOwners(state, rt.pid)).toEqual(new Set([mine]));
    expect(processOwners(state, other.pid)).toEqual(new Set([theirs, ...physical]));
  });

  it('marks the frames holding any page of the process, including split frames shared with another process', async () => {
    const { rt, other, mallocOf, state, table } = await twoProcesses();
    // Two small allocations of different processes share split frame 0; a huge one of the other takes the top frames.
    await mallocOf(rt, 64 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    await mallocOf(other, 64 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    await mallocOf(other, 4 * MiB, 'ACL_MEM_MALLOC_HUGE_ONLY');
    const mine = focusFrames(table, processOwners(state, rt.pid));
    const theirs = focusFrames(table, processOwners(state, other.pid));
    const top = table.count - 1;
    expect(mine[0]).toBe(1);
    expect(theirs[0]).toBe(1);
    expect(mine[top]).toBe(0);
    expect(theirs[top]).toBe(1);
    expect(mine.reduce((sum, bit) => sum + bit, 0)).toBe(1);
    // 4 MiB + 32 B of padding takes three huge pages (DM-3, DM-4), beside the shared frame.
    expect(theirs.reduce((sum, bit) => sum + bit, 0)).toBe(4);
    expect(processFocus(state, table, undefined)).toBeUndefined();
    expect(processFocus(state, table, rt.pid)?.frames).toEqual(mine);
  });
});
