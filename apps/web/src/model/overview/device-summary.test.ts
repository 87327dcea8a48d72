import { ASCEND_310P3, FRAME_BYTES } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import { poolBar, summarizeDevice } from './device-summary.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('device summary', () => {
  it('turns pool figures into used / free / total bars', () => {
    expect(poolBar({ free: 48 * GiB, total: 64 * GiB })).toEqual({ used: 16 * GiB, free: 48 * GiB, total: 64 * GiB, fraction: 0.25 });
    expect(poolBar({ free: 0, total: 0 }).fraction).toBe(0);
    expect(poolBar({ free: 10, total: 5 }).used).toBe(0);
  });

  it('reports the modeled pools and live objects at the cursor (DM-15)', async () => {
    const { state, device, malloc } = await simulated();
    await malloc(3 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    const summary = summarizeDevice(state, device);
    expect(summary.poolSource).toBe('modeled');
    expect(summary.objects).toEqual({ allocations: 2, physical: 0, reservations: 0, mappings: 0 });
    expect(summary.pools.huge.used).toBe(3 * FRAME_BYTES);
    expect(summary.pools.huge.total).toBe(64 * GiB);
    // Huge pages at the top and a split frame at the bottom: two 1 GiB blocks are no longer wholly free.
    expect(summary.pools.giant.used).toBe(2 * GiB);
    expect(summary.pools.normal.used).toBe(2 * FRAME_BYTES + 17 * 4096);
  });

  it('has no giant pool on 310P3', async () => {
    const { state, device } = await simulated(ASCEND_310P3);
    const summary = summarizeDevice(state, device);
    expect(summary.pools.giant.total).toBe(0);
    expect(summary.pools.huge.total).toBe(11_444 * FRAME_BYTES);
  });
});
