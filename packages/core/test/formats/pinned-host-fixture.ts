/**
 * A snapshot with pinned host memory (host_segments / host_traces), for the core tests and the
 * browser's: the figures expected of it are worked out from these literals by the tests.
 */
const MiB = 1024 * 1024;

export const A = 0x7f00_0000_0000;
export const B = 0x7f00_0040_0000;
export const C = 0x7f00_0080_0000;
const frames = [{ filename: 'loader.py', line: 12, name: 'pin_memory' }];

/** Host segments of the final state: A (4 MiB, 1 MiB allocated in it) and C (2 MiB, live before the trace began). */
export const HOST_SEGMENTS = [
  { device: 0, address: A, total_size: 4 * MiB, allocated_size: MiB, active_size: MiB, requested_size: MiB, blocks: [], frames },
  { device: 0, address: C, total_size: 2 * MiB, allocated_size: 0, active_size: 0, requested_size: 0, blocks: [], frames: [] },
];
export const HOST_TRACE = [
  { action: 'segment_alloc', addr: A, size: 4 * MiB, stream: 0, time_us: 110, frames },
  { action: 'alloc', addr: A, size: MiB, stream: 0, time_us: 120, frames },
  { action: 'segment_alloc', addr: B, size: 8 * MiB, stream: 0, time_us: 130, frames },
  { action: 'alloc', addr: B, size: 3 * MiB, stream: 0, time_us: 140, frames },
  { action: 'free_requested', addr: B, size: 3 * MiB, stream: 0, time_us: 150, frames },
  { action: 'free_completed', addr: B, size: 3 * MiB, stream: 0, time_us: 160, frames },
  { action: 'segment_free', addr: B, size: 8 * MiB, stream: 0, time_us: 170, frames },
];
export const DEVICE_TRACE = [
  { action: 'segment_alloc', addr: 0x1_2000_0000, size: 20 * MiB, stream: 0, time_us: 100, frames: [] },
  { action: 'alloc', addr: 0x1_2000_0000, size: 512, stream: 0, time_us: 125, frames: [] },
];

/** The file's data, for writePickle. */
export const PINNED_HOST_DATA = {
  segments: [
    {
      device: 0,
      address: 0x1_2000_0000,
      total_size: 20 * MiB,
      allocated_size: 512,
      active_size: 512,
      requested_size: 512,
      stream: 0,
      segment_type: 'large',
      is_expandable: false,
      frames: [],
      blocks: [
        { address: 0x1_2000_0000, size: 512, requested_size: 512, state: 'active_allocated', frames: [] },
        { address: 0x1_2000_0200, size: 20 * MiB - 512, requested_size: 0, state: 'inactive', frames: [] },
      ],
    },
  ],
  device_traces: [DEVICE_TRACE],
  host_segments: HOST_SEGMENTS,
  host_traces: HOST_TRACE,
};
