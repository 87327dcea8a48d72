import type { Expr, FunctionDef } from './ast.ts';
import type { CType, StructType } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import { heapFree } from './host-memory.ts';
import type { Machine, Scope } from './machine.ts';
import { memberFunction } from './resolve-function.ts';
import type { Cell } from './values.ts';

/*
 * The life of an object of a class the code defines: its constructor when it is declared (or made
 * by `new`), its destructor when its block ends (or at `delete`). Members of class type are
 * constructed before the class's own constructor body and destroyed after its destructor, as C++
 * orders them ([class.base.init], [class.dtor]).
 */

/** A struct or class the code defines (not an ACL struct): the kind that can have member functions. */
export function definedClass(type: CType): StructType | undefined {
  return type.k === 'struct' && !type.union && type.members !== undefined ? type : undefined;
}

/** True when objects of `type` need a constructor or destructor run: it, or a member, defines one. */
export function hasLifecycle(m: Machine, type: CType, seen = new Set<string>()): boolean {
  const owner = definedClass(type);
  if (owner === undefined || seen.has(owner.name)) return false;
  seen.add(owner.name);
  if (m.functions.has(`${owner.name}::${owner.name}`) || m.functions.has(`${owner.name}::~${owner.name}`)) return true;
  return (owner.members ?? []).some((member) => hasLifecycle(m, member.type, seen));
}

/**
 * Runs the constructor of the object in `cell` that takes `args` (none: the default constructor,
 * or nothing when the class defines no constructor). Members of class type that the constructor's
 * initialisers do not name are constructed first, without arguments.
 */
export async function construct(m: Machine, cell: Cell, args: readonly Expr[], scope: Scope, span: Span, label: string): Promise<void> {
  const owner = definedClass(cell.type);
  if (owner === undefined) return;
  const ctor = memberFunction(m.functions, owner.name, owner.name, args.length);
  if (ctor !== undefined && ctor.params.length !== args.length)
    throw new InterpError('type', `${owner.name} has no constructor taking ${args.length} argument(s) for ${label}`, span);
  if (ctor === undefined && args.length > 0 && m.functions.has(`${owner.name}::${owner.name}`))
    throw new InterpError('type', `${owner.name} has no constructor taking ${args.length} argument(s) for ${label}`, span);
  await constructMembers(m, cell, ctor, scope, span, label);
  if (ctor !== undefined) await m.member(m, ctor, cell, args, scope, span, label);
}

async function constructMembers(
  m: Machine,
  cell: Cell,
  ctor: FunctionDef | undefined,
  scope: Scope,
  span: Span,
  label: string,
): Promise<void> {
  if (cell.value.k !== 'struct') return;
  const named = new Set((ctor?.inits ?? []).map((init) => init.name));
  for (const [name, member] of cell.value.fields) {
    if (named.has(name) || !hasLifecycle(m, member.type)) continue;
    await construct(m, member, [], scope, span, `${label}.${name}`);
  }
}

/** Runs the destructor of the object in `cell`, then its members' in reverse order. */
export async function destroy(m: Machine, cell: Cell, span: Span, label: string): Promise<void> {
  const owner = definedClass(cell.type);
  if (owner === undefined) return;
  const dtor = m.functions.get(`${owner.name}::~${owner.name}`);
  if (dtor !== undefined) await m.member(m, dtor, cell, [], m.globals, span, label);
  if (cell.value.k !== 'struct') return;
  for (const [name, member] of [...cell.value.fields].reverse()) {
    if (hasLifecycle(m, member.type)) await destroy(m, member, span, `${label}.${name}`);
  }
}

/** `delete p` of an object from `new` (or the last owner of a smart pointer letting go): its destructor runs, then its memory is freed. */
export async function deleteHeapObject(m: Machine, addr: bigint, span: Span, what: string): Promise<void> {
  const object = m.heapObjects.get(addr);
  if (object !== undefined) {
    await destroy(m, object, span, `*(${what})`);
    m.heapObjects.delete(addr);
  }
  await heapFree(m, addr, span, what);
}
