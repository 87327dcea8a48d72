import { ASCEND_310P3, ASCEND_910B2, aclrtMemMallocPolicy, createHostState, GiB, KiB, MiB } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import { previewMalloc } from './malloc-preview.ts';

const P = aclrtMemMallocPolicy.byName;

function device(profile = ASCEND_910B2) {
  const state = createHostState([profile]);
  const found = state.devices[0];
  if (found === undefined) throw new Error('no device');
  return found;
}

describe('previewMalloc: what will happen before the call', () => {
  it('3 MiB HUGE_FIRST → 2 huge pages, 4 MiB occupied, 1 MiB waste (DM-3, DM-4, DM-11)', () => {
    const preview = previewMalloc('aclrtMalloc', 3 * MiB, P.ACL_MEM_MALLOC_HUGE_FIRST, device());
    expect(preview).toMatchObject({ ok: true, padded: 3 * MiB + 32, pageClass: 'huge', fallback: 'normal', pageSize: 2 * MiB, pages: 2 });
    if (!preview.ok) return;
    expect(preview.occupied).toBe(4 * MiB);
    expect(preview.waste).toBe(MiB);
    expect(preview.reasons.map((reason) => reason.code)).toEqual(['pad', 'huge-first-large']);
    expect(preview.willFallBack).toBe(false);
  });

  it('1 MiB pads past 1 MiB and takes a huge page; Align32 keeps it on normal pages (DM-4)', () => {
    const plain = previewMalloc('aclrtMalloc', MiB, P.ACL_MEM_MALLOC_HUGE_FIRST, device());
    const align = previewMalloc('aclrtMallocAlign32', MiB, P.ACL_MEM_MALLOC_HUGE_FIRST, device());
    expect(plain.ok && plain.pageClass).toBe('huge');
    expect(align.ok && align.pageClass).toBe('normal');
    expect(align.ok && align.pages).toBe(256);
  });

  it('counts pages for N allocations against the free pool', () => {
    const preview = previewMalloc('aclrtMalloc', 64 * KiB, P.ACL_MEM_MALLOC_NORMAL_ONLY, device(), 100);
    expect(preview).toMatchObject({ ok: true, pageClass: 'normal', pages: 17, count: 100 });
    if (!preview.ok) return;
    expect(preview.pool.needed).toBe(1700);
    expect(preview.pool.free).toBe((64 * GiB) / (4 * KiB));
  });

  it('predicts the HUGE_FIRST fallback when the huge pool is short and normal pages can serve (DM-4)', async () => {
    // The fallback lesson: a 4 KiB NORMAL_ONLY buffer splits a frame, HUGE_ONLY takes every free frame.
    const { device: dev, malloc } = await simulated(ASCEND_310P3);
    await malloc(4 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    await malloc(dev.frames.free.count * 2 * MiB - 64, 'ACL_MEM_MALLOC_HUGE_ONLY');
    const preview = previewMalloc('aclrtMalloc', 1536 * KiB, P.ACL_MEM_MALLOC_HUGE_FIRST, dev);
    expect(preview).toMatchObject({ ok: true, willFallBack: true, willFail: false });
    expect(preview.ok && preview.fallbackPool).toEqual({ pageClass: 'normal', free: 510, needed: 385, source: 'modeled' });
    const fits = previewMalloc('aclrtMalloc', 4 * MiB, P.ACL_MEM_MALLOC_HUGE_FIRST, device(ASCEND_310P3));
    expect(fits).toMatchObject({ ok: true, willFallBack: false, willFail: false });
  });

  it('1 TiB HUGE_FIRST will fail, not fall back: normal pages are short too (DM-4, DM-6)', () => {
    const preview = previewMalloc('aclrtMalloc', 1024 * GiB, P.ACL_MEM_MALLOC_HUGE_FIRST, device());
    expect(preview).toMatchObject({ ok: true, pageClass: 'huge', pages: 524_289, willFallBack: false, willFail: true });
    // 1 TiB + 32 B in 4 KiB pages: 268,435,457 needed of the 64 GiB device's 16,777,216.
    expect(preview.ok && preview.fallbackPool).toEqual({ pageClass: 'normal', free: 16_777_216, needed: 268_435_457, source: 'modeled' });
  });

  it('HUGE_ONLY short of pages will fail; it has no fallback (DM-5)', () => {
    const preview = previewMalloc('aclrtMalloc', 100 * GiB, P.ACL_MEM_MALLOC_HUGE_ONLY, device());
    expect(preview).toMatchObject({ ok: true, willFallBack: false, willFail: true });
    expect(preview.ok && preview.fallbackPool).toBeUndefined();
  });

  it('HUGE1G on 310P3 is refused with 207000 before the call (DM-7)', () => {
    const preview = previewMalloc('aclrtMalloc', GiB, P.ACL_MEM_MALLOC_HUGE1G_ONLY, device(ASCEND_310P3));
    expect(preview).toMatchObject({ ok: false, ret: 207000, retName: 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT' });
  });

  it('size 0 is refused with 100000 (DM-2)', () => {
    expect(previewMalloc('aclrtMalloc', 0, 0, device())).toMatchObject({ ok: false, ret: 100000 });
  });
});
