import { aclrtMemMallocPolicy } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { aclScene, GiB, MiB } from '../../../test/acl-scene.ts';
import { createI18n } from '../../i18n/setup.ts';
import { previewMalloc } from '../actions/malloc-preview.ts';
import { inspectObject } from '../inspector/inspect.ts';
import { callRow } from '../log/call-rows.ts';
import { callReasonsOf } from './observed-reasons.ts';

/* The views' models fed what the acl backend streams (test/acl-scene.ts): no frames, observed pools. */

const PREFS = { units: 'binary', addresses: 'hex' } as const;

describe('views on a real runtime’s events', () => {
  it('the inspector says frames are not observable and adds which pool served the allocation (DM-15)', () => {
    const scene = aclScene();
    const id = scene.malloc(3 * MiB, 2);
    const context = { prefs: PREFS, device: 0, copyReasons: () => [], observedReasons: (seq: number) => callReasonsOf(scene.eventAt, seq) };
    const inspection = inspectObject({ kind: 'allocation', id }, scene.state, context);
    const placement = inspection?.facts.find((fact) => fact.label === 'inspector.fact.placement');
    expect(placement).toEqual({ label: 'inspector.fact.placement', key: 'inspector.placement.unobserved' });
    expect(inspection?.reasons.map((reason) => reason.code)).toEqual(['pad', 'huge-first-large', 'occupies', 'observed-pool']);
    expect(inspection?.rules).toEqual(['DM-3', 'DM-4', 'DM-11', 'DM-15']);
  });

  it('the log row of a successful call carries what was observed around it', () => {
    const scene = aclScene();
    scene.malloc(3 * MiB, 2);
    const index = scene.events.findIndex((event) => event.kind === 'call');
    const row = callRow(
      scene.events,
      index,
      scene.state.devices.map((device) => device.profile),
    );
    expect(row?.reasons.map((reason) => reason.code)).toEqual(['pad', 'huge-first-large', 'occupies', 'observed-pool']);
    expect(row?.rules).toContain('DM-15');
  });

  it('the allocation preview counts free pages from the last pool reading, not from the empty frame table', () => {
    const scene = aclScene();
    const device = scene.state.devices[0];
    if (device === undefined) throw new Error('no device');
    const huge = aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_ONLY;
    const before = previewMalloc('aclrtMalloc', 4 * MiB, huge, device, 1, false);
    expect(before.ok && before.pool).toEqual({ free: undefined, needed: 3, source: 'observed' });
    scene.sample(2 * MiB, 0);
    const after = previewMalloc('aclrtMalloc', 4 * MiB, huge, device, 1, false);
    expect(after.ok && after.pool).toEqual({ free: 1, needed: 3, source: 'observed' });
    // The simulator's path still reads the frame table (every frame free in this scene).
    const modeled = previewMalloc('aclrtMalloc', 4 * MiB, huge, device);
    expect(modeled.ok && modeled.pool).toEqual({ free: (64 * GiB) / (2 * MiB), needed: 3, source: 'modeled' });
  });

  it('observed reasons read naturally in English and Chinese, per evidence', () => {
    const en = createI18n('en');
    const zh = createI18n('zh');
    const delta = { pageClass: 'huge', evidence: 'pool-delta', freeDrop: 4 * MiB };
    expect(en.t('reasons.observed-pool', delta)).toBe(
      'aclrtGetMemInfo: free memory of the huge pool dropped by 4 MiB, so that pool served it (observed)',
    );
    expect(zh.t('reasons.observed-pool', delta)).toBe('aclrtGetMemInfo：大页内存池的空闲内存减少了 4 MiB，因此由该内存池分配（实测）');
    const pointer = { pageClass: 'normal', evidence: 'pointer-attributes', pointerPageSize: 4096 };
    expect(en.t('reasons.observed-pool', pointer)).toBe(
      'aclrtPointerGetAttributes reports 4 KiB pages: the normal pool served it (observed)',
    );
    expect(zh.t('reasons.observed-pool', { pageClass: 'giant', evidence: 'rules' })).toContain('1 GiB 巨页只是按规则推断');
    expect(en.t('reasons.copy-observed', { durationNs: 2_310_000, rate: '1.82' })).toBe(
      'measured inside the C call: 2,310,000 ns, 1.82 GB/s',
    );
  });
});
