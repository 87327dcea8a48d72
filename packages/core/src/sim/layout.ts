import { GiB, TiB } from '../units/bytes.ts';

/**
 * Where simulated addresses live, after the driver's SVM layout (RULES.md "Device VA layout",
 * anchors H10), so that simulated pointers look like real ones. Windows not given by a source are
 * marked modeled.
 */
export const DEVICE_VA_BASE = 16 * TiB;
/** Each device has a 128 GiB window: device d starts at 16 TiB + d × 128 GiB. */
export const DEVICE_VA_WINDOW = 128 * GiB;
/** aclrtReserveMemAddress expectPtr must lie in [16 TiB, 24 TiB) (VM-5). */
export const EXPECT_PTR_MIN = 16 * TiB;
export const EXPECT_PTR_MAX = 24 * TiB;
/** Pinned host memory: a 1 TiB window at 7 TiB. */
export const PINNED_HOST_BASE = 7 * TiB;
export const PINNED_HOST_SIZE = TiB;
/** Device addresses of registered host memory (modeled: the driver's choice is not published). */
export const REGISTERED_VA_BASE = 12 * TiB;
export const REGISTERED_VA_SIZE = TiB;
/** Pageable memory from malloc: the top of a Linux process's mmap area (modeled). */
export const PAGEABLE_BASE = 0x7f00_0000_0000;
export const PAGEABLE_SIZE = 4 * TiB;
/** Opaque runtime objects (streams, memory handles) look like heap pointers (modeled). */
export const OPAQUE_BASE = 0x5500_0000_0000;
export const OPAQUE_STRIDE = 0x100;
/** Shareable handle tokens (modeled). */
export const SHAREABLE_BASE = 0x5348_0000_0000;

export function deviceWindowBase(device: number): number {
  return DEVICE_VA_BASE + device * DEVICE_VA_WINDOW;
}

/** The device whose VA window holds `addr`, or -1. */
export function deviceOfAddress(addr: number, deviceCount: number): number {
  if (addr < DEVICE_VA_BASE) return -1;
  const device = Math.floor((addr - DEVICE_VA_BASE) / DEVICE_VA_WINDOW);
  return device < deviceCount ? device : -1;
}
