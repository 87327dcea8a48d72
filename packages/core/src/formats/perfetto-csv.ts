import type { MemoryRecord } from './ascend-csv.ts';
import type { ChromeTrace, TraceEvent } from './perfetto.ts';

/**
 * torch_npu's profiler `memory_record.csv` as Chrome trace-event JSON for Perfetto: one process per
 * device (Device Type "NPU:n"; rows without a device number share one "host / unknown" process), one
 * counter track per component ("PTA", "GE", …) with `allocated`, `reserved` and `active` bytes as
 * recorded. The profiler writes MB = 2^20 bytes (ascend-csv.ts); its timestamps are µs, as Perfetto's.
 * Nothing is modeled here: the file has no addresses, so there are no pages to show.
 */
const MiB = 1024 * 1024;
const NO_DEVICE_PID = 1000;

export function memoryRecordToChromeTrace(record: MemoryRecord, name = 'memory_record.csv'): ChromeTrace {
  const events: TraceEvent[] = [];
  const named = new Set<number>();
  for (const row of record.rows) {
    const pid = row.device ?? NO_DEVICE_PID;
    if (!named.has(pid)) {
      named.add(pid);
      const label = row.device === undefined ? `host / unknown (${row.deviceType || 'no device'})` : `NPU ${row.device}`;
      events.push({ name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: label } });
    }
    const args: Record<string, number> = {
      allocated: Math.round(row.allocatedMB * MiB),
      reserved: Math.round(row.reservedMB * MiB),
    };
    if (row.activeMB !== undefined) args.active = Math.round(row.activeMB * MiB);
    events.push({ name: `memory ${row.component}`, ph: 'C', ts: row.timestampUs, pid, tid: 0, args });
  }
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    metadata: { source: `PageLens export of torch_npu profiler ${name}`, values: 'bytes as recorded (MB × 2^20); nothing modeled' },
  };
}
