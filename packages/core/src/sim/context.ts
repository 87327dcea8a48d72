import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_CONTEXT_NULL, ACL_SUCCESS } from '../acl/errors.ts';
import type { AclFunctionName } from '../acl/functions.ts';
import type { AclArgs, AclOut } from '../acl/runtime.ts';
import type { CodedText, EventBody, MemoryEvent, Reason } from '../model/events.ts';
import type { DeviceState, HostState, ProcessState } from '../model/state.ts';
import { describeText, type Text, text } from '../texts/table.ts';
import { hexToNumber } from '../units/hex.ts';
import type { ProcessSpace } from './process-space.ts';
import type { SimHost } from './sim-host.ts';

/** A record still being built: optional fields are added one by one in their place in the order, not spread in. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What an operation answers before the runtime wraps it into a call event. */
export interface OpResult<O> {
  readonly ret: number;
  readonly out?: O;
  readonly message?: string;
  /** The message as a code and values (texts/table.ts), for the UI's language; absent for an uncoded message. */
  readonly messageCode?: CodedText;
  readonly reasons?: readonly Reason[];
}

/** Everything an operation may read or do. Operations change state only through `emit`. */
export interface SimContext {
  readonly host: SimHost;
  readonly state: HostState;
  readonly pid: number;
  readonly process: ProcessState;
  readonly space: ProcessSpace;
  /** A body may hold the stamp fields already (placeholders, in their place at the end) for emit to fill in. */
  readonly emit: (body: EventBody | MemoryEvent) => void;
}

export type Op<F extends AclFunctionName> = (context: SimContext, args: AclArgs<F>) => OpResult<AclOut<F>>;

export function ok<O>(out: O, reasons?: readonly Reason[]): OpResult<O> {
  return reasons === undefined ? { ret: ACL_SUCCESS, out } : { ret: ACL_SUCCESS, out, reasons };
}

/** Shared: the runtime only reads an operation's result, and a plain success carries nothing else. */
const DONE: OpResult<never> = { ret: ACL_SUCCESS };

export function done(): OpResult<never> {
  return DONE;
}

/** A failure: its code and why, as a text of the table (the English message follows from it). */
export function fail(ret: number, why: Text, reasons?: readonly Reason[]): OpResult<never> {
  const message = describeText(why);
  return reasons === undefined ? { ret, message, messageCode: why } : { ret, message, messageCode: why, reasons };
}

export function invalid(why: Text, reasons?: readonly Reason[]): OpResult<never> {
  return fail(ACL_ERROR_INVALID_PARAM, why, reasons);
}

/** LT-2: memory calls need a current device, set with aclrtSetDevice. */
export function currentDevice(context: SimContext): DeviceState | OpResult<never> {
  const device = context.state.devices[context.process.currentDevice];
  if (device === undefined) {
    return fail(ACL_ERROR_RT_CONTEXT_NULL, text('no-current-device'));
  }
  return device;
}

export function isResult(value: DeviceState | OpResult<never>): value is OpResult<never> {
  return 'ret' in value;
}

/** An address argument as an integer; pointer arguments were validated as hex by the caller. */
export function address(hex: string): number {
  return hexToNumber(hex);
}

/** The failure of an inner step, passed on without its (absent) out-fields. */
export function passFailure(result: OpResult<unknown>): OpResult<never> {
  const { ret, message, messageCode, reasons } = result;
  if (message === undefined) return reasons === undefined ? { ret } : { ret, reasons };
  const failure: Mutable<OpResult<never>> = { ret, message };
  if (messageCode !== undefined) failure.messageCode = messageCode;
  if (reasons !== undefined) failure.reasons = reasons;
  return failure;
}
