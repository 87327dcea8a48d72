import type { Declarator, Expr, FunctionDef, Stmt } from './ast.ts';
import { typeName } from './c-type-model.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { evaluate } from './eval.ts';
import { InterpError } from './exec-errors.ts';
import { type BindingKind, type Frame, type Machine, Scope } from './machine.ts';
import { type Cell, copyValue, newCell, truthy, type Value, valueType, withUnionMember, zeroValue } from './values.ts';

export type Completion =
  | { readonly k: 'normal' }
  | { readonly k: 'return'; readonly value: Value | undefined; readonly span: Span }
  | { readonly k: 'break' | 'continue'; readonly span: Span };

const NORMAL: Completion = { k: 'normal' };

/** Writes `{a, b, {c}}` into a zero-filled aggregate, member by member in declaration order. */
async function fillInitList(m: Machine, cell: Cell, list: Extract<Expr, { kind: 'initList' }>, scope: Scope, what: string): Promise<void> {
  const value = cell.value;
  const targets: { cell: Cell; name: string }[] =
    value.k === 'struct'
      ? [...value.fields].map(([name, member]) => ({ cell: member, name: `${what}.${name}` }))
      : value.k === 'array'
        ? value.items.map((item, index) => ({ cell: item, name: `${what}[${index}]` }))
        : [{ cell, name: what }];
  if (list.items.length > targets.length && value.k !== 'union') {
    throw new InterpError('type', `too many initialisers for ${what} (${typeName(cell.type)} takes ${targets.length})`, list.span);
  }
  for (const [index, item] of list.items.entries()) {
    if (value.k === 'union') {
      // C11 6.7.9: a braced initialiser sets the union's first member (moduleId).
      const first = await evaluate(m, item, scope);
      if (first.k === 'int') cell.value = withUnionMember(value, 'moduleId', first.v);
      return;
    }
    const target = targets[index];
    if (target === undefined) return;
    if (item.kind === 'initList') await fillInitList(m, target.cell, item, scope, target.name);
    else target.cell.value = convert(await evaluate(m, item, scope), target.cell.type, item.span, false, `initialising ${target.name}`);
  }
}

export async function declare(m: Machine, d: Declarator, scope: Scope, kind: BindingKind): Promise<void> {
  let cell: Cell;
  const init = d.init;
  if (d.type === undefined) {
    if (init === undefined) throw new InterpError('type', `${d.name} needs an initialiser to take its type from`, d.span);
    const value = copyValue(await evaluate(m, init, scope));
    cell = { type: valueType(value), value, init: true };
  } else if (init?.kind === 'initList') {
    cell = newCell(d.type, true);
    await fillInitList(m, cell, init, scope, d.name);
  } else if (init !== undefined) {
    if (d.type.k === 'array')
      throw new InterpError('unsupported', `initialising the array ${d.name} from an expression: not supported (use {…})`, d.span);
    const value = await evaluate(m, init, scope);
    cell = { type: d.type, value: convert(value, d.type, init.span, false, `initialising ${d.name}`), init: true };
  } else {
    // Globals are zero-initialised (C11 6.7.9); locals are indeterminate until written.
    cell = newCell(d.type, kind === 'global');
  }
  m.declare(scope, d.name, cell, d.isConst, kind, d.span);
}

/** Runs one statement. `gated` is false for a body that sits on its header's line, which runs in the header's step. */
export async function execStmt(m: Machine, stmt: Stmt, scope: Scope, gated = true): Promise<Completion> {
  const frame = m.frames.at(-1);
  if (frame !== undefined && stmt.kind !== 'block') frame.scope = scope;
  const enter = gated && stmt.kind !== 'block' && stmt.kind !== 'empty' ? () => m.enter(stmt.span) : () => Promise.resolve();
  const sameLine = (body: Stmt) => body.kind !== 'block' && body.span.line === stmt.span.line;
  const body = (inner: Stmt, innerScope: Scope) => execStmt(m, inner, innerScope, !sameLine(inner));
  switch (stmt.kind) {
    case 'empty':
      return NORMAL;
    case 'block': {
      const inner = new Scope(scope);
      for (const item of stmt.body) {
        const done = await execStmt(m, item, inner);
        if (done.k !== 'normal') return done;
      }
      return NORMAL;
    }
    case 'decl':
      await enter();
      for (const d of stmt.declarators) await declare(m, d, scope, frame === undefined ? 'global' : 'local');
      return NORMAL;
    case 'expr':
      await enter();
      await evaluate(m, stmt.expr, scope);
      return NORMAL;
    case 'if': {
      await enter();
      if (truthy(await evaluate(m, stmt.test, scope))) return body(stmt.consequent, scope);
      return stmt.alternate === undefined ? NORMAL : body(stmt.alternate, scope);
    }
    case 'while':
    case 'do':
    case 'for':
      return loop(m, stmt, scope, enter, body);
    case 'rangeFor':
      throw new InterpError('unsupported', 'range-for: not supported yet', stmt.span);
    case 'return':
      await enter();
      return { k: 'return', value: stmt.value === undefined ? undefined : await evaluate(m, stmt.value, scope), span: stmt.span };
    case 'break':
    case 'continue':
      await enter();
      return { k: stmt.kind, span: stmt.span };
  }
}

type Loop = Extract<Stmt, { kind: 'while' | 'do' | 'for' }>;

/** Each iteration pauses at the loop's header line (the `while (…)` line for do/while), then tests. */
async function loop(
  m: Machine,
  stmt: Loop,
  outer: Scope,
  enter: () => Promise<void>,
  body: (inner: Stmt, scope: Scope) => Promise<Completion>,
): Promise<Completion> {
  const scope = stmt.kind === 'for' ? new Scope(outer) : outer;
  const frame = m.frames.at(-1);
  // The header's variables (`for (int i …)`) are visible while paused on it.
  const header = async () => {
    if (frame !== undefined) frame.scope = scope;
    await enter();
  };
  if (stmt.kind === 'for') {
    await enter();
    if (stmt.init !== undefined) await execStmt(m, stmt.init, scope, false);
  }
  for (let first = true; ; first = false) {
    if (stmt.kind === 'do') {
      if (!first) {
        await m.enter(stmt.test.span);
        if (!truthy(await evaluate(m, stmt.test, scope))) return NORMAL;
      }
    } else {
      if (stmt.kind === 'while' || !first) await header();
      if (stmt.kind === 'for' && !first && stmt.update !== undefined) await evaluate(m, stmt.update, scope);
      if (stmt.test !== undefined && !truthy(await evaluate(m, stmt.test, scope))) return NORMAL;
    }
    const done = await body(stmt.body, scope);
    if (done.k === 'break') return NORMAL;
    if (done.k === 'return') return done;
  }
}

function leftover(done: Completion, where: string): void {
  if (done.k === 'break' || done.k === 'continue') throw new InterpError('runtime', `${done.k} outside a loop in ${where}`, done.span);
}

/** `onExit` sees the frame before it goes, so a driver can keep showing the entry's variables once it has returned. */
export async function runFunction(m: Machine, fn: FunctionDef, scope: Scope, span: Span, onExit?: (frame: Frame) => void): Promise<Value> {
  const frame: Frame = { name: fn.name, scope };
  m.frames.push(frame);
  const done = await execStmt(m, fn.body, scope);
  leftover(done, fn.name);
  // Frames are popped only on success: after an error the failing frame stays visible.
  onExit?.(frame);
  m.frames.pop();
  if (fn.returnType.k === 'void') {
    if (done.k === 'return' && done.value !== undefined && done.value.k !== 'void') {
      throw new InterpError('type', `${fn.name} returns void but returns a value`, done.span);
    }
    return { k: 'void' };
  }
  if (done.k !== 'return' || done.value === undefined) {
    // C11 5.1.2.2.3: reaching the end of main returns 0; for other functions the value is indeterminate.
    if (fn.name !== 'main') m.marks.warning(span, `${fn.name} ends without returning a value; PageLens uses 0`);
    return zeroValue(fn.returnType, true);
  }
  return convert(done.value, fn.returnType, done.span, false, `the return value of ${fn.name}`);
}

/** Top-level statements of a fragment (or of the setup) in `scope`, under a frame called `name`. */
export async function runScript(
  m: Machine,
  stmts: readonly Stmt[],
  scope: Scope,
  name: string,
  onExit?: (frame: Frame) => void,
): Promise<Value | undefined> {
  const frame: Frame = { name, scope };
  m.frames.push(frame);
  let result: Value | undefined;
  for (const stmt of stmts) {
    const done = await execStmt(m, stmt, scope);
    leftover(done, name);
    if (done.k === 'return') {
      result = done.value;
      break;
    }
  }
  onExit?.(frame);
  m.frames.pop();
  return result;
}

/** Global declarations of a file of functions: run once, without pausing, before the entry function. */
export async function runGlobals(m: Machine, stmts: readonly Stmt[]): Promise<void> {
  for (const stmt of stmts) {
    if (stmt.kind !== 'decl') continue;
    m.marks.executed(stmt.span);
    for (const d of stmt.declarators) await declare(m, d, m.globals, 'global');
  }
}
