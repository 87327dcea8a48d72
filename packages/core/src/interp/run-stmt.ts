import type { Declarator, Expr, FunctionDef, Stmt } from './ast.ts';
import { type CType, typeName } from './c-type-model.ts';
import { charArrayFromString } from './char-array-init.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { evaluate, evaluateAll, evaluatePairs } from './eval.ts';
import { InterpError } from './exec-errors.ts';
import { closingSpan } from './host-memory.ts';
import { constructVector, freeVectors, holdsVector } from './library-calls.ts';
import { fillMap } from './library-map.ts';
import { type LValue, resolveLValue } from './lvalue.ts';
import { type BindingKind, type Frame, type Machine, Scope } from './machine.ts';
import { construct, destroy, hasLifecycle } from './objects.ts';
import { holdReturned, holdSmart, settleReturned, smartObject } from './smart-pointers.ts';
import {
  type Cell,
  copyValue,
  describeValue,
  newCell,
  truthy,
  type Value,
  valueType,
  vectorItem,
  withUnionMember,
  zeroValue,
} from './values.ts';

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

/** `T& r = x`: another name for x's cell; a const reference to a value that is no object gets a cell of its own. */
async function referTo(m: Machine, d: Declarator, init: Expr, scope: Scope): Promise<Cell> {
  let lv: LValue;
  try {
    lv = await resolveLValue(m, init, scope, (e, s) => evaluate(m, e, s));
  } catch (error) {
    if (!(error instanceof InterpError) || error.kind !== 'type' || !d.isConst) throw error;
    const value = copyValue(await evaluate(m, init, scope));
    return { type: d.type ?? valueType(value), value, init: true };
  }
  if (lv.cell === undefined)
    throw new InterpError(
      'unsupported',
      `the reference ${d.name} to ${lv.label}: memory PageLens does not model cannot be referred to`,
      d.span,
    );
  return lv.cell;
}

/** Declarations of the library types: std::vector's elements in heap memory, std::string's text, file streams not modeled. */
async function libraryObject(m: Machine, d: Declarator, type: CType, scope: Scope): Promise<Cell | undefined> {
  if (type.k === 'smart') return smartObject(m, d, type, (expr) => evaluate(m, expr, scope));
  const args = d.ctorArgs === undefined ? [] : await evaluateAll(m, d.ctorArgs, scope);
  if (type.k === 'vector') {
    const cell: Cell = { type, value: zeroValue(type, true), init: true };
    let count = 0;
    if (d.init?.kind === 'initList') count = d.init.items.length;
    else if (d.init !== undefined)
      throw new InterpError('unsupported', `initialising the std::vector ${d.name} from another: not supported (copying a vector)`, d.span);
    else if (args[0] !== undefined) {
      const first = args[0];
      if (first.k !== 'int' || first.v < 0n || first.v >= 2n ** 53n)
        throw new InterpError('type', `std::vector ${d.name}(…) needs a count of elements`, d.span);
      count = Number(first.v);
    }
    await constructVector(m, cell, type, count, d.span, d.name);
    const made = cell.value;
    const items =
      d.init?.kind === 'initList'
        ? await evaluateAll(m, d.init.items, scope)
        : args[1] === undefined
          ? []
          : Array.from({ length: count }, () => args[1]);
    if (made.k === 'vector')
      items.forEach((value, index) => {
        if (value !== undefined) vectorItem(made, index).value = convert(value, type.of, d.span, false, `initialising ${d.name}[${index}]`);
      });
    return cell;
  }
  if (type.k === 'map') {
    const cell: Cell = { type, value: zeroValue(type, true), init: true };
    if (d.init !== undefined && d.init.kind !== 'initList')
      throw new InterpError(
        'unsupported',
        `initialising the ${typeName(type)} ${d.name} from another: not supported (copying a map)`,
        d.span,
      );
    const made = cell.value;
    if (made.k === 'map' && d.init?.kind === 'initList') fillMap(made, await evaluatePairs(m, d.init.items, scope), d.span);
    return cell;
  }
  if (type.k === 'string' && args[0] !== undefined)
    return { type, value: convert(args[0], type, d.span, false, `initialising ${d.name}`), init: true };
  if (type.k === 'ptr' && type.name?.startsWith('std::') === true) {
    m.marks.note(d.span, `the ${type.name} ${d.name} is not modeled: PageLens runs no file system`);
    return { type, value: zeroValue(type, true), init: true };
  }
  if (args[0] !== undefined) return { type, value: convert(args[0], type, d.span, false, `initialising ${d.name}`), init: true };
  return undefined;
}

/** `Foo obj;`, `Foo obj(a, b);`, `Foo obj{a, b};` of a class with a constructor or destructor: constructed now, destroyed when its block ends. */
async function declareObject(m: Machine, d: Declarator, type: CType, scope: Scope, kind: BindingKind): Promise<void> {
  const cell = newCell(type, kind === 'global');
  const args = d.init?.kind === 'initList' ? d.init.items : (d.ctorArgs ?? []);
  m.declare(scope, d.name, cell, d.isConst, kind, d.span);
  if (holdsVector(type)) scope.cleanups.push((end) => freeVectors(m, cell.value, end, d.name));
  await construct(m, cell, args, scope, d.span, d.name);
  scope.cleanups.push((end) => destroy(m, cell, end, d.name));
}

export async function declare(m: Machine, d: Declarator, scope: Scope, kind: BindingKind): Promise<void> {
  let cell: Cell;
  const init = d.init;
  if (d.type !== undefined && d.ref !== true && (init === undefined || init.kind === 'initList') && hasLifecycle(m, d.type))
    return declareObject(m, d, d.type, scope, kind);
  const library = d.type === undefined ? undefined : await libraryObject(m, d, d.type, scope);
  if (library !== undefined) cell = library;
  else if (d.ref === true) {
    if (init === undefined) throw new InterpError('type', `the reference ${d.name} needs an object to refer to`, d.span);
    cell = await referTo(m, d, init, scope);
  } else if (d.type === undefined) {
    if (init === undefined) throw new InterpError('type', `${d.name} needs an initialiser to take its type from`, d.span);
    const value = copyValue(await evaluate(m, init, scope));
    if (value.k === 'vector')
      throw new InterpError(
        'unsupported',
        `auto ${d.name} = a std::vector: copying a vector is not supported; write auto& ${d.name}`,
        d.span,
      );
    cell = { type: valueType(value), value, init: true };
  } else if (init?.kind === 'initList') {
    cell = newCell(d.type, true);
    await fillInitList(m, cell, init, scope, d.name);
  } else if (init !== undefined) {
    const text = d.type.k === 'array' && init.kind === 'string' ? charArrayFromString(d.type, init.value, d.name, init.span) : undefined;
    if (text !== undefined) cell = text;
    else if (d.type.k === 'array')
      throw new InterpError('unsupported', `initialising the array ${d.name} from an expression: not supported (use {…})`, d.span);
    else {
      const value = await evaluate(m, init, scope);
      cell = { type: d.type, value: convert(value, d.type, init.span, false, `initialising ${d.name}`), init: true };
    }
  } else {
    // Globals are zero-initialised (C11 6.7.9); locals are indeterminate until written.
    cell = newCell(d.type, kind === 'global' || d.type.k === 'string');
  }
  m.declare(scope, d.name, cell, d.isConst, kind, d.span);
  if (d.ref !== true) holdSmart(cell.value);
  if (d.ref !== true && holdsVector(cell.type)) scope.cleanups.push((end) => freeVectors(m, cell.value, end, d.name));
}

/**
 * `return member_;` of a function returning a reference: the object itself, read by the caller as
 * its value. Nothing can write through it (`f() = x`, `T& r = f()` stop with a message), so the
 * caller's reads are right and no write is lost.
 */
async function returnedObject(m: Machine, expr: Expr, scope: Scope): Promise<Value> {
  const lv = await resolveLValue(m, expr, scope, (e, s) => evaluate(m, e, s));
  return lv.read();
}

/** Runs one statement. `gated` is false for a body that sits on its header's line, which runs in the header's step. */
export async function execStmt(m: Machine, stmt: Stmt, scope: Scope, gated = true): Promise<Completion> {
  const frame = m.frames.at(-1);
  if (frame !== undefined && stmt.kind !== 'block') frame.scope = scope;
  const enter = gated && stmt.kind !== 'block' && stmt.kind !== 'empty' ? () => m.enter(stmt.span) : () => Promise.resolve();
  // A body on its header's line runs within the header's step: one statement, or a block that also
  // ends there (`if (p) { a(); b(); }`, the `do { … } while (0)` of a CHECK_ACL(x) macro).
  const sameLine = (body: Stmt) => body.span.line === stmt.span.line && (body.kind !== 'block' || body.span.endLine === stmt.span.line);
  const body = (inner: Stmt, innerScope: Scope) => execStmt(m, inner, innerScope, !sameLine(inner));
  switch (stmt.kind) {
    case 'empty':
      return NORMAL;
    case 'block': {
      const inner = new Scope(scope);
      let done = NORMAL;
      for (const item of stmt.body) {
        done = await execStmt(m, item, inner, gated);
        if (done.k !== 'normal') break;
      }
      await m.leave(inner, closingSpan(stmt.span));
      return done;
    }
    case 'decl':
      await enter();
      for (const d of stmt.declarators) await declare(m, d, scope, frame === undefined ? 'global' : 'local');
      await settleReturned(m);
      return NORMAL;
    case 'expr':
      await enter();
      await evaluate(m, stmt.expr, scope);
      await settleReturned(m);
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
      return rangeFor(m, stmt, scope, enter, body);
    case 'switch':
      await enter();
      return switchStatement(m, stmt, scope);
    case 'return': {
      await enter();
      const value =
        stmt.value === undefined
          ? undefined
          : frame?.returnsRef === true
            ? await returnedObject(m, stmt.value, scope)
            : await evaluate(m, stmt.value, scope);
      holdReturned(m, value, stmt.span);
      return { k: 'return', value, span: stmt.span };
    }
    case 'break':
    case 'continue':
      await enter();
      return { k: stmt.kind, span: stmt.span };
  }
}

/** Runs from the label that matches (else `default`, else nothing) to the end or a `break`, falling through the labels between. */
async function switchStatement(m: Machine, stmt: Extract<Stmt, { kind: 'switch' }>, scope: Scope): Promise<Completion> {
  const value = await evaluate(m, stmt.test, scope);
  if (value.k !== 'int') throw new InterpError('type', `switch needs an integer, not ${describeValue(value)}`, stmt.test.span);
  let start: number | undefined;
  for (const label of stmt.labels) {
    if (label.value === undefined) continue;
    const candidate = await evaluate(m, label.value, scope);
    if (candidate.k !== 'int') throw new InterpError('type', `a case label needs an integer, not ${describeValue(candidate)}`, label.span);
    if (candidate.v === value.v) {
      start = label.at;
      break;
    }
  }
  start ??= stmt.labels.find((label) => label.value === undefined)?.at;
  if (start === undefined) return NORMAL;
  const inner = new Scope(scope);
  let done = NORMAL;
  for (const item of stmt.body.slice(start)) {
    done = await execStmt(m, item, inner);
    if (done.k !== 'normal') break;
  }
  await m.leave(inner, closingSpan(stmt.span));
  return done.k === 'break' ? NORMAL : done;
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
      // A do/while on one line (a macro's `do { … } while (0)`) takes one step per iteration, as it starts.
      const oneLine = stmt.body.span.endLine === stmt.span.line;
      if (!first) {
        if (!oneLine) await m.enter(stmt.test.span);
        if (!truthy(await evaluate(m, stmt.test, scope))) return NORMAL;
      }
      if (oneLine) await enter();
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

/** `for (auto& x : range)` over an array (its cells) or a std::vector (elements whose contents are not modeled). */
async function rangeFor(
  m: Machine,
  stmt: Extract<Stmt, { kind: 'rangeFor' }>,
  outer: Scope,
  enter: () => Promise<void>,
  body: (inner: Stmt, scope: Scope) => Promise<Completion>,
): Promise<Completion> {
  await enter();
  const range = await evaluate(m, stmt.range, outer);
  let cells: readonly Cell[];
  if (range.k === 'ref' && range.target.isArray) cells = range.target.cells.slice(range.index);
  else if (range.k === 'map') cells = [...range.entries.cells];
  else if (range.k === 'vector') {
    cells = Array.from({ length: range.size }, (_, index) => vectorItem(range, index));
  } else throw new InterpError('type', `for (… : ${describeValue(range)}): PageLens loops over arrays and std::vector`, stmt.span);
  const frame = m.frames.at(-1);
  for (const [index, element] of cells.entries()) {
    const scope = new Scope(outer);
    if (frame !== undefined) frame.scope = scope;
    if (index > 0) await m.enter(stmt.span);
    const cell =
      stmt.item.ref === true
        ? element
        : {
            type: stmt.item.type ?? element.type,
            value: convert(copyValue(element.value), stmt.item.type ?? element.type, stmt.span, false, stmt.item.name),
            init: true,
          };
    m.declare(scope, stmt.item.name, cell, stmt.item.isConst, 'local', stmt.item.span);
    const done = await body(stmt.body, scope);
    await m.leave(scope, closingSpan(stmt.body.span));
    if (done.k === 'break') return NORMAL;
    if (done.k === 'return') return done;
  }
  return NORMAL;
}

function leftover(done: Completion, where: string): void {
  if (done.k === 'break' || done.k === 'continue') throw new InterpError('runtime', `${done.k} outside a loop in ${where}`, done.span);
}

/** `onExit` sees the frame before it goes, so a driver can keep showing the entry's variables once it has returned. */
export async function runFunction(
  m: Machine,
  fn: FunctionDef,
  scope: Scope,
  span: Span,
  onExit?: (frame: Frame) => void,
  self?: Cell,
): Promise<Value> {
  const base: Frame = self === undefined ? { name: fn.name, scope } : { name: fn.name, scope, self };
  const frame: Frame = fn.returnsRef === true ? { ...base, returnsRef: true } : base;
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
  // A returned reference is the object's value as it is: no copy (a std::vector or map is not copied either).
  if (fn.returnsRef === true) return done.value;
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
  const last = stmts.at(-1);
  if (last !== undefined) await m.leave(scope, closingSpan(last.span));
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
