import { ASCEND_910B2 } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { rateSpread } from './rate-spread.ts';

describe('rateSpread (CP-3)', () => {
  const { hostLinkBytesPerSec, pinnedEfficiency, pageableMin, pageableMax } = ASCEND_910B2.bandwidth;
  const pinned = hostLinkBytesPerSec * pinnedEfficiency;

  it('a simulated pageable copy: drawn between pageableMin and pageableMax × the pinned rate', () => {
    expect(rateSpread('pageable-staged', ASCEND_910B2, false)).toEqual({ low: pinned * pageableMin, high: pinned * pageableMax });
    expect(pageableMin).toBeLessThan(pageableMax);
  });

  it('pinned copies, and any copy a real runtime timed, have no modeled spread', () => {
    expect(rateSpread('pinned', ASCEND_910B2, false)).toBeUndefined();
    expect(rateSpread('pageable-staged', ASCEND_910B2, true)).toBeUndefined();
    expect(rateSpread('pageable-staged', undefined, false)).toBeUndefined();
  });
});
