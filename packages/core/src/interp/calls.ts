import { isAclFunctionName } from '../acl/functions.ts';
import { callCatalogue } from './acl-call.ts';
import type { CallExpr, FunctionDef, Param } from './ast.ts';
import { callUnmodeled } from './builtins.ts';
import { convert } from './convert.ts';
import { evaluate } from './eval.ts';
import { InterpError } from './exec-errors.ts';
import { type LValue, resolveLValue } from './lvalue.ts';
import { MAX_CALL_DEPTH, type Machine, Scope } from './machine.ts';
import { resolveFunction } from './resolve-function.ts';
import { runFunction } from './run-stmt.ts';
import type { Cell, Value } from './values.ts';

/**
 * A call goes to a function defined in the program, to the `AclRuntime` when the catalogue
 * knows the name (including malloc and free), or else is evaluated and noted as not modeled.
 */
export async function callExpression(m: Machine, call: CallExpr, scope: Scope): Promise<Value> {
  if (scope.lookup(call.callee) !== undefined) {
    throw new InterpError('type', `${call.callee} is a variable here, not a function: it cannot be called`, call.calleeSpan);
  }
  if (call.launch !== undefined) return callUnmodeled(m, call, scope);
  const defined = resolveFunction(m.functions, call.callee, m.frames.at(-1)?.name);
  if (defined !== undefined) return callDefined(m, defined, call, scope);
  if (isAclFunctionName(call.callee)) return callCatalogue(m, call.callee, call, scope);
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

async function callDefined(m: Machine, fn: FunctionDef, call: CallExpr, scope: Scope): Promise<Value> {
  if (call.args.length !== fn.params.length) {
    throw new InterpError('type', `${fn.name} takes ${fn.params.length} argument(s), not ${call.args.length}`, call.span);
  }
  if (m.depth >= MAX_CALL_DEPTH)
    throw new InterpError('runtime', `calls nest deeper than ${MAX_CALL_DEPTH}: runaway recursion?`, call.span);
  const cells: Cell[] = [];
  for (const [index, param] of fn.params.entries()) {
    const arg = call.args[index];
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
    cells.push({
      type: param.type,
      value: convert(value, param.type, call.span, false, `argument ${index + 1} of ${fn.name}`),
      init: true,
    });
  }
  const params = new Scope(m.globals);
  fn.params.forEach((param, index) => {
    const cell = cells[index];
    if (cell !== undefined) m.declare(params, param.name, cell, false, 'param', call.span);
  });
  return runFunction(m, fn, params, call.span);
}
