import { ACL_STREAM_WAIT_VALUE } from '../acl/enums.ts';
import { ACL_ERROR_RT_PARAM_INVALID } from '../acl/errors.ts';
import { reason } from '../model/reasons.ts';
import { text } from '../texts/table.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, type OpResult, type SimContext } from './context.ts';
import { foreignStream } from './ops-context.ts';
import { region } from './ops-copy.ts';
import { liveStream } from './ops-device.ts';

/*
 * aclrtValueWrite and aclrtValueWait (CP-12, runtime-api.md §6): stream tasks on a 64-bit word of
 * device memory. PageLens does not model device memory contents, only the words these tasks
 * write: a wait is met by the last write to its address queued before it (in the simulator's
 * sim-private word table, like the copy links' timing). A wait that no queued write meets does
 * not hold the stream back in the simulator; on hardware the stream would wait until a write
 * meets it. The call says so.
 */

const W = ACL_STREAM_WAIT_VALUE.byName;

/** The condition of aclrtValueWait's `flag`, on unsigned 64-bit words (acl_rt.h). */
export function waitMet(flag: number, word: bigint, value: bigint): boolean {
  switch (flag) {
    case W.ACL_STREAM_WAIT_VALUE_GEQ:
      // (int64_t)(*addr - value) >= 0
      return BigInt.asIntN(64, word - value) >= 0n;
    case W.ACL_STREAM_WAIT_VALUE_EQ:
      return word === value;
    case W.ACL_STREAM_WAIT_VALUE_AND:
      return (word & value) !== 0n;
    default:
      return BigInt.asUintN(64, ~(word | value)) !== 0n;
  }
}

/** The checks both calls share: a word of device memory of this process, 8-byte aligned, and a usable stream. */
function target(context: SimContext, devAddr: string, stream: string, fn: string) {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const at = address(devAddr);
  if (at === 0) return invalid(text('null-arg-rule', { name: 'devAddr', rule: 'CP-12' }));
  if (at % 8 !== 0) return fail(ACL_ERROR_RT_PARAM_INVALID, text('value-align', { devAddr }));
  const where = region(context, devAddr, 8, 'devAddr');
  if ('code' in where) return invalid(text('value-region', { ...where.values, problem: where.code }));
  if (where.side !== 'device') return invalid(text('value-host', { devAddr, fn }));
  const on = liveStream(context, stream);
  if ('ret' in on) return on;
  const foreign = foreignStream(context, on, fn);
  if (foreign !== undefined) return foreign;
  return { at, stream: on, device: where.device, latency: device.profile.bandwidth.copyLatencyNs };
}

function isTarget<T extends object>(value: T | OpResult<never>): value is T {
  return !('ret' in value);
}

/** CP-12: a task that stores `value` at `devAddr` once the stream's earlier work is done. */
export const aclrtValueWrite: Op<'aclrtValueWrite'> = (context, { devAddr, value, flag, stream }) => {
  const found = target(context, devAddr, stream, 'aclrtValueWrite');
  if (!isTarget(found)) return found;
  if (flag !== 0) return invalid(text('reserved-zero-rule', { name: 'flag', value: flag, rule: 'CP-12' }));
  const at = Math.max(found.stream.busyUntil, context.state.time) + found.latency;
  context.host.valueWords.set(found.at, { value: BigInt(value), at });
  context.emit({ kind: 'valueWrite', pid: context.pid, stream: found.stream.id, device: found.device, addr: found.at, value, at });
  return done();
};

/** CP-12: later work on the stream waits until the word meets the condition. */
export const aclrtValueWait: Op<'aclrtValueWait'> = (context, { devAddr, value, flag, stream }) => {
  const found = target(context, devAddr, stream, 'aclrtValueWait');
  if (!isTarget(found)) return found;
  if (ACL_STREAM_WAIT_VALUE.nameOf(flag) === undefined) return invalid(text('value-wait-flag', { flag }));
  const word = context.host.valueWords.get(found.at);
  const met = word !== undefined && waitMet(flag, word.value, BigInt(value));
  const until = met ? Math.max(found.stream.busyUntil, word.at) : found.stream.busyUntil;
  const reasons = met ? [] : [reason('value-wait-unmet', ['CP-12'], { addr: devAddr })];
  context.emit({ kind: 'valueWait', pid: context.pid, stream: found.stream.id, addr: found.at, value, flag, met, until, reasons });
  return done();
};
