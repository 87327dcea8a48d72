import { aclrtMemAttr, type MemoryEvent } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { MiB, malloc, need, startScene } from '../../../test/log-scene.ts';
import type { Timeline } from '../timeline.ts';
import { compareRange } from './compare.ts';

function creationIn(timeline: Timeline) {
  return (id: number): MemoryEvent | undefined =>
    timeline.story(id).find((event) => event.kind !== 'call' && 'id' in event && event.id === id);
}

describe('compareRange', () => {
  it('lists objects alive at one end only, counts transient ones, and sums bytes per page class', async () => {
    const scene = await startScene();
    const { rt, timeline } = scene;
    const x = await malloc(rt, 2 * MiB, 1); // HUGE_ONLY: 2 huge pages after padding
    scene.sync();
    const a = timeline.lastSeq;
    await malloc(rt, 4 * MiB, 0); // HUGE_FIRST: 3 huge pages
    const shortLived = await malloc(rt, 64 * 1024, 2); // NORMAL_ONLY, freed before B
    await rt.aclrtFree({ devPtr: shortLived });
    await malloc(rt, MiB, 2); // NORMAL_ONLY: 257 × 4 KiB
    await rt.aclrtFree({ devPtr: x });
    scene.sync();
    const b = timeline.lastSeq;

    const result = compareRange(timeline.events, a, b, creationIn(timeline));
    expect(result.allocated.map((item) => [item.kind, item.size, item.pageClass, item.occupied])).toEqual([
      ['allocation', 4 * MiB, 'huge', 6 * MiB],
      ['allocation', MiB, 'normal', 257 * 4096],
    ]);
    expect(result.freed.map((item) => [item.kind, item.size, item.occupied, item.fn])).toEqual([
      ['allocation', 2 * MiB, 4 * MiB, 'aclrtMalloc'],
    ]);
    expect(result.transient).toBe(1);
    expect(result.bytes.huge).toEqual({ added: 6 * MiB, removed: 4 * MiB });
    // 64 KiB + 32 B of padding (DM-3) takes 17 normal pages.
    expect(result.bytes.normal).toEqual({ added: 17 * 4096 + 257 * 4096, removed: 17 * 4096 });
    expect(result.bytes.giant).toEqual({ added: 0, removed: 0 });
    expect(result.calls).toBe(5);
    // The order of the two points does not matter.
    expect(compareRange(timeline.events, b, a, creationIn(timeline))).toEqual(result);
    // Nothing changes between a point and itself.
    const same = compareRange(timeline.events, b, b, creationIn(timeline));
    expect([same.allocated.length, same.freed.length, same.events]).toEqual([0, 0, 0]);
  });

  it('shows VMM mappings and unmappings, and physical memory returned only when its pages are (VM-8)', async () => {
    const scene = await startScene();
    const { rt, timeline } = scene;
    const prop = {
      handleType: 0,
      allocationType: 0,
      memAttr: aclrtMemAttr.byName.ACL_HBM_MEM_HUGE,
      location: { type: 1, id: 0 },
      reserve: 0,
    };
    const handle = need((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 })).handle, 'handle');
    const virPtr = need((await rt.aclrtReserveMemAddress({ size: 8 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })).virPtr, 'virPtr');
    scene.sync();
    const a = timeline.lastSeq;
    expect((await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    scene.sync();
    const mapped = timeline.lastSeq;
    const forward = compareRange(timeline.events, a, mapped, creationIn(timeline));
    expect(forward.mapped.map((item) => [item.kind, item.size])).toEqual([['mapping', 2 * MiB]]);
    expect(forward.allocated).toEqual([]);

    expect((await rt.aclrtUnmapMem({ virPtr })).ret).toBe(0);
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    scene.sync();
    const back = compareRange(timeline.events, mapped, timeline.lastSeq, creationIn(timeline));
    expect(back.unmapped.map((item) => item.kind)).toEqual(['mapping']);
    expect(back.freed.map((item) => [item.kind, item.occupied])).toEqual([['handle', 2 * MiB]]);
    expect(back.bytes.huge).toEqual({ added: 0, removed: 2 * MiB });
  });
});
