import type { Hex } from '@pagelens/core';
import type { Declarations } from './declarations.ts';
import { runNative } from './native-call.ts';
import { type PoolReading, poolCalls, readingFrom } from './observe.ts';

/*
 * Read-only questions the backend asks the runtime on the session's thread (the main thread) to
 * observe a call's effect. They are not session calls: they get no call event of their own.
 */

/** The current device's pools (DM-15), or undefined when the runtime would not say. */
export function readPools(declarations: Declarations): PoolReading | undefined {
  return readingFrom(poolCalls().map((call) => runNative(declarations, call.fn, call.args)));
}

/** aclrtPointerGetAttributes(ptr).pageSize, when the symbol exists and the runtime answers. */
export function readPointerPageSize(declarations: Declarations, ptr: Hex): number | undefined {
  const outcome = runNative(declarations, 'aclrtPointerGetAttributes', { ptr });
  const attributes = outcome.out.attributes;
  if (outcome.ret !== 0 || attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) return undefined;
  const pageSize = 'pageSize' in attributes ? attributes.pageSize : undefined;
  return typeof pageSize === 'number' && pageSize > 0 ? pageSize : undefined;
}

/** HM-5: the device address the runtime gives registered host memory. */
export function readDevicePointer(declarations: Declarations, pHost: Hex): Hex | undefined {
  const outcome = runNative(declarations, 'aclrtHostGetDevicePointer', { pHost, flag: 0 });
  const value = outcome.out.pDevice;
  return outcome.ret === 0 && typeof value === 'string' && value.startsWith('0x') ? `0x${value.slice(2)}` : undefined;
}

/** The calling thread's aclrtContext, to hand to the native thread (V14). */
export function readCurrentContext(declarations: Declarations): string | undefined {
  const outcome = runNative(declarations, 'aclrtGetCurrentContext', {});
  const value = outcome.out.context;
  return outcome.ret === 0 && typeof value === 'string' && value !== '0x0' ? value : undefined;
}

/** aclrtCtxGetCurrentDefaultStream: the current context's own default stream, right after aclrtCreateContext (CX-1). */
export function readDefaultStream(declarations: Declarations): string | undefined {
  const outcome = runNative(declarations, 'aclrtCtxGetCurrentDefaultStream', {});
  const value = outcome.out.stream;
  return outcome.ret === 0 && typeof value === 'string' && value !== '0x0' ? value : undefined;
}
