import type { AclFunctionName } from '@pagelens/core';

/**
 * A call assembled at run time, whose arguments no type can know in advance: what a person typed
 * into the generated action form, or a wizard step whose pointers are named until they are known.
 * The function is a catalogue name and the argument names are its parameters; the values are
 * judged by the agent, as every call on the wire is. Calls written in code use the typed
 * `run(fn, args)` instead.
 */
export interface BuiltCall {
  readonly fn: AclFunctionName;
  readonly args: Readonly<Record<string, unknown>>;
}
