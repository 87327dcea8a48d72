import { ASCEND_910B2, aclrtMemAttr, aclrtMemLocationType, aclrtMemMallocPolicy, FRAME_BYTES, type Hex, NORMAL_PAGE } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import { mapCounts } from './counts.ts';
import { clickOwner, describeCell, frameOwners } from './describe.ts';
import { mapSelection, selectedOwners } from './selection.ts';

const MiB = 1024 * 1024;

describe('page-map cells, selection and counts', () => {
  it('describes a huge frame: kind, modeled physical range, owner with address, size and policy (DM-4)', async () => {
    const { state, table, malloc, idOf } = await simulated();
    const id = idOf(await malloc(3 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST'));
    // Huge pages come from the top (modeled placement).
    const top = table.count - 1;
    const info = describeCell(state, table, NORMAL_PAGE, { frame: top });
    expect(info.kind).toBe('huge');
    expect(info.start).toBe(top * FRAME_BYTES);
    expect(info.end).toBe((top + 1) * FRAME_BYTES);
    expect(info.owner).toMatchObject({ kind: 'allocation', id, size: 3 * MiB, fn: 'aclrtMalloc', pageClass: 'huge' });
    expect(describeCell(state, table, NORMAL_PAGE, { frame: top - 1 }).owner?.id).toBe(id);
    expect(describeCell(state, table, NORMAL_PAGE, { frame: top - 2 }).kind).toBe('free');
    expect(clickOwner(table, { frame: top })).toBe(id);
  });

  it('describes shared normal-page frames and the owner of each page (DM-6)', async () => {
    const { state, table, malloc, idOf } = await simulated();
    const ids: number[] = [];
    for (let i = 0; i < 100; i += 1) ids.push(idOf(await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY')));
    // 64 KiB + 32 B padding → 17 pages each: 30 fit in a frame (510 pages), so 100 fill frames 0–2 and a third of frame 3.
    expect(table.normalPagesUsed).toBe(1700);
    const frame0 = describeCell(state, table, NORMAL_PAGE, { frame: 0 });
    expect(frame0.kind).toBe('split');
    expect(frame0.used).toBe(510);
    expect(frame0.owners).toBe(30);
    expect(frame0.owner).toBeUndefined();
    expect(clickOwner(table, { frame: 0 })).toBe(0);
    const page = describeCell(state, table, NORMAL_PAGE, { frame: 0, page: 20 });
    expect(page.owner?.id).toBe(ids[1]);
    expect(page.start).toBe(20 * NORMAL_PAGE);
    expect(page.end - page.start).toBe(NORMAL_PAGE);
    expect(clickOwner(table, { frame: 0, page: 20 })).toBe(ids[1]);
    const frame3 = describeCell(state, table, NORMAL_PAGE, { frame: 3 });
    expect(frame3.used).toBe(10 * 17);
    expect(describeCell(state, table, NORMAL_PAGE, { frame: 3, page: 511 }).owner).toBeUndefined();
    expect(frameOwners(table, 4)).toEqual([]);
  });

  it('names the 1 GiB block of a giant page (DM-7)', async () => {
    const { state, table, malloc, idOf } = await simulated(ASCEND_910B2);
    const id = idOf(await malloc(1024 * MiB, 'ACL_MEM_MALLOC_HUGE1G_ONLY'));
    const info = describeCell(state, table, NORMAL_PAGE, { frame: table.count - 100 });
    expect(info.kind).toBe('giant');
    expect(info.giant).toEqual({ first: table.count - 512, last: table.count - 1 });
    expect(info.owner?.id).toBe(id);
    const selection = mapSelection(state, 0, table, { kind: 'allocation', id });
    expect(selection?.frameCount).toBe(512);
    expect(selection?.first).toBe(table.count - 512);
  });

  it('selects the frames an allocation occupies, and nothing on another device or for unknown ids', async () => {
    const { state, table, malloc, idOf } = await simulated();
    await malloc(3 * MiB, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    const id = idOf(await malloc(5 * MiB, 'ACL_MEM_MALLOC_NORMAL_ONLY'));
    const selection = mapSelection(state, 0, table, { kind: 'allocation', id });
    // 3 MiB + 32 B = 769 pages: frame 0 and 257 pages of frame 1. 5 MiB + 32 B = 1,281 pages: whole frames 2–3,
    // and the 257 left over do not fit in frame 1's 255 free pages, so they open frame 4 (modeled placement).
    expect(selection?.owners).toEqual(new Set([id]));
    expect([...(selection?.frames.subarray(0, 6) ?? [])]).toEqual([0, 0, 1, 1, 1, 0]);
    expect(selection?.frameCount).toBe(3);
    expect(selection?.first).toBe(2);
    expect(mapSelection(state, 1, table, { kind: 'allocation', id })).toBeUndefined();
    expect(mapSelection(state, 0, table, { kind: 'allocation', id: 999_999 })).toBeUndefined();
    expect(mapSelection(state, 0, table, { kind: 'frame', id: 42 })?.frameCount).toBe(1);
    expect(selectedOwners(state, 0, { kind: 'call', id })).toEqual([]);
  });

  it('follows a handle and a mapping to their physical memory', async () => {
    const { state, table, rt } = await simulated();
    const prop = {
      handleType: 0,
      allocationType: 0,
      memAttr: aclrtMemAttr.byName.ACL_HBM_MEM_HUGE,
      location: { type: aclrtMemLocationType.byName.ACL_MEM_LOCATION_TYPE_DEVICE, id: 0 },
      reserve: 0,
    };
    const physical = await rt.aclrtMallocPhysical({ size: 4 * MiB, prop, flags: 0 });
    expect(physical.ret).toBe(0);
    const [memory] = [...state.physical.keys()];
    if (memory === undefined) throw new Error('no physical memory');
    expect(selectedOwners(state, 0, { kind: 'physical', id: memory })).toEqual([memory]);
    expect(selectedOwners(state, 0, { kind: 'handle', id: memory })).toEqual([memory]);
    expect(mapSelection(state, 0, table, { kind: 'handle', id: memory })?.frameCount).toBe(2);
  });

  it('counts frames for the legend: fragmentation leaves no wholly free frame (DM-5)', async () => {
    const { table, malloc, rt } = await simulated();
    // 62 GiB less the 32 B padding (DM-3): exactly 31,744 huge pages, leaving 1,024 frames.
    await malloc(62 * 1024 * MiB - 64, 'ACL_MEM_MALLOC_HUGE_ONLY');
    const halves: Hex[] = [];
    for (let i = 0; i < 2 * (table.count - 31_744); i += 1) halves.push(await malloc(MiB - 64, 'ACL_MEM_MALLOC_NORMAL_ONLY'));
    for (let i = 0; i < halves.length; i += 2) await rt.aclrtFree({ devPtr: halves[i] ?? '0x0' });
    const counts = mapCounts(table);
    expect(counts.free).toBe(0);
    expect(counts.largestFreeRun).toBe(0);
    expect(counts.huge).toBe(31_744);
    expect(counts.split).toBe(1024);
    expect(counts.normalPagesFree).toBe(1024 * 256);
    const refused = await rt.aclrtMalloc({ size: 2 * MiB, policy: aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_ONLY });
    expect(refused.ret).toBe(207_001);
  });
});
