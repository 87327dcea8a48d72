import { aclrtMemcpyKind } from '../acl/enums.ts';
import { ACL_ERROR_RT_PARAM_INVALID } from '../acl/errors.ts';
import type { CopyMode, CopyPath, Reason } from '../model/events.ts';
import { reason } from '../model/reasons.ts';
import type { DeviceState, Stream } from '../model/state.ts';
import { type Text, text } from '../texts/table.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, type OpResult, type SimContext } from './context.ts';
import { foreignStream } from './ops-context.ts';
import { liveStream, resolveStream } from './ops-device.ts';
import { hostBufferAt } from './ops-host.ts';

const K = aclrtMemcpyKind.byName;
/** Host memcpy rate (modeled; only host-to-host copies use it). */
const HOST_MEMCPY_BYTES_PER_SEC = 10e9;

export type Region =
  | { readonly side: 'device'; readonly device: number; readonly id: number }
  | { readonly side: 'host'; readonly pinned: boolean; readonly id: number };

/** What memory [at, at + count) is (CP-2, modeled range checks); the text of why when it is none. */
export function region(context: SimContext, hex: string, count: number, role: string): Region | Text {
  const at = address(hex);
  if (at === 0) return text('null-arg', { name: role });
  const end = at + count;
  for (const id of context.process.allocByAddr.values()) {
    const a = context.state.allocations.get(id);
    if (a === undefined || at < a.addr || at >= a.addr + a.size) continue;
    if (end > a.addr + a.size) return text('region-past-allocation', { role, ptr: hex, bytes: count, size: a.size });
    return { side: 'device', device: a.device, id };
  }
  for (const id of context.process.importByAddr.values()) {
    const item = context.state.ipcImports.get(id);
    if (item === undefined || at < item.addr || at >= item.addr + item.size) continue;
    if (!context.state.allocations.has(item.source)) return text('region-import-freed', { role, ptr: hex });
    if (end > item.addr + item.size) return text('region-past-import', { role, ptr: hex, bytes: count, size: item.size });
    return { side: 'device', device: item.device, id: item.id };
  }
  for (const m of context.state.mappings.values()) {
    if (m.pid !== context.pid || at < m.addr || at >= m.addr + m.size) continue;
    if (end > m.addr + m.size) return text('region-past-mapping', { role, ptr: hex, bytes: count, size: m.size });
    return { side: 'device', device: m.device, id: m.id };
  }
  const buffer = hostBufferAt(context, at);
  if (buffer !== undefined) {
    if (end > buffer.addr + buffer.size) return text('region-past-host', { role, ptr: hex, bytes: count, size: buffer.size });
    return { side: 'host', pinned: buffer.memory === 'pinned' || buffer.registration?.pinned === true, id: buffer.id };
  }
  for (const buffer of context.state.hostBuffers.values()) {
    const r = buffer.registration;
    if (buffer.pid === context.pid && r?.mapped === true && !r.vaConsistent && at >= r.devPtr && at < r.devPtr + buffer.size) {
      return text('region-registered-device', { role, ptr: hex });
    }
  }
  return text('region-unknown', { role, ptr: hex });
}

/** A side of a copy, as a text: "host" and "device" in the UI's language. */
const SIDE_TEXTS = { host: 'side-host', device: 'side-device' } as const;

interface Route {
  readonly path: CopyPath;
  readonly device: number;
  readonly link: string;
  readonly bytesPerSec: number;
  readonly stages: number;
  readonly reasons: Reason[];
}

const gbps = (bytesPerSec: number): string => (bytesPerSec / 1e9).toFixed(1);

function route(context: SimContext, dst: Region, src: Region, count: number, kind: number): Route | Text {
  const devices = context.state.devices;
  const profileOf = (id: number): DeviceState | undefined => devices[id];
  if (src.side === 'host' && dst.side === 'host') {
    return {
      path: 'host',
      device: context.process.currentDevice,
      link: 'host',
      bytesPerSec: HOST_MEMCPY_BYTES_PER_SEC,
      stages: 0,
      reasons: [reason('copy-host', ['CP-2'], { rate: gbps(HOST_MEMCPY_BYTES_PER_SEC) })],
    };
  }
  if (src.side === 'device' && dst.side === 'device') {
    const device = profileOf(src.device);
    if (device === undefined) return text('copy-unknown-device');
    if (src.device === dst.device) {
      // A copy inside one device reads and writes device memory: half its bandwidth each way (modeled).
      const rate = device.profile.bandwidth.deviceBytesPerSec / 2;
      return {
        path: 'device',
        device: src.device,
        link: `d${src.device}:d2d`,
        bytesPerSec: rate,
        stages: 0,
        reasons: [reason('copy-device', ['CP-3'], { rate: gbps(rate) })],
      };
    }
    const current = context.process.currentDevice;
    const peer = current === src.device ? dst.device : src.device;
    if (!(devices[current]?.peers.has(peer) ?? false)) {
      return text('copy-needs-peer', { src: src.device, dst: dst.device, current, peer });
    }
    const rate = device.profile.bandwidth.hostLinkBytesPerSec * device.profile.bandwidth.pinnedEfficiency;
    return {
      path: 'peer',
      device: src.device,
      link: `d${src.device}:peer`,
      bytesPerSec: rate,
      stages: 0,
      reasons: [reason('copy-peer', ['CP-3'], { src: src.device, dst: dst.device, rate: gbps(rate) })],
    };
  }
  const deviceSide = src.side === 'device' ? src : dst.side === 'device' ? dst : undefined;
  const hostSide = src.side === 'host' ? src : dst.side === 'host' ? dst : undefined;
  if (deviceSide?.side !== 'device' || hostSide?.side !== 'host') return text('copy-unreachable');
  const device = profileOf(deviceSide.device);
  if (device === undefined) return text('copy-unknown-device');
  const { hostLinkBytesPerSec, pinnedEfficiency, pageableMin, pageableMax, stagingChunkBytes } = device.profile.bandwidth;
  const pinnedRate = hostLinkBytesPerSec * pinnedEfficiency;
  const direction = src.side === 'host' ? 'h2d' : 'd2h';
  const link = `d${deviceSide.device}:${direction}`;
  if (hostSide.pinned && kind !== K.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
    return {
      path: 'pinned',
      device: deviceSide.device,
      link,
      bytesPerSec: pinnedRate,
      stages: 0,
      reasons: [reason('copy-pinned', ['HM-2', 'CP-3'], { rate: gbps(pinnedRate) })],
    };
  }
  // HM-1: pageable memory goes through a staging buffer; its rate wanders (CP-3, seeded jitter).
  const rate = pinnedRate * context.host.rng.between(pageableMin, pageableMax);
  const stages = Math.ceil(count / stagingChunkBytes);
  return {
    path: 'pageable-staged',
    device: deviceSide.device,
    link,
    bytesPerSec: rate,
    stages,
    reasons: [reason('copy-pageable', ['HM-1', 'CP-3'], { stages, rate: gbps(rate) })],
  };
}

/** CP-1, CP-2: the direction a kind demands, checked against the memory the pointers are in. */
function checkKind(kind: number, dst: Region, src: Region): Text | undefined {
  const expected: Record<number, [Region['side'], Region['side']] | undefined> = {
    [K.ACL_MEMCPY_HOST_TO_HOST]: ['host', 'host'],
    [K.ACL_MEMCPY_HOST_TO_DEVICE]: ['host', 'device'],
    [K.ACL_MEMCPY_DEVICE_TO_HOST]: ['device', 'host'],
    [K.ACL_MEMCPY_DEVICE_TO_DEVICE]: ['device', 'device'],
    [K.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE]: ['host', 'device'],
  };
  if (kind === K.ACL_MEMCPY_DEFAULT) return undefined;
  const sides = expected[kind];
  if (sides === undefined) return text('copy-kind-unknown', { kind });
  if (sides[0] !== src.side || sides[1] !== dst.side) {
    const [from, to] = sides;
    return text('copy-kind-sides', {
      kind: aclrtMemcpyKind.nameOf(kind) ?? kind,
      from: SIDE_TEXTS[from],
      to: SIDE_TEXTS[to],
      srcSide: SIDE_TEXTS[src.side],
      dstSide: SIDE_TEXTS[dst.side],
    });
  }
  return undefined;
}

interface CopyRequest {
  readonly fn: 'aclrtMemcpy' | 'aclrtMemcpyAsync' | 'aclrtMemcpy2d' | 'aclrtMemcpy2dAsync' | 'aclrtMemcpyBatch' | 'aclrtMemcpyBatchAsync';
  readonly dst: string;
  readonly destMax: number;
  readonly src: string;
  /** Bytes moved. */
  readonly count: number;
  readonly kind: number;
  readonly stream?: string;
  /** Bytes each side's range spans, when it is not `count` (a 2D copy's rows and their pitch, CP-9). */
  readonly spans?: { readonly dst: number; readonly src: number };
}

const ASYNC_COPIES: ReadonlySet<CopyRequest['fn']> = new Set(['aclrtMemcpyAsync', 'aclrtMemcpy2dAsync', 'aclrtMemcpyBatchAsync']);

/** A copy that passed its checks: what it moves, where, and on which stream. */
export interface PlannedCopy {
  readonly request: CopyRequest;
  readonly dst: Region;
  readonly src: Region;
  readonly path: Route;
  readonly stream: Stream | undefined;
  readonly profile: DeviceState['profile'];
}

/** The checks of one copy (CP-1, CP-2, CX-3), changing nothing; a failure, or nothing to do for 0 bytes. */
export function planCopy(context: SimContext, request: CopyRequest): PlannedCopy | OpResult<never> {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const { fn, count, destMax, kind } = request;
  if (
    kind === K.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE ||
    kind === K.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE ||
    kind < 0 ||
    kind > K.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE
  ) {
    return invalid(text('copy-kind-rejected', { kind: aclrtMemcpyKind.nameOf(kind) ?? kind, fn }));
  }
  if (count > destMax) return invalid(text('copy-count-over', { n: count, destMax }));
  const stream = request.stream === undefined ? undefined : resolveStream(context, request.stream);
  if (request.stream !== undefined && stream === undefined)
    return fail(ACL_ERROR_RT_PARAM_INVALID, text('stream-not-live', { stream: request.stream }));
  const foreign = stream === undefined ? undefined : foreignStream(context, stream, fn);
  if (foreign !== undefined) return foreign;
  if (count === 0) return done();
  const dst = region(context, request.dst, request.spans?.dst ?? count, 'dst');
  if ('code' in dst) return invalid(dst);
  const src = region(context, request.src, request.spans?.src ?? count, 'src');
  if ('code' in src) return invalid(src);
  const kindProblem = checkKind(kind, dst, src);
  if (kindProblem !== undefined) return invalid(kindProblem);
  const path = route(context, dst, src, count, kind);
  if ('code' in path) return invalid(path);
  return { request, dst, src, path, stream, profile: context.state.devices[path.device]?.profile ?? device.profile };
}

export function isPlanned(value: PlannedCopy | OpResult<never>): value is PlannedCopy {
  return 'request' in value;
}

/** Queues a planned copy on the link and its stream (CP-4, HM-3) and records it. */
export function emitCopy(context: SimContext, planned: PlannedCopy): readonly Reason[] {
  const { request, dst, src, path, stream, profile } = planned;
  const now = context.state.time;
  const linkFree = context.host.linkFreeAt.get(path.link) ?? 0;
  const streamFree = stream?.busyUntil ?? 0;
  const start = Math.max(now, linkFree, streamFree);
  const end = start + profile.bandwidth.copyLatencyNs + Math.ceil((request.count / path.bytesPerSec) * 1e9);
  const reasons = [...path.reasons];
  if (start > now)
    reasons.push(reason('copy-waits', ['CP-4'], { waitNs: start - now, resource: streamFree >= linkFree ? 'stream' : 'link' }));
  let mode: CopyMode = 'sync';
  if (ASYNC_COPIES.has(request.fn)) {
    // HM-3: any pageable host side (a host-to-host copy has two) makes the call wait for the copy.
    const pageableSide = [src, dst].some((side) => side.side === 'host' && !side.pinned);
    const pageable = path.path === 'pageable-staged' || pageableSide;
    mode = pageable ? 'async-blocking' : 'async';
    if (pageable) reasons.push(reason('copy-blocks', ['HM-3']));
  }
  context.host.linkFreeAt.set(path.link, end);
  context.emit({
    kind: 'copy',
    pid: context.pid,
    id: context.host.newId(),
    fn: request.fn,
    memcpyKind: request.kind,
    dst: address(request.dst),
    src: address(request.src),
    bytes: request.count,
    device: path.device,
    ...(stream === undefined ? {} : { stream: stream.id }),
    mode,
    path: path.path,
    submit: now,
    start,
    end,
    bytesPerSec: path.bytesPerSec,
    stages: path.stages,
    reasons,
  });
  return reasons;
}

function copy(context: SimContext, request: CopyRequest): OpResult<never> {
  const planned = planCopy(context, request);
  if (!isPlanned(planned)) return planned;
  return { ret: 0, reasons: emitCopy(context, planned) };
}

export const aclrtMemcpy: Op<'aclrtMemcpy'> = (context, { dst, destMax, src, count, kind }) =>
  copy(context, { fn: 'aclrtMemcpy', dst, destMax, src, count, kind });

/** CP-4, HM-3: queued on the stream; a pageable host side makes it block until done. */
export const aclrtMemcpyAsync: Op<'aclrtMemcpyAsync'> = (context, { dst, destMax, src, count, kind, stream }) =>
  copy(context, { fn: 'aclrtMemcpyAsync', dst, destMax, src, count, kind, stream });

export const aclrtMemset: Op<'aclrtMemset'> = (context, { devPtr, maxCount, value, count }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (count > maxCount) return invalid(text('memset-count-over', { n: count, maxCount }));
  if (count === 0) return done();
  const target = region(context, devPtr, count, 'devPtr');
  if ('code' in target) return invalid(target);
  if (target.side === 'host' && !target.pinned) return invalid(text('memset-malloc', { devPtr }));
  context.emit({
    kind: 'memset',
    pid: context.pid,
    addr: address(devPtr),
    count,
    value,
    device: target.side === 'device' ? target.device : device.id,
  });
  return done();
};

/**
 * CP-9: a 2D copy moves `height` rows of `width` bytes, each row `dpitch` (`spitch`) bytes after
 * the one before. The simulator takes the kinds the guide documents: host-to-device and
 * device-to-host for aclrtMemcpy2d, and device-to-device too for the async form (the ACL layer's
 * code would pass D2D and DEFAULT on to the runtime as well).
 */
function copy2d(
  context: SimContext,
  fn: 'aclrtMemcpy2d' | 'aclrtMemcpy2dAsync',
  args: { dst: string; dpitch: number; src: string; spitch: number; width: number; height: number; kind: number; stream?: string },
): OpResult<never> {
  const { dst, dpitch, src, spitch, width, height, kind } = args;
  const kinds =
    fn === 'aclrtMemcpy2d'
      ? [K.ACL_MEMCPY_HOST_TO_DEVICE, K.ACL_MEMCPY_DEVICE_TO_HOST]
      : [K.ACL_MEMCPY_HOST_TO_DEVICE, K.ACL_MEMCPY_DEVICE_TO_HOST, K.ACL_MEMCPY_DEVICE_TO_DEVICE];
  if (!kinds.includes(kind)) {
    const names = kinds.map((value) => aclrtMemcpyKind.nameOf(value)).join(', ');
    return invalid(text('copy2d-kind', { fn, names, kind: aclrtMemcpyKind.nameOf(kind) ?? kind }));
  }
  if (address(dst) === 0 || address(src) === 0)
    return invalid(text('null-arg-rule', { name: address(dst) === 0 ? 'dst' : 'src', rule: 'CP-9' }));
  if (width > dpitch || width > spitch)
    return invalid(
      text('copy2d-width', { width, pitchName: width > dpitch ? 'dpitch' : 'spitch', pitch: width > dpitch ? dpitch : spitch }),
    );
  // Zero rows or columns move nothing (what the runtime answers is not documented).
  if (width === 0 || height === 0) return done();
  const spans = { dst: (height - 1) * dpitch + width, src: (height - 1) * spitch + width };
  return copy(context, {
    fn,
    dst,
    destMax: width * height,
    src,
    count: width * height,
    kind,
    spans,
    ...(args.stream === undefined ? {} : { stream: args.stream }),
  });
}

export const aclrtMemcpy2d: Op<'aclrtMemcpy2d'> = (context, args) => copy2d(context, 'aclrtMemcpy2d', args);

/** CP-9, HM-3: queued on the stream; a pageable host side makes it block until done. */
export const aclrtMemcpy2dAsync: Op<'aclrtMemcpy2dAsync'> = (context, args) => copy2d(context, 'aclrtMemcpy2dAsync', args);

/**
 * CP-8: aclrtMemset queued on a stream. The value is written when the stream reaches it; the
 * simulator models no time for it (memory contents are not modeled either).
 */
export const aclrtMemsetAsync: Op<'aclrtMemsetAsync'> = (context, { devPtr, maxCount, value, count, stream }) => {
  if (count === 0) return done();
  const on = liveStream(context, stream);
  if ('ret' in on) return on;
  const foreign = foreignStream(context, on, 'aclrtMemsetAsync');
  if (foreign !== undefined) return foreign;
  return aclrtMemset(context, { devPtr, maxCount, value, count });
};

/**
 * CP-10: write back (flush) or drop (invalidate) the CPU cache over a range. The guide says the
 * current runtime keeps host and device coherent, so neither is needed; the simulator checks the
 * range and changes nothing.
 */
function cacheRange(context: SimContext, devPtr: string, size: number): OpResult<never> {
  if (address(devPtr) === 0) return invalid(text('null-arg-rule', { name: 'devPtr', rule: 'CP-10' }));
  if (size === 0) return invalid(text('size-zero-rule', { rule: 'CP-10' }));
  const target = region(context, devPtr, size, 'devPtr');
  return 'code' in target ? invalid(target) : done();
}

export const aclrtMemFlush: Op<'aclrtMemFlush'> = (context, { devPtr, size }) => cacheRange(context, devPtr, size);
export const aclrtMemInvalidate: Op<'aclrtMemInvalidate'> = (context, { devPtr, size }) => cacheRange(context, devPtr, size);
