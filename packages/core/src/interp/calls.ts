import { isAclFunctionName } from '../acl/functions.ts';
import { aliasOf } from './acl-aliases.ts';
import { callCatalogue } from './acl-call.ts';
import type { CallExpr, Expr, FunctionDef, Param } from './ast.ts';
import { callUnmodeled } from './builtins.ts';
import { pointerTo } from './c-type-model.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { evaluate } from './eval.ts';
import { InterpError } from './exec-errors.ts';
import { type LValue, resolveLValue } from './lvalue.ts';
import { MAX_CALL_DEPTH, type Machine, Scope } from './machine.ts';
import { construct, definedClass, hasLifecycle } from './objects.ts';
import { acceptsArgs, memberFunction, resolveFunction } from './resolve-function.ts';
import { runFunction } from './run-stmt.ts';
import { type Cell, type Value, zeroValue } from './values.ts';

/**
 * A call goes to a function defined in the program, to the `AclRuntime` when the catalogue
 * knows the name (including malloc and free), or else is evaluated and noted as not modeled.
 */
export async function callExpression(m: Machine, call: CallExpr, scope: Scope): Promise<Value> {
  if (scope.lookup(call.callee) !== undefined) {
    throw new InterpError('type', `${call.callee} is a variable here, not a function: it cannot be called`, call.calleeSpan);
  }
  if (call.launch !== undefined) return callUnmodeled(m, call, scope);
  // Inside a member function, `Other(…)` is `this->Other(…)`.
  const self = m.frames.at(-1)?.self;
  const owner = self === undefined ? undefined : definedClass(self.type);
  const method = owner === undefined ? undefined : memberFunction(m.functions, owner.name, call.callee, call.args.length);
  if (self !== undefined && method !== undefined && method.isStatic !== true)
    return callMember(m, method, self, call.args, scope, call.span, 'this');
  const defined = method ?? resolveFunction(m.functions, call.callee, m.frames.at(-1)?.name, call.args.length);
  if (defined !== undefined) return callDefined(m, defined, call, scope);
  if (isAclFunctionName(call.callee)) return callCatalogue(m, call.callee, call, scope);
  const alias = aliasOf(call);
  if (alias !== undefined) {
    m.marks.note(call.span, alias.note);
    return callCatalogue(m, alias.fn, alias.call, scope);
  }
  return callUnmodeled(m, call, scope);
}

/** What a reference parameter binds: the argument's object, or a temporary holding its value (`const std::string& path` given "a.bin"). */
async function referenceTarget(m: Machine, arg: CallExpr['args'][number], scope: Scope, type: Param['type']): Promise<LValue> {
  try {
    return await resolveLValue(m, arg, scope, (e, s) => evaluate(m, e, s));
  } catch (error) {
    if (!(error instanceof InterpError) || error.kind !== 'type') throw error;
    const cell: Cell = { type, value: convert(await evaluate(m, arg, scope), type, arg.span, false, 'a reference argument'), init: true };
    return { type, label: 'a temporary', isConst: true, cell, read: () => cell.value, write: () => undefined };
  }
}

/** The cells of `fn`'s parameters for `args`: a reference parameter is the caller's object, any other a converted copy. */
async function argumentCells(m: Machine, fn: FunctionDef, args: readonly Expr[], scope: Scope, span: Span): Promise<Cell[]> {
  if (!acceptsArgs(fn, args.length)) {
    throw new InterpError('type', `${fn.name} takes ${fn.params.length} argument(s), not ${args.length}`, span);
  }
  if (m.depth >= MAX_CALL_DEPTH) throw new InterpError('runtime', `calls nest deeper than ${MAX_CALL_DEPTH}: runaway recursion?`, span);
  const cells: Cell[] = [];
  for (const [index, param] of fn.params.entries()) {
    // A parameter the call leaves out takes its default argument (C++ [dcl.fct.default]).
    const arg = args[index] ?? param.default;
    if (arg === undefined) continue;
    if (param.ref === true) {
      // `T& p`: the parameter is the caller's object itself.
      const lv = await referenceTarget(m, arg, scope, param.type);
      if (lv.cell === undefined)
        throw new InterpError(
          'unsupported',
          `argument ${index + 1} of ${fn.name} (a reference): ${lv.label} is memory PageLens does not model`,
          arg.span,
        );
      cells.push(lv.cell);
      continue;
    }
    const value = await evaluate(m, arg, scope);
    cells.push({ type: param.type, value: convert(value, param.type, span, false, `argument ${index + 1} of ${fn.name}`), init: true });
  }
  return cells;
}

function bindParameters(m: Machine, fn: FunctionDef, cells: readonly Cell[], parent: Scope, span: Span): Scope {
  const params = new Scope(parent);
  fn.params.forEach((param, index) => {
    const cell = cells[index];
    if (cell !== undefined) m.declare(params, param.name, cell, false, 'param', span);
  });
  return params;
}

async function callDefined(m: Machine, fn: FunctionDef, call: CallExpr, scope: Scope): Promise<Value> {
  if (fn.owner !== undefined && fn.isStatic !== true)
    throw new InterpError(
      'type',
      `${fn.name} is a member function of ${fn.owner.name}: call it on an object (object.${fn.name.split('::').at(-1)}(…))`,
      call.span,
    );
  const cells = await argumentCells(m, fn, call.args, scope, call.span);
  return runFunction(m, fn, bindParameters(m, fn, cells, m.globals, call.span), call.span);
}

/**
 * `object.Method(args)`, `p->Method(args)`, a constructor or destructor: the body sees the object's
 * members by their names and `this`, a pointer to the object; a constructor first runs its member
 * initialisers (`: stream_(nullptr)`), in the order the class declares the members.
 */
export async function callMember(
  m: Machine,
  fn: FunctionDef,
  self: Cell,
  args: readonly Expr[],
  scope: Scope,
  span: Span,
  label: string,
): Promise<Value> {
  const object = self.value;
  if (object.k !== 'struct' || fn.owner === undefined)
    throw new InterpError('type', `${fn.name} runs on an object of its class, and ${label} is not one`, span);
  const cells = await argumentCells(m, fn, args, scope, span);
  const members = new Scope(m.globals);
  for (const [name, cell] of object.fields) members.vars.set(name, { name, cell, isConst: false, kind: 'local' });
  const selfType = pointerTo(fn.owner);
  const target = m.targetOf(self, () => ({ cells: [self], label, isArray: false }));
  const thisCell: Cell = { type: selfType, value: { k: 'ref', type: selfType, target, index: 0 }, init: true };
  members.vars.set('this', { name: 'this', cell: thisCell, isConst: true, kind: 'param' });
  const params = bindParameters(m, fn, cells, members, span);
  const inits = new Map((fn.inits ?? []).map((init) => [init.name, init]));
  for (const [name, cell] of object.fields) {
    const init = inits.get(name);
    if (init === undefined) continue;
    if (hasLifecycle(m, cell.type)) await construct(m, cell, init.args, params, init.span, `${label}.${name}`);
    else if (init.args.length > 1)
      throw new InterpError('type', `the member ${name} of ${fn.owner.name} takes one initialiser, not ${init.args.length}`, init.span);
    else {
      const [only] = init.args;
      cell.value =
        only === undefined
          ? zeroValue(cell.type, true)
          : convert(await evaluate(m, only, params), cell.type, init.span, false, `initialising ${label}.${name}`);
      cell.init = true;
    }
  }
  for (const name of inits.keys())
    if (!object.fields.has(name)) {
      const init = inits.get(name);
      throw new InterpError('type', `${fn.owner.name} has no member "${name}" to initialise`, init?.span ?? span);
    }
  return runFunction(m, fn, params, span, undefined, self);
}
