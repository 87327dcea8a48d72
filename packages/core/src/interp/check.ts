import { ACL_CONSTANTS } from '../acl/enums.ts';
import { isAclFunctionName } from '../acl/functions.ts';
import { catalogueArity } from './acl-call.ts';
import type { Expr, Program, Stmt } from './ast.ts';
import { baseType, fieldsOf } from './c-type-model.ts';
import { type Diagnostic, diagnostic } from './diagnostics.ts';
import { undeclaredMessage } from './exec-errors.ts';
import { LIBRARY_NAMES } from './library-names.ts';
import { outOfScopeMessage } from './parse-context.ts';
import { acceptsArgs, memberFunction, resolveFunction } from './resolve-function.ts';

/**
 * Static checks before anything runs: every name is declared (in scope, in order), an ACL
 * constant, or an input; catalogue and program functions get the right number of arguments.
 */
export function checkProgram(program: Program, inputs: readonly string[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  const seen = new Set<string>();
  const scopes: Set<string>[] = [new Set(inputs), new Set()];
  const declared = (name: string) => scopes.some((s) => s.has(name));
  const add = (name: string) => scopes.at(-1)?.add(name);
  /** Variables whose type can hold a function: a pointer, or an opaque type (`aclrtAllocatorAllocFunc`, a typedef PageLens does not see). */
  const mayHoldFunction = new Set<string>();
  const report = (d: Diagnostic) => {
    const key = `${d.kind}:${d.name ?? d.message}:${d.line}`;
    if (!seen.has(key)) found.push(d);
    seen.add(key);
  };
  const scoped = (inner: () => void) => {
    scopes.push(new Set());
    inner();
    scopes.pop();
  };

  const expr = (e: Expr): void => {
    switch (e.kind) {
      case 'name':
        // A function named as a value (a smart pointer's deleter): the program's, or a member of the class being defined.
        if (
          !declared(e.name) &&
          !ACL_CONSTANTS.has(e.name) &&
          !LIBRARY_NAMES.has(e.name) &&
          !program.functions.has(e.name) &&
          !(owner !== undefined && program.functions.has(`${owner}::${e.name}`))
        ) {
          report(diagnostic('error', 'undeclared', e.span, undeclaredMessage(e.name), e.name));
        }
        return;
      case 'sizeofName':
        if (!declared(e.name) && baseType([e.name]) === undefined)
          report(diagnostic('error', 'undeclared', e.span, undeclaredMessage(e.name), e.name));
        return;
      case 'call': {
        e.args.forEach(expr);
        if (
          declared(e.callee) &&
          mayHoldFunction.has(e.callee) &&
          e.launch === undefined &&
          resolveFunction(program.functions, e.callee, current, e.args.length) === undefined
        ) {
          // `allocFunc(allocator, 256)`: a variable called as a function holds a function pointer.
          const at = e.calleeSpan;
          const what = `A call through the function pointer ${e.callee}`;
          report(diagnostic('error', 'unsupported', at, outOfScopeMessage(what, at.line, at.column)));
          return;
        }
        if (declared(e.callee) || e.launch !== undefined) return;
        const defined =
          (owner === undefined ? undefined : memberFunction(program.functions, owner, e.callee, e.args.length)) ??
          resolveFunction(program.functions, e.callee, current, e.args.length);
        const arity =
          defined !== undefined
            ? { count: defined.params.length, names: defined.params.map((p) => p.name) }
            : isAclFunctionName(e.callee)
              ? catalogueArity(e.callee)
              : undefined;
        if (arity !== undefined && arity.count !== e.args.length && (defined === undefined || !acceptsArgs(defined, e.args.length))) {
          const names = arity.names.join(', ') || 'none';
          report(diagnostic('error', 'arity', e.span, `${e.callee} takes ${arity.count} argument(s) (${names}), not ${e.args.length}`));
        }
        return;
      }
      case 'unary':
      case 'deref':
      case 'addr':
      case 'update':
      case 'cast':
      case 'sizeofExpr':
        expr(e.operand);
        return;
      case 'binary':
      case 'comma':
        expr(e.left);
        expr(e.right);
        return;
      case 'assign':
        expr(e.target);
        expr(e.value);
        return;
      case 'cond':
        expr(e.test);
        expr(e.consequent);
        expr(e.alternate);
        return;
      case 'index':
        expr(e.target);
        expr(e.index);
        return;
      case 'field':
        expr(e.target);
        return;
      case 'paren':
        expr(e.inner);
        return;
      case 'initList':
        for (const item of e.items) expr(item);
        return;
      case 'method':
        expr(e.target);
        e.args.forEach(expr);
        return;
      case 'new':
        if (e.count !== undefined) expr(e.count);
        e.args?.forEach(expr);
        return;
      case 'delete':
        expr(e.operand);
        return;
      default:
        return;
    }
  };

  const stmt = (s: Stmt): void => {
    switch (s.kind) {
      case 'decl':
        for (const d of s.declarators) {
          if (d.init !== undefined) expr(d.init);
          d.ctorArgs?.forEach(expr);
          add(d.name);
          if (d.type?.k === 'ptr' || (d.type?.k === 'struct' && d.type.members === undefined)) mayHoldFunction.add(d.name);
        }
        return;
      case 'rangeFor':
        expr(s.range);
        scoped(() => {
          add(s.item.name);
          stmt(s.body);
        });
        return;
      case 'expr':
        expr(s.expr);
        return;
      case 'block':
        scoped(() => s.body.forEach(stmt));
        return;
      case 'if':
        expr(s.test);
        scoped(() => stmt(s.consequent));
        if (s.alternate !== undefined) {
          const alternate = s.alternate;
          scoped(() => stmt(alternate));
        }
        return;
      case 'while':
        expr(s.test);
        scoped(() => stmt(s.body));
        return;
      case 'do':
        scoped(() => stmt(s.body));
        expr(s.test);
        return;
      case 'for':
        scoped(() => {
          if (s.init !== undefined) stmt(s.init);
          if (s.test !== undefined) expr(s.test);
          if (s.update !== undefined) expr(s.update);
          scoped(() => stmt(s.body));
        });
        return;
      case 'return':
        if (s.value !== undefined) expr(s.value);
        return;
      case 'switch':
        expr(s.test);
        for (const label of s.labels) if (label.value !== undefined) expr(label.value);
        scoped(() => s.body.forEach(stmt));
        return;
      default:
        return;
    }
  };

  let current: string | undefined;
  let owner: string | undefined;
  program.topLevel.forEach(stmt);
  for (const fn of program.functions.values()) {
    current = fn.name;
    owner = fn.owner?.name;
    scoped(() => {
      // A member function names its object's members directly, and `this`.
      if (fn.owner !== undefined && fn.isStatic !== true) for (const member of [...fieldsOf(fn.owner), { name: 'this' }]) add(member.name);
      for (const param of fn.params) add(param.name);
      for (const init of fn.inits ?? []) init.args.forEach(expr);
      stmt(fn.body);
    });
  }
  return found;
}
