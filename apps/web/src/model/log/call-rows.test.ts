import { aclrtMemMallocPolicy } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { MiB, malloc, startScene } from '../../../test/log-scene.ts';
import { callRow } from './call-rows.ts';
import { callEndSeq, callPosition, effectsOfCall, indexOfSeq, isTargetKind, lastAtOrBefore } from './effects.ts';

const POLICY = aclrtMemMallocPolicy.byName;

describe('call rows', () => {
  it('a successful aclrtMalloc carries the reasons of the allocation it made (DM-3, DM-4, DM-11) and its effect', async () => {
    const scene = await startScene();
    await malloc(scene.rt, 3 * MiB, POLICY.ACL_MEM_MALLOC_HUGE_FIRST);
    scene.sync();
    const { events, calls } = scene.timeline;
    const profiles = scene.timeline.live.devices.map((device) => device.profile);
    const row = callRow(events, calls[2] ?? -1, profiles);
    expect(row?.call.fn).toBe('aclrtMalloc');
    expect(row?.ok).toBe(true);
    expect(row?.retName).toBe('ACL_SUCCESS');
    expect(row?.reasons.map((reason) => reason.code)).toEqual(['pad', 'huge-first-large', 'occupies']);
    expect(row?.rules).toEqual(['DM-3', 'DM-4', 'DM-11']);
    const alloc = events.find((event) => event.kind === 'alloc');
    expect(row?.effects).toEqual([
      { seq: alloc?.seq, event: 'alloc', target: { kind: 'allocation', id: alloc?.kind === 'alloc' ? alloc.id : -1, device: 0 } },
    ]);
    expect(row?.endSeq).toBe(alloc?.seq);
  });

  it('a failed call carries its own reasons, code name and no effects', async () => {
    const scene = await startScene();
    const result = await scene.rt.aclrtMalloc({ size: 0, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY });
    expect(result.ret).toBe(100000);
    scene.sync();
    const { events, calls } = scene.timeline;
    const row = callRow(events, calls[calls.length - 1] ?? -1, []);
    expect(row?.ok).toBe(false);
    expect(row?.retName).toBe('ACL_ERROR_INVALID_PARAM');
    expect(row?.rules).toEqual(['DM-2']);
    expect(row?.effects).toEqual([]);
    expect(row?.endSeq).toBe(row?.call.seq);
  });

  it('a pinned copy carries its path reason (CP-3); non-call indices give no row', async () => {
    const scene = await startScene();
    const host = (await scene.rt.aclrtMallocHost({ size: MiB })).hostPtr ?? '0x0';
    const device = await malloc(scene.rt, MiB, POLICY.ACL_MEM_MALLOC_HUGE_FIRST);
    expect((await scene.rt.aclrtMemcpy({ dst: device, destMax: MiB, src: host, count: MiB, kind: 1 })).ret).toBe(0);
    scene.sync();
    const { events, calls } = scene.timeline;
    const row = callRow(events, calls[calls.length - 1] ?? -1, []);
    expect(row?.reasons.map((reason) => reason.code)).toContain('copy-pinned');
    expect(row?.effects[0]?.target?.kind).toBe('copy');
    expect(callRow(events, (calls[0] ?? 0) + 1, [])).toBeUndefined();
  });
});

describe('effects and lookups', () => {
  it('finds a call’s effects, its end, and positions by seq', async () => {
    const scene = await startScene();
    scene.sync();
    const { events, calls } = scene.timeline;
    const setDevice = calls[1] ?? -1;
    // The first aclrtSetDevice makes the device's default context and its default stream (CX-1, LT-2).
    expect(effectsOfCall(events, setDevice).map((event) => event.kind)).toEqual(['contextCreate', 'streamCreate', 'deviceSet']);
    expect(callEndSeq(events, setDevice)).toBe(events[setDevice + 3]?.seq);
    const seq = events[setDevice]?.seq ?? -1;
    expect(indexOfSeq(events, seq)).toBe(setDevice);
    expect(indexOfSeq(events, 10_000)).toBe(-1);
    expect(callPosition(events, calls, seq)).toBe(1);
    expect(callPosition(events, calls, seq + 1)).toBe(-1);
  });

  it('binary-searches ascending lists and recognises target kinds', () => {
    expect(lastAtOrBefore([2, 5, 9], 1)).toBe(-1);
    expect(lastAtOrBefore([2, 5, 9], 5)).toBe(1);
    expect(lastAtOrBefore([2, 5, 9], 100)).toBe(2);
    expect(isTargetKind('allocation')).toBe(true);
    expect(isTargetKind('banana')).toBe(false);
  });
});
