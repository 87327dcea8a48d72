import type { AclFunctionName } from './functions.ts';
import type { AclArgs, AclCaller, AclResult } from './runtime.ts';

type CallMap = { [F in AclFunctionName]: { readonly fn: F; readonly args: AclArgs<F> } };

/** A call by name, as a value (teardown plans, journals, scripted sessions). */
export type AclCall<F extends AclFunctionName = AclFunctionName> = CallMap[F];

/** Calls `fn` on any runtime by name. */
export function invokeAcl<F extends AclFunctionName>(runtime: AclCaller, fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
  return runtime.call(fn, args);
}

/** The same for a call value; works for any member of the AclCall union. */
export function invokeCall<F extends AclFunctionName>(runtime: AclCaller, call: AclCall<F>): Promise<AclResult<F>> {
  return runtime.call(call.fn, call.args);
}
