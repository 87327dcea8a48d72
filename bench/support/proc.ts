import { readFileSync } from 'node:fs';

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Resident set of a process in bytes, from /proc (Linux). */
export function rss(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1024;
}

/** Resident set of a process and its anonymous part (RssAnon: heaps and malloc, not mapped files or shared memory), bytes. */
export function rssParts(pid: number): { rss: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon') };
}

/** CPU seconds a process has used so far, all its threads (GC helpers included), user + system. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of those.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Seconds the process's main thread has spent running, and waiting on a run queue for a CPU
 * (runnable, but other work had the cores), from /proc/<pid>/schedstat.
 */
export function mainThreadSchedule(pid: number | undefined): { running: number; waiting: number } {
  if (pid === undefined) return { running: Number.NaN, waiting: Number.NaN };
  const [running, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  return { running: (running ?? Number.NaN) / 1e9, waiting: (waiting ?? Number.NaN) / 1e9 };
}
