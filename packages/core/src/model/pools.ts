import { FRAME_BYTES } from '../profiles/profile.ts';
import type { PoolFigures } from './events.ts';
import { freeGiantBlocks, freeNormalPages } from './placement.ts';
import type { DeviceState } from './state.ts';

const GIANT_BYTES = 1024 ** 3;

export interface DevicePools {
  /** Normal pages: what NORMAL_ONLY could still get. */
  readonly normal: PoolFigures;
  /** 2 MiB huge pages: free frames. */
  readonly huge: PoolFigures;
  /** 1 GiB giant pages: wholly free aligned blocks (zero when the device has none). */
  readonly giant: PoolFigures;
  /** The whole device memory, huge and normal together. */
  readonly all: PoolFigures;
}

/**
 * The device's page pools as aclrtGetMemInfo reports them (DM-15). How the driver splits one HBM
 * between its pools is not public: here every pool draws on the same frames, so each pool's free
 * figure is what an allocation of that kind could still get. This split is *modeled*.
 */
export function devicePools(device: DeviceState): DevicePools {
  const { frames, profile } = device;
  const capacity = frames.count * FRAME_BYTES;
  const normalFree = freeNormalPages(frames) * profile.normalPageSize;
  const giantTotal = profile.features.giantPages ? Math.floor(frames.count / 512) * GIANT_BYTES : 0;
  return {
    normal: { free: normalFree, total: capacity },
    huge: { free: frames.free.count * FRAME_BYTES, total: capacity },
    giant: { free: profile.features.giantPages ? freeGiantBlocks(frames) * GIANT_BYTES : 0, total: giantTotal },
    all: { free: normalFree, total: capacity },
  };
}

/** Bytes of device memory in use, whatever the page kind. */
export function usedBytes(device: DeviceState): number {
  const { frames, profile } = device;
  return (frames.hugeFrames + frames.giantFrames) * FRAME_BYTES + frames.normalPagesUsed * profile.normalPageSize;
}
