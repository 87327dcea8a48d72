import type { CopyPath, DeviceProfile } from '@pagelens/core';

/** The range, in bytes per second, that the simulator draws a copy's rate from. */
export interface RateSpread {
  readonly low: number;
  readonly high: number;
}

/**
 * CP-3: a pageable copy stages through a bounce buffer, and the simulator draws its rate for each
 * copy between pageableMin and pageableMax × the pinned rate (seeded). The same 64 MiB copy can
 * show 40.8 GB/s once and 16.7 GB/s the next time; that is this jitter, not a measurement. Pinned
 * and device copies run at one fixed modeled rate, and a real runtime's durations are measured, so
 * neither has a spread to mention.
 */
export function rateSpread(path: CopyPath, profile: DeviceProfile | undefined, observed: boolean): RateSpread | undefined {
  if (path !== 'pageable-staged' || profile === undefined || observed) return undefined;
  const { hostLinkBytesPerSec, pinnedEfficiency, pageableMin, pageableMax } = profile.bandwidth;
  const pinned = hostLinkBytesPerSec * pinnedEfficiency;
  return { low: pinned * pageableMin, high: pinned * pageableMax };
}
