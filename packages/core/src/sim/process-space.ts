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
export class ProcessSpace {
  readonly deviceVa: RangeAllocator[];
  readonly pinned = new RangeAllocator(PINNED_HOST_BASE, PINNED_HOST_SIZE);
  readonly pageable = new RangeAllocator(PAGEABLE_BASE, PAGEABLE_SIZE);
  readonly registered = new RangeAllocator(REGISTERED_VA_BASE, REGISTERED_VA_SIZE);
  /** What aclGetRecentErrMsg returns next; reading it clears it. */
  lastError: string | undefined;

  constructor(deviceCount: number) {
    this.deviceVa = Array.from({ length: deviceCount }, (_, device) => new RangeAllocator(deviceWindowBase(device), DEVICE_VA_WINDOW));
  }
}
