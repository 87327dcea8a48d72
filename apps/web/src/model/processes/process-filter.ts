import type { FrameTable, HostState } from '@pagelens/core';

/**
 * The process filter every view honours (the store's `processFilter`): undefined shows every
 * process, a pid shows that one. Views that list objects hide the others' (log, host buffers,
 * copies); the page map, where processes share the device's frames, dims them instead.
 */
export type ProcessFilter = number | undefined;

/** Whether an object of process `pid` is shown under `filter`. */
export function showsProcess(filter: ProcessFilter, pid: number): boolean {
  return filter === undefined || filter === pid;
}

/** Only the items of the shown process; the same array when the filter shows all. */
export function ofProcess<T extends { readonly pid: number }>(filter: ProcessFilter, items: readonly T[]): readonly T[] {
  return filter === undefined ? items : items.filter((item) => item.pid === filter);
}

/**
 * The owners (allocation and physical-memory ids: the ids the frame table records) of process
 * `pid`, and for each frame whether any of its pages belongs to one of them (1) or not (0).
 */
export interface ProcessFocus {
  readonly pid: number;
  readonly owners: ReadonlySet<number>;
  readonly frames: Uint8Array;
}

export function processOwners(state: HostState, pid: number): Set<number> {
  const owners = new Set<number>();
  for (const allocation of state.allocations.values()) if (allocation.pid === pid) owners.add(allocation.id);
  // Physical memory belongs to whoever holds a handle to it: its maker, and any importer (VM-1).
  for (const handle of state.handles.values()) if (handle.pid === pid) owners.add(handle.memory);
  return owners;
}

/** Frames of `table` that hold memory of the focused owners. */
export function focusFrames(table: FrameTable, owners: ReadonlySet<number>): Uint8Array {
  const frames = new Uint8Array(table.count);
  for (let frame = 0; frame < table.count; frame += 1) {
    if (owners.has(table.owner[frame] ?? 0)) frames[frame] = 1;
  }
  // A split frame shared by several owners names one owner (or none) in owner[]: read its pages.
  for (const [frame, pages] of table.pages) {
    if (frames[frame] === 1 || !table.paged.has(frame)) continue;
    for (const owner of pages) {
      if (owner !== 0 && owners.has(owner)) {
        frames[frame] = 1;
        break;
      }
    }
  }
  return frames;
}

/** The page map's focus for `filter` on one device; undefined while every process is shown. */
export function processFocus(state: HostState, table: FrameTable, filter: ProcessFilter): ProcessFocus | undefined {
  if (filter === undefined) return undefined;
  const owners = processOwners(state, filter);
  return { pid: filter, owners, frames: focusFrames(table, owners) };
}

/** The process after `current` among `pids` (the runs, in the panel's order), then all again. */
export function nextProcessFilter(pids: readonly number[], current: ProcessFilter): ProcessFilter {
  if (pids.length === 0) return undefined;
  if (current === undefined) return pids[0];
  const at = pids.indexOf(current);
  return at < 0 ? pids[0] : pids[at + 1];
}

/** The runs whose process is in the model now: not those from before a host reset. */
export function currentRuns<R extends { readonly pid: number; readonly beforeReset?: true }>(runs: readonly R[]): readonly R[] {
  return runs.filter((run) => run.beforeReset !== true);
}

/**
 * The filter once the agent's list of runs changed: a reset took away the process of a run, and
 * the new host numbers its processes from the start again, so a filter on such a run would land on
 * an unrelated process; it shows all instead. A filter on a process that is no run is kept.
 */
export function filterAfterRuns(
  filter: ProcessFilter,
  runs: readonly { readonly pid: number; readonly beforeReset?: true }[],
): ProcessFilter {
  if (filter === undefined) return undefined;
  const gone = runs.some((run) => run.pid === filter && run.beforeReset === true);
  const current = runs.some((run) => run.pid === filter && run.beforeReset !== true);
  return gone && !current ? undefined : filter;
}
