import type { TraceSummary } from '@pagelens/core';
import type { CounterSeries } from './profiler-csv-model.ts';

/** A summarised trace (core trace-summary.ts) as the counter chart's series: one per device, x in entries. */
export function summarySeries(summary: TraceSummary): CounterSeries[] {
  return summary.devices
    .filter((device) => device.entries > 0)
    .map((device) => ({
      key: `${device.device}/trace`,
      device: device.device,
      component: 'trace',
      t: device.allocatedMax.map((_, bucket) => bucket * device.bucketEntries),
      reserved: device.reservedMax,
      allocated: device.allocatedMax,
      active: device.allocatedMax.map(() => Number.NaN),
      peakReserved: device.peakReserved.bytes,
      peakAllocated: device.peakAllocated.bytes,
    }));
}
