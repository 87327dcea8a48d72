import type { FrameTable, HostState } from '@pagelens/core';

/** The selection as the page map sees it: owner ids to outline, and the frames they occupy. */
export interface MapSelection {
  readonly owners: ReadonlySet<number>;
  /** 1 for every frame the selection occupies (length = frame count). */
  readonly frames: Uint8Array;
  readonly frameCount: number;
  /** First frame occupied, for "zoom to selection"; -1 when none. */
  readonly first: number;
}

export interface SelectionRef {
  readonly kind: string;
  readonly id: number;
}

/**
 * Owner ids on this device for a selected object: an allocation or physical memory itself; a
 * handle's memory; a mapping's handle's memory; every mapping of a reservation. A selected frame
 * selects that frame only.
 */
export function selectedOwners(state: HostState, device: number, ref: SelectionRef): number[] {
  const memoryOfHandle = (handleId: number): number[] => {
    const handle = state.handles.get(handleId);
    return handle === undefined ? [] : [handle.memory];
  };
  switch (ref.kind) {
    case 'allocation':
      return state.allocations.get(ref.id)?.device === device ? [ref.id] : [];
    case 'physical':
      return state.physical.get(ref.id)?.device === device ? [ref.id] : [];
    case 'handle':
      return memoryOfHandle(ref.id).filter((id) => state.physical.get(id)?.device === device);
    case 'mapping': {
      const mapping = state.mappings.get(ref.id);
      return mapping === undefined ? [] : memoryOfHandle(mapping.handle).filter((id) => state.physical.get(id)?.device === device);
    }
    case 'reservation': {
      const ids: number[] = [];
      for (const mapping of state.mappings.values()) {
        if (mapping.reservation !== ref.id) continue;
        for (const id of memoryOfHandle(mapping.handle)) if (state.physical.get(id)?.device === device) ids.push(id);
      }
      return ids;
    }
    default:
      return [];
  }
}

/** Frames touched by [start, count] runs of pages (normal) or of frames (huge, giant). */
function markRuns(mask: Uint8Array, runs: readonly number[], perFrame: number): void {
  for (let r = 0; r + 1 < runs.length; r += 2) {
    const start = runs[r] ?? 0;
    const count = runs[r + 1] ?? 0;
    if (count <= 0) continue;
    const first = Math.floor(start / perFrame);
    const last = Math.min(mask.length - 1, Math.floor((start + count - 1) / perFrame));
    mask.fill(1, first, last + 1);
  }
}

export function mapSelection(state: HostState, device: number, table: FrameTable, ref: SelectionRef | undefined): MapSelection | undefined {
  if (ref === undefined) return undefined;
  const frames = new Uint8Array(table.count);
  const owners = new Set<number>();
  if (ref.kind === 'frame') {
    if (ref.id < 0 || ref.id >= table.count) return undefined;
    frames[ref.id] = 1;
  } else {
    for (const id of selectedOwners(state, device, ref)) {
      const object = state.allocations.get(id) ?? state.physical.get(id);
      if (object === undefined) continue;
      owners.add(id);
      markRuns(frames, object.runs, object.pageClass === 'normal' ? table.pagesPerFrame : 1);
    }
    if (owners.size === 0) return undefined;
  }
  const first = frames.indexOf(1);
  let frameCount = 0;
  for (const value of frames) frameCount += value;
  return { owners, frames, frameCount, first };
}
