import type { Expr, Program, Stmt } from './ast.ts';

/*
 * The setup supplies only what the code lacks. A scenario's setup prepares the process a fragment
 * assumes (aclInit, aclrtSetDevice, a stream); code pasted whole makes those calls itself, and
 * running the setup's first would charge the code with errors it did not cause (a second aclInit
 * answers ACL_ERROR_REPEAT_INITIALIZE, LT-1) or leave a device reference behind (LT-2).
 */

/** Process-wide calls the setup leaves to the code when the code makes them. */
export const LEFT_TO_THE_CODE: ReadonlySet<string> = new Set(['aclInit', 'aclrtSetDevice']);

function exprCalls(expr: Expr, out: Set<string>): void {
  switch (expr.kind) {
    case 'call':
      out.add(expr.callee);
      for (const arg of expr.args) exprCalls(arg, out);
      return;
    case 'method':
      exprCalls(expr.target, out);
      for (const arg of expr.args) exprCalls(arg, out);
      return;
    case 'unary':
    case 'deref':
    case 'addr':
    case 'update':
    case 'cast':
    case 'sizeofExpr':
      exprCalls(expr.operand, out);
      return;
    case 'binary':
    case 'comma':
      exprCalls(expr.left, out);
      exprCalls(expr.right, out);
      return;
    case 'assign':
      exprCalls(expr.target, out);
      exprCalls(expr.value, out);
      return;
    case 'cond':
      exprCalls(expr.test, out);
      exprCalls(expr.consequent, out);
      exprCalls(expr.alternate, out);
      return;
    case 'index':
      exprCalls(expr.target, out);
      exprCalls(expr.index, out);
      return;
    case 'field':
      exprCalls(expr.target, out);
      return;
    case 'paren':
      exprCalls(expr.inner, out);
      return;
    case 'initList':
      for (const item of expr.items) exprCalls(item, out);
      return;
    default:
      return;
  }
}

function stmtCalls(stmt: Stmt, out: Set<string>): void {
  switch (stmt.kind) {
    case 'decl':
      for (const d of stmt.declarators) if (d.init !== undefined) exprCalls(d.init, out);
      return;
    case 'expr':
      exprCalls(stmt.expr, out);
      return;
    case 'if':
      exprCalls(stmt.test, out);
      stmtCalls(stmt.consequent, out);
      if (stmt.alternate !== undefined) stmtCalls(stmt.alternate, out);
      return;
    case 'while':
    case 'do':
      exprCalls(stmt.test, out);
      stmtCalls(stmt.body, out);
      return;
    case 'for':
      if (stmt.init !== undefined) stmtCalls(stmt.init, out);
      if (stmt.test !== undefined) exprCalls(stmt.test, out);
      if (stmt.update !== undefined) exprCalls(stmt.update, out);
      stmtCalls(stmt.body, out);
      return;
    case 'rangeFor':
      exprCalls(stmt.range, out);
      stmtCalls(stmt.body, out);
      return;
    case 'block':
      for (const item of stmt.body) stmtCalls(item, out);
      return;
    case 'return':
      if (stmt.value !== undefined) exprCalls(stmt.value, out);
      return;
    default:
      return;
  }
}

/** Every function name the program calls anywhere, in any function or at top level. */
export function calledNames(program: Program): Set<string> {
  const out = new Set<string>();
  for (const stmt of program.topLevel) stmtCalls(stmt, out);
  for (const fn of program.functions.values()) stmtCalls(fn.body, out);
  return out;
}

/** Every name the program declares (variables and parameters, in any function or at top level). */
export function declaredNames(program: Program): Set<string> {
  const out = new Set<string>();
  const visit = (stmt: Stmt): void => {
    switch (stmt.kind) {
      case 'decl':
        for (const d of stmt.declarators) out.add(d.name);
        return;
      case 'if':
        visit(stmt.consequent);
        if (stmt.alternate !== undefined) visit(stmt.alternate);
        return;
      case 'while':
      case 'do':
        visit(stmt.body);
        return;
      case 'for':
        if (stmt.init !== undefined) visit(stmt.init);
        visit(stmt.body);
        return;
      case 'rangeFor':
        out.add(stmt.item.name);
        visit(stmt.body);
        return;
      case 'block':
        stmt.body.forEach(visit);
        return;
      default:
        return;
    }
  };
  program.topLevel.forEach(visit);
  for (const fn of program.functions.values()) {
    for (const param of fn.params) out.add(param.name);
    visit(fn.body);
  }
  return out;
}

/** The names a setup statement hands out as `&name` (the inputs it binds, such as `stream`). */
function boundNames(stmt: Stmt): string[] {
  if (stmt.kind !== 'expr') return [];
  const out: string[] = [];
  const visit = (expr: Expr): void => {
    if (expr.kind === 'addr' && expr.operand.kind === 'name') out.push(expr.operand.name);
    if (expr.kind === 'call') expr.args.forEach(visit);
    if (expr.kind === 'cast' || expr.kind === 'paren') visit(expr.kind === 'cast' ? expr.operand : expr.inner);
  };
  visit(stmt.expr);
  return out;
}

/**
 * Why the setup leaves a statement to the code, or undefined to run it: it makes a process-wide
 * call the code makes too, or it binds an input the code declares itself (the code's own `stream`
 * hides the input, so the setup's would only be left behind).
 */
export function leftToTheCode(stmt: Stmt, codeCalls: ReadonlySet<string>, codeNames: ReadonlySet<string>): string | undefined {
  const own = new Set<string>();
  stmtCalls(stmt, own);
  for (const name of own) if (LEFT_TO_THE_CODE.has(name) && codeCalls.has(name)) return `the code calls ${name} itself`;
  const shadowed = boundNames(stmt).find((name) => codeNames.has(name));
  return shadowed === undefined ? undefined : `the code declares its own ${shadowed}`;
}
