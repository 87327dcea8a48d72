import { aclrtMemcpyKind, aclrtMemLocationType } from '../acl/enums.ts';
import { ACL_ERROR_RT_PARAM_INVALID } from '../acl/errors.ts';
import type { aclrtMemcpyBatchAttr } from '../acl/structs.ts';
import type { Reason } from '../model/events.ts';
import { type Text, text } from '../texts/table.ts';
import { currentDevice, fail, invalid, isResult, type Op, type OpResult, ok, type SimContext } from './context.ts';
import { emitCopy, isPlanned, type PlannedCopy, planCopy, type Region, region } from './ops-copy.ts';

/*
 * aclrtMemcpyBatch and aclrtMemcpyBatchAsync (CP-11, runtime-api.md §6): many host ↔ device
 * copies in one call. The acl layer checks the arrays (100000); the runtime checks the attribute
 * runs (107000) and then each copy's locations against its run's attribute, naming the first
 * copy that fails in failIndex. Nothing is copied unless every copy passes.
 */

const K = aclrtMemcpyKind.byName;
const L = aclrtMemLocationType.byName;
/** failIndex when no copy failed: SIZE_MAX in C, -1 on the wire. */
const NO_FAILURE = -1;

interface BatchArgs {
  readonly dsts: readonly string[];
  readonly destMaxs: readonly number[];
  readonly srcs: readonly string[];
  readonly sizes: readonly number[];
  readonly numBatches: number;
  readonly attrs: readonly aclrtMemcpyBatchAttr[];
  readonly attrsIndexes: readonly number[];
  readonly numAttrs: number;
  readonly stream?: string;
}

type Fn = 'aclrtMemcpyBatch' | 'aclrtMemcpyBatchAsync';

/** The acl layer's first checks, before its every-size-zero shortcut (100000). */
function countProblem(args: BatchArgs): Text | undefined {
  if (args.sizes.length === 0) return text('null-arg-rule', { name: 'sizes', rule: 'CP-11' });
  if (args.numBatches === 0) return text('batch-zero', { name: 'numBatches' });
  return undefined;
}

/** The acl layer's checks of the other arrays (100000). */
function arrayProblem(args: BatchArgs): Text | undefined {
  const { numBatches } = args;
  for (const [name, list] of [
    ['dsts', args.dsts],
    ['destMaxs', args.destMaxs],
    ['srcs', args.srcs],
    ['sizes', args.sizes],
  ] as const) {
    if (list.length === 0) return text('null-arg-rule', { name, rule: 'CP-11' });
    if (list.length < numBatches) return text('batch-array-short', { name, entries: list.length, numBatches });
  }
  for (let i = 0; i < numBatches; i += 1) {
    const size = args.sizes[i] ?? 0;
    const destMax = args.destMaxs[i] ?? 0;
    if (size > destMax) return text('batch-size-over', { index: i, size, destMax });
  }
  if (args.attrs.length === 0) return text('null-arg-rule', { name: 'attrs', rule: 'CP-11' });
  for (const [k, attr] of args.attrs.entries()) {
    if ((attr.rsv ?? []).some((byte) => byte !== 0)) return text('batch-attr-rsv', { index: k });
  }
  if (args.attrsIndexes.length === 0) return text('null-arg-rule', { name: 'attrsIndexes', rule: 'CP-11' });
  // Fewer entries than numAttrs says: the runtime would read past them (refused as the agent refuses it).
  if (args.attrs.length < args.numAttrs || args.attrsIndexes.length < args.numAttrs)
    return text('batch-attrs-short', { numAttrs: args.numAttrs, attrs: args.attrs.length, indexes: args.attrsIndexes.length });
  return undefined;
}

/** The runtime's checks of the attribute runs (107000). */
function runProblem(args: BatchArgs): Text | undefined {
  const { numAttrs, numBatches, attrsIndexes } = args;
  if (numAttrs === 0) return text('batch-zero', { name: 'numAttrs' });
  if (numAttrs > numBatches) return text('batch-attrs-over', { numAttrs, numBatches });
  if (attrsIndexes[0] !== 0) return text('batch-first-run', { first: attrsIndexes[0] ?? 'undefined' });
  for (let k = 1; k < numAttrs; k += 1) {
    const here = attrsIndexes[k] ?? 0;
    const before = attrsIndexes[k - 1] ?? 0;
    if (here <= before) return text('batch-run-order', { index: k, here, previous: k - 1, before });
    if (here >= numBatches) return text('batch-run-end', { index: k, here, numBatches });
  }
  return undefined;
}

/** The location type a region has for the runtime's check: pageable (unregistered) host memory counts as host. */
function locationOf(side: Region): { readonly type: number; readonly id: number } {
  return side.side === 'device' ? { type: L.ACL_MEM_LOCATION_TYPE_DEVICE, id: side.device } : { type: L.ACL_MEM_LOCATION_TYPE_HOST, id: 0 };
}

/** HOST_NUMA counts as HOST; a device location must name the memory's device. */
function locationProblem(role: 'dst' | 'src', declared: { readonly type: number; readonly id: number }, actual: Region): Text | undefined {
  const real = locationOf(actual);
  const type = declared.type === L.ACL_MEM_LOCATION_TYPE_HOST_NUMA ? L.ACL_MEM_LOCATION_TYPE_HOST : declared.type;
  if (type === real.type && (real.type !== L.ACL_MEM_LOCATION_TYPE_DEVICE || declared.id === real.id)) return undefined;
  const said = `${aclrtMemLocationType.nameOf(declared.type) ?? declared.type}${declared.type === L.ACL_MEM_LOCATION_TYPE_DEVICE ? ` ${declared.id}` : ''}`;
  return real.type === L.ACL_MEM_LOCATION_TYPE_DEVICE
    ? text('batch-loc-device', { role, said, device: real.id })
    : text('batch-loc-host', { role, said });
}

function batch(context: SimContext, fn: Fn, args: BatchArgs): OpResult<{ failIndex: number }> {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const counts = countProblem(args);
  if (counts !== undefined) return invalid(counts);
  const copies = args.sizes.slice(0, args.numBatches);
  // Every size 0: nothing to do, and nothing else is checked (runtime-api.md §6).
  if (copies.every((size) => size === 0)) return ok({ failIndex: NO_FAILURE });
  const problem = arrayProblem(args);
  if (problem !== undefined) return invalid(problem);
  const runs = runProblem(args);
  // The runtime sets failIndex to SIZE_MAX before its own checks.
  if (runs !== undefined) return { ...fail(ACL_ERROR_RT_PARAM_INVALID, runs), out: { failIndex: NO_FAILURE } };
  const planned: PlannedCopy[] = [];
  let run = 0;
  for (let i = 0; i < args.numBatches; i += 1) {
    if (run + 1 < args.numAttrs && i >= (args.attrsIndexes[run + 1] ?? Number.POSITIVE_INFINITY)) run += 1;
    const attr = args.attrs[run];
    const count = copies[i] ?? 0;
    const at = (why: Text): OpResult<{ failIndex: number }> => ({
      ...fail(ACL_ERROR_RT_PARAM_INVALID, text('batch-copy', { ...why.values, copy: i, problem: why.code })),
      out: { failIndex: i },
    });
    const dst = region(context, args.dsts[i] ?? '0x0', Math.max(count, 1), 'dst');
    if ('code' in dst) return at(dst);
    const src = region(context, args.srcs[i] ?? '0x0', Math.max(count, 1), 'src');
    if ('code' in src) return at(src);
    const wrong =
      attr === undefined ? text('batch-no-run') : (locationProblem('dst', attr.dstLoc, dst) ?? locationProblem('src', attr.srcLoc, src));
    if (wrong !== undefined) return at(wrong);
    if (dst.side === src.side) return at(text(dst.side === 'host' ? 'batch-same-side-host' : 'batch-same-side-device'));
    if (count === 0) continue;
    const kind = src.side === 'host' ? K.ACL_MEMCPY_HOST_TO_DEVICE : K.ACL_MEMCPY_DEVICE_TO_HOST;
    const request = { fn, dst: args.dsts[i] ?? '0x0', destMax: args.destMaxs[i] ?? 0, src: args.srcs[i] ?? '0x0', count, kind };
    const plan = planCopy(context, args.stream === undefined ? request : { ...request, stream: args.stream });
    if (!isPlanned(plan)) return { ...plan, out: { failIndex: i } };
    planned.push(plan);
  }
  const reasons: Reason[] = [];
  for (const plan of planned) reasons.push(...emitCopy(context, plan));
  return ok({ failIndex: NO_FAILURE }, reasons);
}

export const aclrtMemcpyBatch: Op<'aclrtMemcpyBatch'> = (context, args) => batch(context, 'aclrtMemcpyBatch', args);

/** CP-11, CP-4: queued on the stream; pageable host memory makes the call wait (HM-3). */
export const aclrtMemcpyBatchAsync: Op<'aclrtMemcpyBatchAsync'> = (context, args) => batch(context, 'aclrtMemcpyBatchAsync', args);
