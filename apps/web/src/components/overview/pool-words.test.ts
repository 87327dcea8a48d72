import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import { createI18n } from '../../i18n/setup.ts';
import { summarizeDevice } from '../../model/overview/device-summary.ts';
import { DEFAULT_PREFS } from '../../store/ui-slice.ts';
import { poolWords } from './pool-words.ts';

const MiB = 1024 * 1024;
const prefs = { units: DEFAULT_PREFS.units, addresses: DEFAULT_PREFS.addresses };

describe('pool words (DM-15, modeled split)', () => {
  it('one 1 MiB HUGE_FIRST allocation: the giant pool says 1 GiB is no longer available, and why', async () => {
    const { state, device, malloc } = await simulated();
    // 1 MiB + 32 B padding > 1 MiB: one 2 MiB huge page (DM-3, DM-4), taken from the top 1 GiB block.
    await malloc(MiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    const { pools } = summarizeDevice(state, device);
    expect(pools.giant.breakdown).toEqual({ own: 0, otherKinds: 2 * MiB, stranded: 1022 * MiB });
    const en = poolWords(createI18n('en').t, 'giant', pools.giant, '4 KiB', prefs);
    expect(en.figures).toBe('1 GiB no longer available to 1 GiB pages · 63 GiB free');
    expect(en.figures).not.toContain('used');
    expect(en.breakdown).toBe('That is 2 MiB held by other page kinds, 1022 MiB free but not in whole 1 GiB pages.');
    const zh = poolWords(createI18n('zh').t, 'giant', pools.giant, '4 KiB', prefs);
    expect(zh.figures).toBe('1 GiB 巨页已不可用 1 GiB · 空闲 63 GiB');
    expect(zh.breakdown).toBe('其中：其他页类型占用 2 MiB，空闲但凑不成整个1 GiB 巨页的 1022 MiB。');
  });

  it('a pool holding only its own pages needs no breakdown', async () => {
    const { state, device, malloc } = await simulated();
    // 4 MiB − 32 B pads to exactly two huge pages (DM-3).
    await malloc(4 * MiB - 32, 'ACL_MEM_MALLOC_HUGE_ONLY');
    const { pools } = summarizeDevice(state, device);
    const words = poolWords(createI18n('en').t, 'huge', pools.huge, '4 KiB', prefs);
    expect(words.figures).toBe('4 MiB no longer available to 2 MiB pages · 64 GiB free');
    expect(words.breakdown).toBeUndefined();
  });

  it('normal pages in a split frame: the huge pool counts the whole frame, and says the rest is stranded', async () => {
    const { state, device, malloc } = await simulated();
    await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    const { pools } = summarizeDevice(state, device);
    // 64 KiB + 32 B → 17 × 4 KiB pages in one split 2 MiB frame.
    expect(pools.huge.breakdown).toEqual({ own: 0, otherKinds: 17 * 4096, stranded: 2 * MiB - 17 * 4096 });
    const words = poolWords(createI18n('en').t, 'huge', pools.huge, '4 KiB', prefs);
    expect(words.breakdown).toBe('That is 68 KiB held by other page kinds, 1.93 MiB free but not in whole 2 MiB pages.');
  });
});
