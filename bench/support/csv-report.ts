/**
 * What a csv-parse-child run reports to bench/suites/formats-csv.ts over IPC: one table of its
 * fields (all numbers), from which the type and the check of a message follow.
 */
export const CSV_REPORT_FIELDS = [
  'rows',
  'seconds',
  /** User + system, all threads (the collector's included). */
  'cpuSeconds',
  /** heapUsed after a full GC before the read: the base the peaks are measured above. */
  'baseHeap',
  /** Highest heapUsed seen between chunks, above baseHeap (streamed only: the whole read is one call). */
  'sampledPeakHeap',
  'rssBefore',
  /** process.resourceUsage().maxRSS at the end, in bytes. */
  'maxRss',
  /** Heap held after a full GC once the work is done (what it made still reachable), above baseHeap. */
  'retainedHeap',
] as const;

export type ChildReport = { readonly [K in (typeof CSV_REPORT_FIELDS)[number]]: number };

export function isChildReport(message: unknown): message is ChildReport {
  return (
    typeof message === 'object' && message !== null && CSV_REPORT_FIELDS.every((field) => typeof Reflect.get(message, field) === 'number')
  );
}
