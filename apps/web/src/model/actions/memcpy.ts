import { aclrtMemcpyKind, type Hex, type HostState, toHex, type WireArgs } from '@pagelens/core';
import { liveObjects } from './live-objects.ts';

const K = aclrtMemcpyKind.byName;

/** A buffer a copy can read or write: device allocations, VMM-mapped ranges, host buffers (CP-2). */
export interface CopyBuffer {
  /** Stable key for a select: "allocation:12". */
  readonly key: string;
  readonly side: 'host' | 'device';
  readonly kind: 'allocation' | 'mapping' | 'host';
  readonly id: number;
  readonly addr: number;
  readonly size: number;
  readonly device?: number;
  /** Host buffers: pinned memory (MallocHost, or registered PINNED) DMA-copies directly (HM-2, HM-5). */
  readonly pinned?: boolean;
  /** The function that made it. */
  readonly fn: string;
}

/** The process's buffers, newest first, at most `limit` (only the newest of each kind are built). */
export function copyBuffers(state: HostState, pid: number | undefined, limit = 300): CopyBuffer[] {
  const found: CopyBuffer[] = [];
  for (const object of liveObjects(state, ['allocation', 'mapping', 'host'], pid, limit)) {
    const side = object.pick === 'host' ? 'host' : 'device';
    const kind = object.pick === 'host' ? 'host' : object.pick === 'mapping' ? 'mapping' : 'allocation';
    const buffer = {
      key: `${kind}:${object.id}`,
      side,
      kind,
      id: object.id,
      addr: Number.parseInt(object.value.slice(2), 16),
      size: object.size ?? 0,
      fn: object.tag,
    } as const;
    found.push({
      ...buffer,
      ...(object.device === undefined ? {} : { device: object.device }),
      ...(object.memory === undefined ? {} : { pinned: object.memory === 'pinned' }),
    });
  }
  return found;
}

/** CP-2: the kind that names the direction of the pair (HOST_TO_HOST 0 … DEVICE_TO_DEVICE 3). */
export function suggestKind(dst: Pick<CopyBuffer, 'side'>, src: Pick<CopyBuffer, 'side'>): number {
  if (src.side === 'host') return dst.side === 'host' ? K.ACL_MEMCPY_HOST_TO_HOST : K.ACL_MEMCPY_HOST_TO_DEVICE;
  return dst.side === 'host' ? K.ACL_MEMCPY_DEVICE_TO_HOST : K.ACL_MEMCPY_DEVICE_TO_DEVICE;
}

/** The count a person most likely wants: all of the smaller buffer. */
export function defaultCount(dst: Pick<CopyBuffer, 'size'>, src: Pick<CopyBuffer, 'size'>): number {
  return Math.min(dst.size, src.size);
}

/** The kinds aclrtMemcpy(Async) accept (CP-1: 6 and 7 are refused). */
export const COPY_KINDS: readonly string[] = aclrtMemcpyKind.names.filter((name) => (aclrtMemcpyKind.valueOf(name) ?? 99) <= 5);

export interface CopyRequest {
  readonly dst: CopyBuffer;
  readonly src: CopyBuffer;
  /** Bytes. */
  readonly count: number;
  readonly kind: number;
  /** undefined: synchronous aclrtMemcpy; otherwise the aclrtStream handle for aclrtMemcpyAsync. */
  readonly stream?: Hex;
}

/** The aclrtMemcpy / aclrtMemcpyAsync call for a request; destMax is the destination's size. */
export function memcpyCall(
  request: CopyRequest,
): { fn: 'aclrtMemcpy'; args: WireArgs<'aclrtMemcpy'> } | { fn: 'aclrtMemcpyAsync'; args: WireArgs<'aclrtMemcpyAsync'> } {
  const args = {
    dst: toHex(request.dst.addr),
    destMax: request.dst.size,
    src: toHex(request.src.addr),
    count: request.count,
    kind: request.kind,
  };
  return request.stream === undefined ? { fn: 'aclrtMemcpy', args } : { fn: 'aclrtMemcpyAsync', args: { ...args, stream: request.stream } };
}

/** Why a copy will be slow or refused, known before it is made (HM-1, CP-1). */
export function copyNotes(request: Omit<CopyRequest, 'kind'>): ('pageable' | 'too-large' | 'same')[] {
  const notes: ('pageable' | 'too-large' | 'same')[] = [];
  if (request.dst.key === request.src.key) notes.push('same');
  if (request.count > request.dst.size || request.count > request.src.size) notes.push('too-large');
  const host = request.src.side === 'host' ? request.src : request.dst.side === 'host' ? request.dst : undefined;
  if (host !== undefined && host.pinned === false && request.src.side !== request.dst.side) notes.push('pageable');
  return notes;
}
