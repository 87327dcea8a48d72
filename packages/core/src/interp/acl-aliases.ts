import type { AclFunctionName } from '../acl/functions.ts';
import type { CallExpr } from './ast.ts';

/*
 * ACL functions outside PageLens's catalogue that allocate or free device memory the code then
 * copies to: read as a catalogue function, with a note on their line, because a "not modeled"
 * answer of 0 would leave the code's pointer NULL and charge every later copy with an error the
 * real program never meets. The aliases are approximations and the note says what is lost.
 */

interface Alias {
  readonly as: AclFunctionName;
  /** Arguments the catalogue function takes after the code's own, as constant names. */
  readonly extra: readonly string[];
  readonly arity: number;
  readonly note: string;
}

const ALIASES: ReadonlyMap<string, Alias> = new Map([
  [
    'acldvppMalloc',
    {
      as: 'aclrtMalloc',
      extra: ['ACL_MEM_MALLOC_HUGE_FIRST'],
      arity: 2,
      note: "acldvppMalloc (device memory for media processing, DVPP) is not in PageLens's catalogue: it runs as aclrtMalloc(…, ACL_MEM_MALLOC_HUGE_FIRST), device memory of the same size; DVPP's own address range and alignment are not modeled",
    },
  ],
  [
    'acldvppFree',
    {
      as: 'aclrtFree',
      extra: [],
      arity: 1,
      note: "acldvppFree is not in PageLens's catalogue: it runs as aclrtFree, which frees what acldvppMalloc (run as aclrtMalloc) gave",
    },
  ],
]);

/** The catalogue call an aliased call runs as, and the note for its line; undefined for any other call. */
export function aliasOf(call: CallExpr): { readonly fn: AclFunctionName; readonly call: CallExpr; readonly note: string } | undefined {
  const alias = ALIASES.get(call.callee);
  if (alias === undefined || call.args.length !== alias.arity) return undefined;
  const extra = alias.extra.map((name) => ({ kind: 'name' as const, name, span: call.span }));
  return { fn: alias.as, call: { ...call, callee: alias.as, args: [...call.args, ...extra] }, note: alias.note };
}
