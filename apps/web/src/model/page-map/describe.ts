import { FRAME_BYTES, FRAMES_PER_GIANT, FrameKind, type FrameTable, type HostState, pageOwner } from '@pagelens/core';
import type { Hit } from './hit.ts';

export type FrameKindName = 'free' | 'huge' | 'giant' | 'split';

export function kindName(kind: number | undefined): FrameKindName {
  switch (kind) {
    case FrameKind.huge:
      return 'huge';
    case FrameKind.giant:
      return 'giant';
    case FrameKind.split:
      return 'split';
    default:
      return 'free';
  }
}

/** The object that owns frames or pages: a device allocation (aclrtMalloc…) or physical memory (aclrtMallocPhysical). */
export type OwnerInfo =
  | {
      readonly kind: 'allocation';
      readonly id: number;
      readonly addr: number;
      readonly size: number;
      readonly padded: number;
      readonly fn: string;
      readonly policy: number;
      readonly pageClass: string;
    }
  | { readonly kind: 'physical'; readonly id: number; readonly size: number; readonly memAttr: number; readonly pageClass: string };

export function ownerInfo(state: HostState, id: number): OwnerInfo | undefined {
  const allocation = state.allocations.get(id);
  if (allocation !== undefined) {
    const { addr, size, padded, fn, policy, pageClass } = allocation;
    return { kind: 'allocation', id, addr, size, padded, fn, policy, pageClass };
  }
  const physical = state.physical.get(id);
  if (physical !== undefined)
    return { kind: 'physical', id, size: physical.size, memAttr: physical.memAttr, pageClass: physical.pageClass };
  return undefined;
}

/** Everything the tooltip says about a hovered frame or page. Physical byte ranges are modeled. */
export interface CellInfo {
  readonly frame: number;
  readonly kind: FrameKindName;
  /** Modeled physical bytes [start, end). */
  readonly start: number;
  readonly end: number;
  readonly pagesPerFrame: number;
  /** Bytes of one normal page. */
  readonly pageSize: number;
  /** Normal pages in use (split frames). */
  readonly used: number;
  /** Distinct owners in the frame. */
  readonly owners: number;
  /** The frame's owner (huge, giant, or a split frame held by one allocation), or the page's owner. */
  readonly owner?: OwnerInfo;
  /** Page index at page zoom. */
  readonly page?: number;
  /** Giant pages: the 1 GiB block and this frame's place in it. */
  readonly giant?: { readonly first: number; readonly last: number };
}

/** Distinct non-zero owners of a frame's pages. */
export function frameOwners(table: FrameTable, frame: number): number[] {
  const pages = table.pages.get(frame);
  if (pages === undefined) {
    const owner = table.owner[frame] ?? 0;
    return owner === 0 ? [] : [owner];
  }
  const seen = new Set<number>();
  for (const owner of pages) if (owner !== 0) seen.add(owner);
  return [...seen];
}

export function describeCell(state: HostState, table: FrameTable, pageSize: number, hit: Hit): CellInfo {
  const { frame } = hit;
  const kind = kindName(table.kind[frame]);
  const owners = frameOwners(table, frame);
  const base = {
    frame,
    kind,
    pagesPerFrame: table.pagesPerFrame,
    pageSize,
    used: kind === 'split' ? (table.used[frame] ?? 0) : 0,
    owners: owners.length,
  };
  const giant =
    kind === 'giant'
      ? { first: frame - (frame % FRAMES_PER_GIANT), last: frame - (frame % FRAMES_PER_GIANT) + FRAMES_PER_GIANT - 1 }
      : undefined;
  if (hit.page !== undefined) {
    const start = frame * FRAME_BYTES + hit.page * pageSize;
    const owner = ownerInfo(state, pageOwner(table, frame, hit.page));
    return { ...base, start, end: start + pageSize, page: hit.page, ...(owner === undefined ? {} : { owner }) };
  }
  const single = owners.length === 1 ? ownerInfo(state, owners[0] ?? 0) : undefined;
  return {
    ...base,
    start: frame * FRAME_BYTES,
    end: (frame + 1) * FRAME_BYTES,
    ...(single === undefined ? {} : { owner: single }),
    ...(giant === undefined ? {} : { giant }),
  };
}

/** The owner a click on this cell selects: the page's owner, else the frame's single owner. */
export function clickOwner(table: FrameTable, hit: Hit): number {
  if (hit.page !== undefined) return pageOwner(table, hit.frame, hit.page);
  const owners = frameOwners(table, hit.frame);
  return owners.length === 1 ? (owners[0] ?? 0) : 0;
}
