/**
 * What a csv-parse-child run reports to bench/suites/formats-csv.ts over IPC: one table of its
 * fields (all numbers), from which the type and the check of a message follow.
 */
export const CSV_REPORT_FIELDS = [
  'rows',
  'seconds',
  /** User + system, all threads (the collector's included). */
  'cpuSeconds',
  /** heapUsed after a full GC before the read: the base the collector's trace is measured above. */
  'baseHeap',
  /** arrayBuffers then (typed arrays live outside the heap: the trace columns do). */
  'baseBuffers',
  /** Highest heapUsed + arrayBuffers seen between chunks and after each stage, above baseHeap + baseBuffers. */
  'sampledPeakHeap',
  'rssBefore',
  /** process.resourceUsage().maxRSS at the end, in bytes. */
  'maxRss',
  /** Heap + array buffers held after a full GC once the work is done (what it made still reachable), above the base. */
  'retainedHeap',
] as const;

export type ChildReport = { readonly [K in (typeof CSV_REPORT_FIELDS)[number]]: number };

export function isChildReport(message: unknown): message is ChildReport {
  return (
    typeof message === 'object' && message !== null && CSV_REPORT_FIELDS.every((field) => typeof Reflect.get(message, field) === 'number')
  );
}
