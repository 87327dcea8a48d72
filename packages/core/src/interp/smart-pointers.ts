import type { Declarator, Expr } from './ast.ts';
import { BOOL, LONG, type SmartPtrType, typeName } from './c-type-model.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import type { LValue } from './lvalue.ts';
import { type Machine, Scope } from './machine.ts';
import { deleteHeapObject } from './objects.ts';
import { resolveFunction } from './resolve-function.ts';
import { type Cell, intValue, type SmartOwner, type Value, valueType, zeroValue } from './values.ts';

/*
 * std::shared_ptr<T> and std::unique_ptr<T>. An owner (the control block) counts the variables
 * that hold the object: a declaration or an assignment takes a hold, the end of the variable's
 * block, an assignment over it or reset() lets go, and the last to let go deletes the object (with
 * `delete`, or the deleter function the code gives). A value returned from a function is held by
 * the call until the statement that made the call ends, as C++ keeps a temporary to the end of
 * its full-expression, so `auto p = Make();` receives the object before Make's local lets go.
 * Parameters passed by value take no hold: the caller's variable or temporary outlives the call.
 */

type SmartValue = Extract<Value, { k: 'smart' }>;

/** Holds the caller takes for values its callees returned: let go when a statement at `depth` (or shallower) ends. */
const pending = new WeakMap<Machine, { owner: SmartOwner; value: SmartValue; depth: number; span: Span }[]>();

const isSmart = (value: Value): value is SmartValue => value.k === 'smart';

/** A variable now holds `value`. */
export function holdSmart(value: Value): void {
  if (isSmart(value) && value.owner !== undefined && !value.owner.released) value.owner.holders += 1;
}

/** A holder of `value` lets go; the last deletes the object. */
export async function dropSmart(m: Machine, value: Value, span: Span, label: string): Promise<void> {
  const owner = isSmart(value) ? value.owner : undefined;
  if (owner === undefined || owner.released || !isSmart(value)) return;
  owner.holders = Math.max(0, owner.holders - 1);
  if (owner.holders === 0) await release(m, value, owner, span, label);
}

async function release(m: Machine, value: SmartValue, owner: SmartOwner, span: Span, label: string): Promise<void> {
  owner.released = true;
  const pointer = value.ptr;
  if (pointer.k === 'ptr' && pointer.addr === 0n) return;
  const what = `${label}, the last ${typeName(value.type)} of its object, lets go`;
  if (owner.deleter === undefined) {
    if (pointer.k !== 'ptr')
      throw new InterpError('runtime', `${what}: it deletes an object that was not made by new (undefined behaviour)`, span);
    await deleteHeapObject(m, pointer.addr, span, `${what}: delete`);
    return;
  }
  const fn = resolveFunction(m.functions, owner.deleter, undefined, 1);
  const param = fn?.params[0];
  if (fn === undefined || param === undefined)
    throw new InterpError('type', `the deleter ${owner.deleter} of ${label} is not a function of one parameter`, span);
  m.marks.note(span, `${what}: its deleter ${owner.deleter}(…) runs`);
  // The call names the object through a variable no C identifier can spell, so it cannot meet one of the code's.
  const scope = new Scope(m.globals);
  const object = 'the object';
  m.declare(scope, object, { type: valueType(pointer), value: pointer, init: true }, true, 'local', span);
  await m.call({ kind: 'call', callee: fn.name, calleeSpan: span, args: [{ kind: 'name', name: object, span }], span }, scope);
}

/** `return p;` of a smart pointer: the call holds it for its caller until the caller's statement ends. */
export function holdReturned(m: Machine, value: Value | undefined, span: Span): void {
  if (value === undefined || !isSmart(value) || value.owner === undefined) return;
  holdSmart(value);
  const list = pending.get(m) ?? [];
  list.push({ owner: value.owner, value, depth: m.depth - 1, span });
  pending.set(m, list);
}

/** A statement ended at the current depth: the holds its calls' returned values kept are let go. */
export async function settleReturned(m: Machine): Promise<void> {
  const list = pending.get(m);
  if (list === undefined || list.length === 0) return;
  const due = list.filter((entry) => entry.depth >= m.depth);
  pending.set(
    m,
    list.filter((entry) => entry.depth < m.depth),
  );
  for (const entry of due) await dropSmart(m, entry.value, entry.span, 'a returned value');
}

/** The deleter argument of `shared_ptr<T> p(raw, Release)`: a function the code defines, named (a member function's static or not). */
function deleterName(m: Machine, expr: Expr | undefined, label: string): string | undefined {
  if (expr === undefined) return undefined;
  if (expr.kind === 'name') {
    const caller = m.frames.at(-1)?.name;
    const owner = caller?.includes('::') === true ? caller.slice(0, caller.lastIndexOf('::')) : undefined;
    const candidates = owner === undefined ? [expr.name] : [`${owner}::${expr.name}`, expr.name];
    for (const name of candidates) if (resolveFunction(m.functions, name, caller, 1) !== undefined) return name;
  }
  throw new InterpError(
    'unsupported',
    `the deleter of ${label}: PageLens runs a deleter that is a function the code defines, named (ReleaseBuffer, Engine::Release)`,
    expr.span,
  );
}

/** `shared_ptr<T> p;`, `p(raw)`, `p(raw, Deleter)`, `p = make_shared<T>(…)`, `p = q`, `p = nullptr`: the cell, not yet held. */
export async function smartObject(m: Machine, d: Declarator, type: SmartPtrType, evaluate: (expr: Expr) => Promise<Value>): Promise<Cell> {
  const [first, deleter, ...rest] = d.ctorArgs ?? [];
  if (rest.length > 0) throw new InterpError('unsupported', `${typeName(type)} ${d.name}(…) with an allocator: not supported`, d.span);
  if (deleter !== undefined && type.kind === 'unique')
    throw new InterpError(
      'unsupported',
      `std::unique_ptr ${d.name} with a deleter (a second template argument): not supported; std::shared_ptr's deleter is`,
      d.span,
    );
  const init = d.init?.kind === 'initList' ? d.init.items[0] : (d.init ?? first);
  if (init === undefined) return { type, value: zeroValue(type, true), init: true };
  if (type.kind === 'unique' && isLvalue(init))
    throw new InterpError('type', `std::unique_ptr ${d.name} cannot be a copy of another: a unique_ptr has one owner`, init.span);
  const value = convert(await evaluate(init), type, init.span, d.init === undefined, `initialising ${d.name}`);
  const name = deleterName(m, deleter, d.name);
  const owned =
    isSmart(value) && name !== undefined && value.owner !== undefined ? { ...value, owner: { ...value.owner, deleter: name } } : value;
  return { type, value: owned, init: true };
}

const isLvalue = (expr: Expr): boolean => expr.kind === 'name' || expr.kind === 'field' || expr.kind === 'index' || expr.kind === 'deref';

/** `p = q`, `p = make_shared<T>()`, `p = nullptr`: the new object is held before the old is let go (as self-assignment needs). */
export async function assignSmart(m: Machine, target: LValue, value: Value, valueExpr: Expr, span: Span): Promise<Value> {
  const type = target.type;
  if (type.k !== 'smart') throw new InterpError('internal', 'assignSmart on a value that is not a smart pointer', span);
  if (type.kind === 'unique' && isLvalue(valueExpr) && value.k === 'smart')
    throw new InterpError('type', `assigning to ${target.label}: a std::unique_ptr cannot be copied (it has one owner)`, span);
  const converted = convert(value, type, span, false, `assigning to ${target.label}`);
  const old = target.read();
  holdSmart(converted);
  target.write(converted);
  await dropSmart(m, old, span, target.label);
  return converted;
}

/** get, reset, release, use_count, unique, operator bool (as `p.operator bool()` is never written, only get-style calls). */
export async function smartMethod(
  m: Machine,
  lv: LValue,
  value: SmartValue,
  name: string,
  args: readonly Value[],
  span: Span,
): Promise<Value> {
  switch (name) {
    case 'get':
      return value.ptr;
    case 'use_count':
      return intValue(LONG, BigInt(value.owner?.released === false ? value.owner.holders : 0));
    case 'unique':
      return intValue(BOOL, value.owner?.holders === 1 ? 1n : 0n);
    case 'reset': {
      const raw = args[0];
      const next = raw === undefined ? zeroValue(value.type, true) : convert(raw, value.type, span, true, `${lv.label}.reset`);
      holdSmart(next);
      lv.write(next);
      await dropSmart(m, value, span, lv.label);
      return { k: 'void' };
    }
    case 'release':
      if (value.type.kind !== 'unique') break;
      // The object is the caller's now: no owner deletes it.
      if (value.owner !== undefined) value.owner.released = true;
      lv.write(zeroValue(value.type, true));
      return value.ptr;
  }
  const names = value.type.kind === 'shared' ? 'get, reset, use_count and unique' : 'get, reset and release';
  throw new InterpError('unsupported', `${lv.label}.${name}(): PageLens runs ${names} of std::${value.type.kind}_ptr`, span);
}
