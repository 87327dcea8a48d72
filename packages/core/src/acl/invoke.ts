import type { AclFunctionName } from './functions.ts';
import type { AclArgs, AclResult, AclRuntime } from './runtime.ts';

type CallMap = { [F in AclFunctionName]: { readonly fn: F; readonly args: AclArgs<F> } };

/** A call by name, as a value (teardown plans, journals, scripted sessions). */
export type AclCall<F extends AclFunctionName = AclFunctionName> = CallMap[F];

/** Calls `fn` on any runtime by name: the one place that turns a name into a method call. */
export function invokeAcl<F extends AclFunctionName>(runtime: AclRuntime, fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
  const method: AclRuntime[F] = runtime[fn];
  return method(args);
}

/** The same for a call value; works for any member of the AclCall union. */
export function invokeCall<F extends AclFunctionName>(runtime: AclRuntime, call: AclCall<F>): Promise<AclResult<F>> {
  const method: AclRuntime[F] = runtime[call.fn];
  return method(call.args);
}
