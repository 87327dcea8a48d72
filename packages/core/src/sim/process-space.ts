import {
  DEVICE_VA_WINDOW,
  deviceWindowBase,
  PAGEABLE_BASE,
  PAGEABLE_SIZE,
  PINNED_HOST_BASE,
  PINNED_HOST_SIZE,
  REGISTERED_VA_BASE,
  REGISTERED_VA_SIZE,
} from './layout.ts';
import { RangeAllocator } from './range-allocator.ts';

/**
 * The simulator's private bookkeeping for one process: which virtual addresses are taken in each
 * window, and the last error message (aclGetRecentErrMsg). Not part of the replicated state:
 * events record the addresses chosen, so replay never needs these allocators.
 */
/** Device address windows are handed out in whole 4 KiB pages (every device mapping is page-sized). */
const DEVICE_VA_UNIT = 4096;

export class ProcessSpace {
  readonly deviceVa: RangeAllocator[];
  readonly pinned = new RangeAllocator(PINNED_HOST_BASE, PINNED_HOST_SIZE, 64);
  readonly pageable = new RangeAllocator(PAGEABLE_BASE, PAGEABLE_SIZE, 16);
  readonly registered = new RangeAllocator(REGISTERED_VA_BASE, REGISTERED_VA_SIZE, 4096);
  /** What aclGetRecentErrMsg returns next; reading it clears it. */
  lastError: string | undefined;

  constructor(deviceCount: number) {
    this.deviceVa = Array.from(
      { length: deviceCount },
      (_, device) => new RangeAllocator(deviceWindowBase(device), DEVICE_VA_WINDOW, DEVICE_VA_UNIT),
    );
  }
}
