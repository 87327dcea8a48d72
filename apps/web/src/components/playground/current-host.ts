import type { CurrentHost } from '@pagelens/core';
import type { Timeline } from '../../model/timeline.ts';

/**
 * What the replica says of the host a scenario would run on: each device's profile, and the calls
 * since the host's last reset (those folded out of the held history included, see callsBefore).
 */
export function currentHostOf(timeline: Timeline): CurrentHost {
  return {
    profiles: timeline.live.devices.map((device) => device.profile.name),
    callsSinceReset: timeline.callsBefore + timeline.calls.length,
  };
}
