import { FRAME_BYTES, type HostState, type PageClass } from '@pagelens/core';
import type { Backing } from './walk-model.ts';

/** Where a translated address lands in the device's physical memory, as the simulator placed it (modeled). */
export type PhysicalPlace =
  | {
      readonly kind: 'placed';
      readonly device: number;
      readonly pageClass: PageClass;
      /** The 2 MiB frame holding the address. */
      readonly frame: number;
      /** Normal pages: the 4 KiB page inside that frame (0 … pagesPerFrame − 1). */
      readonly pageInFrame?: number;
      /** Giant pages: the first and last of the 512 frames the 1 GiB page spans. */
      readonly span?: readonly [number, number];
      /** Byte address in the device's physical memory (frame × 2 MiB + offset), modeled. */
      readonly physical: number;
    }
  /** The backend records no placement (a real runtime does not say which frames back memory). */
  | { readonly kind: 'unobserved' };

/** The `index`-th unit of a run list ([start, count] pairs), or undefined past its end. */
function unitAt(runs: readonly number[], index: number): number | undefined {
  let left = index;
  for (let r = 0; r + 1 < runs.length; r += 2) {
    const start = runs[r] ?? 0;
    const count = runs[r + 1] ?? 0;
    if (left < count) return start + left;
    left -= count;
  }
  return undefined;
}

/**
 * The end of the translation walk: the physical page (and frame) that backs `va`. Runs count 2 MiB
 * frames for huge and giant pages (512 frames per giant page) and global 4 KiB page numbers for
 * normal pages; the page the address falls in is the same index into them as into the VA range.
 * Pure; modeled placement (the driver does not say which frames back an allocation).
 */
export function physicalPlace(state: HostState, backing: Backing, va: number): PhysicalPlace | undefined {
  const memory = memoryOf(state, backing);
  if (memory === undefined) return undefined;
  const { runs, pageClass, pageSize, device, start } = memory;
  if (runs.length === 0) return { kind: 'unobserved' };
  const page = Math.floor((va - start) / pageSize);
  const offset = (va - start) % pageSize;
  const pagesPerFrame = state.devices[device]?.frames.pagesPerFrame ?? FRAME_BYTES / pageSize;
  if (pageClass === 'normal') {
    const global = unitAt(runs, page);
    if (global === undefined) return undefined;
    const frame = Math.floor(global / pagesPerFrame);
    return { kind: 'placed', device, pageClass, frame, pageInFrame: global % pagesPerFrame, physical: global * pageSize + offset };
  }
  const framesPerPage = Math.max(1, pageSize / FRAME_BYTES);
  const first = unitAt(runs, page * framesPerPage);
  if (first === undefined) return undefined;
  const frame = first + Math.floor(offset / FRAME_BYTES);
  return {
    kind: 'placed',
    device,
    pageClass,
    frame,
    ...(framesPerPage > 1 ? { span: [first, first + framesPerPage - 1] as const } : {}),
    physical: first * FRAME_BYTES + offset,
  };
}

function memoryOf(
  state: HostState,
  backing: Backing,
): { runs: readonly number[]; pageClass: PageClass; pageSize: number; device: number; start: number } | undefined {
  switch (backing.kind) {
    case 'allocation': {
      const a = state.allocations.get(backing.id);
      return a === undefined ? undefined : { runs: a.runs, pageClass: a.pageClass, pageSize: a.pageSize, device: a.device, start: a.addr };
    }
    case 'ipcImport': {
      // IP-3: the exporter's pages, reached from the import's own address.
      const a = state.allocations.get(backing.id);
      return a === undefined
        ? undefined
        : { runs: a.runs, pageClass: a.pageClass, pageSize: a.pageSize, device: a.device, start: backing.start };
    }
    case 'mapping': {
      // VM-6: a mapping binds the whole handle from offset 0, so page i of the mapping is page i of the memory.
      const handle = state.handles.get(backing.handleId);
      const p = handle === undefined ? undefined : state.physical.get(handle.memory);
      return p === undefined
        ? undefined
        : { runs: p.runs, pageClass: p.pageClass, pageSize: p.pageSize, device: p.device, start: backing.start };
    }
    case 'reserved':
    case 'hole':
      return undefined;
  }
}
