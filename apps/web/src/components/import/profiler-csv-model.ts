import type { MemoryRecord, OperatorMemory, OperatorMemoryRow } from '@pagelens/core';

/**
 * What the profiler CSV panel draws, computed apart from React: memory_record.csv as one series per
 * (device, component) with its peaks, operator_memory.csv as its largest operators.
 */
const MiB = 1024 * 1024;

export interface CounterSeries {
  /** `${device ?? '-'}/${component}`, stable across renders. */
  readonly key: string;
  readonly device: number | undefined;
  readonly component: string;
  /** µs, as recorded, ascending. */
  readonly t: readonly number[];
  /** Bytes (MB × 2^20); `active` is NaN where the row has none. */
  readonly reserved: readonly number[];
  readonly allocated: readonly number[];
  readonly active: readonly number[];
  readonly peakReserved: number;
  readonly peakAllocated: number;
}

export function counterSeries(record: MemoryRecord): CounterSeries[] {
  const byKey = new Map<string, { device: number | undefined; component: string; rows: MemoryRecord['rows'][number][] }>();
  for (const row of record.rows) {
    const key = `${row.device ?? '-'}/${row.component}`;
    let group = byKey.get(key);
    if (group === undefined) {
      group = { device: row.device, component: row.component, rows: [] };
      byKey.set(key, group);
    }
    group.rows.push(row);
  }
  return [...byKey.entries()].map(([key, group]) => {
    const rows = group.rows.slice().sort((a, b) => a.timestampUs - b.timestampUs);
    const reserved = rows.map((row) => row.reservedMB * MiB);
    const allocated = rows.map((row) => row.allocatedMB * MiB);
    return {
      key,
      device: group.device,
      component: group.component,
      t: rows.map((row) => row.timestampUs),
      reserved,
      allocated,
      active: rows.map((row) => (row.activeMB === undefined ? Number.NaN : row.activeMB * MiB)),
      peakReserved: reserved.reduce((max, value) => Math.max(max, value), 0),
      peakAllocated: allocated.reduce((max, value) => Math.max(max, value), 0),
    };
  });
}

/** The `limit` largest operators, largest first (ties by allocation time), and how many there are. */
export function largestOperators(file: OperatorMemory, limit: number): { rows: OperatorMemoryRow[]; total: number } {
  const rows = file.rows.slice().sort((a, b) => b.sizeKB - a.sizeKB || a.allocationTimeUs - b.allocationTimeUs);
  return { rows: rows.slice(0, limit), total: file.rows.length };
}

/** An SVG path through the points, breaking where a value is missing (NaN). */
export function linePath(xs: readonly number[], ys: readonly number[]): string {
  let path = '';
  let open = false;
  xs.forEach((x, i) => {
    const y = ys[i] ?? Number.NaN;
    if (!Number.isFinite(y) || !Number.isFinite(x)) {
      open = false;
      return;
    }
    path += `${open ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`;
    open = true;
  });
  return path;
}
