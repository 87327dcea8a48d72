import { ACL_ERROR_API_NOT_SUPPORT, ACL_ERROR_INVALID_PARAM } from '@pagelens/core';
import { callSpec, type Declarations, type NativeName } from './declarations.ts';
import { type OutValue, prepareArgs, readFailureOuts, readOuts } from './marshal.ts';
import { integerValue, Unrepresentable } from './pointers.ts';

/** What one C call did, in a form that can cross between threads (no BigInt, no koffi values). */
export interface NativeOutcome {
  readonly fn: NativeName;
  /** The aclError; 0 for functions that return a string, a pointer or nothing. */
  readonly ret: number;
  /**
   * Out-fields by C name. When the call failed only its index outs (failIndex: where it failed),
   * which the runtime writes as it refuses; C leaves the others untouched.
   */
  readonly out: Readonly<Record<string, OutValue>>;
  /** aclGetRecentErrMsg, read on the same thread right after a failure (it is per thread and cleared by reading). */
  readonly errMsg?: string;
  /** Wall-clock time inside the C call, in ns. */
  readonly durationNs: number;
  /**
   * When the C call began: process.hrtime in ns (as a number; a few ns of rounding after months of
   * uptime). Every thread of the process reads the same monotonic clock, so the main thread can
   * place a call the native thread made (`ObservedHost.fromMonotonic`). Absent when nothing was called.
   */
  readonly startedNs?: number;
  /** PageLens did not call: the symbol is missing, or an argument would make the runtime read out of bounds. */
  readonly refused?: string;
  /** The call succeeded but an out-value cannot be represented exactly (a count of 2^53 or more). */
  readonly unrepresentable?: string;
}

function readError(declarations: Declarations): string | undefined {
  const read = declarations.functions.get('aclGetRecentErrMsg');
  if (read === undefined) return undefined;
  const text: unknown = read();
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/** What a failed call still answers (its index outs); nothing when that cannot be represented. */
function failureOuts(spec: ReturnType<typeof callSpec>, prepared: ReturnType<typeof prepareArgs>): Record<string, OutValue> {
  try {
    return readFailureOuts(spec, prepared);
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error;
    return {};
  }
}

/** Calls one function synchronously on the calling thread. */
export function runNative(declarations: Declarations, fn: NativeName, args: Readonly<Record<string, unknown>>): NativeOutcome {
  const declared = declarations.functions.get(fn);
  if (declared === undefined) {
    return {
      fn,
      ret: ACL_ERROR_API_NOT_SUPPORT,
      out: {},
      durationNs: 0,
      refused: `the ACL library does not export ${fn} (missing symbol ${fn}; an older CANN?): PageLens turned this call off`,
    };
  }
  const spec = callSpec(fn);
  let prepared: ReturnType<typeof prepareArgs>;
  try {
    prepared = prepareArgs(spec, args);
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error;
    return { fn, ret: ACL_ERROR_INVALID_PARAM, out: {}, durationNs: 0, refused: `refused before calling ${fn}: ${error.message}` };
  }
  const started = process.hrtime.bigint();
  const returned: unknown = declared(...prepared.args);
  const durationNs = Number(process.hrtime.bigint() - started);
  const startedNs = Number(started);
  const ret = spec.returns === 'aclError' ? Number(integerValue(returned, `${fn} return value`)) : 0;
  if (ret !== 0) {
    const errMsg = fn === 'aclGetRecentErrMsg' ? undefined : readError(declarations);
    const out = failureOuts(spec, prepared);
    return errMsg === undefined ? { fn, ret, out, durationNs, startedNs } : { fn, ret, out, durationNs, startedNs, errMsg };
  }
  try {
    return { fn, ret, out: readOuts(spec, prepared, returned), durationNs, startedNs };
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error;
    return { fn, ret, out: {}, durationNs, startedNs, unrepresentable: error.message };
  }
}
