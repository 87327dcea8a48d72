import type { AclFunctionName } from './functions.ts';
import type { AclArgs, AclResult, AclRuntime } from './runtime.ts';

/** Calls `fn` on any runtime by name: the one place that turns a name into a method call. */
export function invokeAcl<F extends AclFunctionName>(runtime: AclRuntime, fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
  const method: AclRuntime[F] = runtime[fn];
  return method(args);
}

/** A call by name, as a value (teardown plans, journals, scripted sessions). */
export type AclCall = { [F in AclFunctionName]: { readonly fn: F; readonly args: AclArgs<F> } }[AclFunctionName];
