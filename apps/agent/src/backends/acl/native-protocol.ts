import { isAclFunctionName, isObject } from '@pagelens/core';
import { isExtraFunctionName, type NativeName } from './declarations.ts';
import type { NativeOutcome } from './native-call.ts';

/** Messages between the backend and its native thread (structured clones: no BigInt, no koffi values). */

export interface NativeCall {
  readonly fn: NativeName;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface NativeRequest {
  readonly id: number;
  /** The aclrtContext to make current first ("0x…"), or null to leave the thread's context as it is. */
  readonly context: string | null;
  readonly calls: readonly NativeCall[];
}

export interface NativeReply {
  readonly id: number;
  readonly outcomes: readonly NativeOutcome[];
  /** Set when aclrtSetCurrentContext failed; then no call ran. */
  readonly contextFailure?: NativeOutcome;
  /** Set when the binding threw (a bug, not an ACL error): the request failed, the thread lives on. */
  readonly failure?: string;
}

export function isNativeName(name: unknown): name is NativeName {
  return typeof name === 'string' && (isAclFunctionName(name) || isExtraFunctionName(name));
}

function isNativeCall(value: unknown): value is NativeCall {
  return isObject(value) && isNativeName(value.fn) && isObject(value.args);
}

export function isNativeRequest(value: unknown): value is NativeRequest {
  return (
    isObject(value) &&
    typeof value.id === 'number' &&
    (value.context === null || typeof value.context === 'string') &&
    Array.isArray(value.calls) &&
    value.calls.every(isNativeCall)
  );
}

function isOutcome(value: unknown): value is NativeOutcome {
  return (
    isObject(value) &&
    isNativeName(value.fn) &&
    typeof value.ret === 'number' &&
    isObject(value.out) &&
    typeof value.durationNs === 'number'
  );
}

export function isNativeReply(value: unknown): value is NativeReply {
  return (
    isObject(value) &&
    typeof value.id === 'number' &&
    Array.isArray(value.outcomes) &&
    value.outcomes.every(isOutcome) &&
    (value.contextFailure === undefined || isOutcome(value.contextFailure)) &&
    (value.failure === undefined || typeof value.failure === 'string')
  );
}
