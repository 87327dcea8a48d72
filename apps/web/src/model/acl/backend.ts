import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, type HostInfo, isAclFunctionName } from '@pagelens/core';

/**
 * What the backend behind the session can and cannot tell (DESIGN.md "Truth and provenance"; the
 * acl backend's README): the simulator decides frame placement itself, a real ACL runtime never
 * reports it, so on an observed host allocations carry no frames and the pools come from
 * aclrtGetMemInfo readings instead.
 */
export function framesObservable(host: Pick<HostInfo, 'provenance'> | undefined): boolean {
  return host?.provenance !== 'observed';
}

/** Why a function cannot be called from this page, or undefined when it can. */
export type Unavailable = 'viewer' | 'read-only' | 'missing';

export interface CallRights {
  readonly role: string;
  readonly functions: ReadonlySet<string>;
}

/**
 * A read-only agent (the acl backend without --allow-mutations, S-9) leaves every function that
 * changes state out of the welcome's `functions`; a missing symbol turns off only its own.
 */
export function isReadOnly(functions: ReadonlySet<string>): boolean {
  return ACL_FUNCTION_NAMES.every((fn) => !ACL_FUNCTIONS[fn].mutates || !functions.has(fn));
}

export function unavailable(fn: string, rights: CallRights | undefined): Unavailable | undefined {
  if (rights === undefined) return undefined;
  if (rights.role !== 'driver') return 'viewer';
  if (rights.functions.has(fn)) return undefined;
  return isAclFunctionName(fn) && ACL_FUNCTIONS[fn].mutates && isReadOnly(rights.functions) ? 'read-only' : 'missing';
}

/** The first of `fns` this page cannot call, with the reason; undefined when all can be called. */
export function firstUnavailable(
  fns: readonly string[],
  rights: CallRights | undefined,
): { readonly fn: string; readonly why: Unavailable } | undefined {
  for (const fn of fns) {
    const why = unavailable(fn, rights);
    if (why !== undefined) return { fn, why };
  }
  return undefined;
}
