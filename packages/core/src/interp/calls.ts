import { isAclFunctionName } from '../acl/functions.ts';
import { callCatalogue } from './acl-call.ts';
import type { CallExpr, FunctionDef } from './ast.ts';
import { callUnmodeled } from './builtins.ts';
import { convert } from './convert.ts';
import { evaluateAll } from './eval.ts';
import { InterpError } from './exec-errors.ts';
import { MAX_CALL_DEPTH, type Machine, Scope } from './machine.ts';
import { runFunction } from './run-stmt.ts';
import type { Value } from './values.ts';

/**
 * A call goes to a function defined in the program, to the `AclRuntime` when the catalogue
 * knows the name (including malloc and free), or else is evaluated and noted as not modeled.
 */
export async function callExpression(m: Machine, call: CallExpr, scope: Scope): Promise<Value> {
  if (scope.lookup(call.callee) !== undefined) {
    throw new InterpError('type', `${call.callee} is a variable here, not a function: it cannot be called`, call.calleeSpan);
  }
  if (call.launch !== undefined) return callUnmodeled(m, call, scope);
  const defined = m.functions.get(call.callee);
  if (defined !== undefined) return callDefined(m, defined, call, scope);
  if (isAclFunctionName(call.callee)) return callCatalogue(m, call.callee, call, scope);
  return callUnmodeled(m, call, scope);
}

async function callDefined(m: Machine, fn: FunctionDef, call: CallExpr, scope: Scope): Promise<Value> {
  if (call.args.length !== fn.params.length) {
    throw new InterpError('type', `${fn.name} takes ${fn.params.length} argument(s), not ${call.args.length}`, call.span);
  }
  if (m.depth >= MAX_CALL_DEPTH)
    throw new InterpError('runtime', `calls nest deeper than ${MAX_CALL_DEPTH}: runaway recursion?`, call.span);
  const values = await evaluateAll(m, call.args, scope);
  const params = new Scope(m.globals);
  fn.params.forEach((param, index) => {
    const value = values[index] ?? { k: 'void' };
    const cell = {
      type: param.type,
      value: convert(value, param.type, call.span, false, `argument ${index + 1} of ${fn.name}`),
      init: true,
    };
    m.declare(params, param.name, cell, false, 'param', call.span);
  });
  return runFunction(m, fn, params, call.span);
}
