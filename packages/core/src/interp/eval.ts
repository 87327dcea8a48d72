import { ACL_CONSTANTS } from '../acl/enums.ts';
import { binary, unary } from './arith.ts';
import type { Expr } from './ast.ts';
import {
  baseType,
  CHAR_PTR,
  DOUBLE,
  FLOAT,
  INT,
  pointerTo,
  SIZE_T,
  type StructType,
  sizeOf,
  typeName,
  UINT,
  VOID_PTR,
} from './c-type-model.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { InterpError, undeclaredMessage } from './exec-errors.ts';
import { heapAlloc } from './host-memory.ts';
import { callMethod } from './library-calls.ts';
import { pairValue } from './library-map.ts';
import { libraryName, OUTPUT_STREAMS } from './library-names.ts';
import { type LValue, label, pointee, resolveLValue, staticType } from './lvalue.ts';
import type { Machine, Scope } from './machine.ts';
import { construct, definedClass, deleteHeapObject } from './objects.ts';
import { outOfScopeMessage } from './parse-context.ts';
import { memberFunction } from './resolve-function.ts';
import { assignSmart } from './smart-pointers.ts';
import { boolValue, type Cell, describeValue, floatValue, intValue, newCell, showValue, truthy, type Value } from './values.ts';

/** The value of a read: arrays decay to a pointer to their first element (C11 6.3.2.1). */
function rvalue(m: Machine, lv: LValue, span: Expr['span']): Value {
  const value = lv.read();
  if (value.k === 'array') {
    const target = m.targetOf(value.items, () => ({ cells: value.items, label: lv.label, isArray: true }));
    return { k: 'ref', type: pointerTo(value.type.of), target, index: 0 };
  }
  if (lv.cell !== undefined && !lv.cell.init && value.k !== 'struct' && value.k !== 'union') {
    m.marks.warning(span, `${lv.label} is read before it is set (indeterminate in C); PageLens uses ${value.k === 'ptr' ? 'NULL' : '0'}`);
  }
  return value;
}

function constant(name: string): Value | undefined {
  const value = ACL_CONSTANTS.get(name);
  if (value === undefined) return undefined;
  return intValue(value <= 0x7fff_ffff ? INT : UINT, BigInt(value));
}

function sizeValue(bytes: number | undefined, what: string, span: Expr['span']): Value {
  if (bytes === undefined) throw new InterpError('type', `sizeof cannot measure ${what}`, span);
  return intValue(SIZE_T, BigInt(bytes));
}

async function assign(m: Machine, expr: Extract<Expr, { kind: 'assign' }>, scope: Scope): Promise<Value> {
  const target = await resolveLValue(m, expr.target, scope, (e, s) => evaluate(m, e, s));
  if (target.isConst) throw new InterpError('type', `${target.label} is const: it cannot be assigned`, expr.span);
  let value = await evaluate(m, expr.value, scope);
  if (expr.op !== '=') {
    const current = rvalue(m, target, expr.target.span);
    const op = expr.op.slice(0, -1);
    if (op === '&&' || op === '||' || !isArithmetic(op))
      throw new InterpError('unsupported', `the operator ${expr.op}: not supported`, expr.span);
    value = binary(op, current, value, expr.span, (text) => m.marks.warning(expr.span, text));
  }
  if (target.type.k === 'smart') return assignSmart(m, target, value, expr.value, expr.span);
  const converted = convert(value, target.type, expr.span, false, `assigning to ${target.label}`);
  target.write(converted);
  return converted;
}

const ARITHMETIC = new Set(['*', '/', '%', '+', '-', '<<', '>>', '&', '^', '|']);
function isArithmetic(op: string): op is '*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '&' | '^' | '|' {
  return ARITHMETIC.has(op);
}

async function update(m: Machine, expr: Extract<Expr, { kind: 'update' }>, scope: Scope): Promise<Value> {
  const target = await resolveLValue(m, expr.operand, scope, (e, s) => evaluate(m, e, s));
  if (target.isConst)
    throw new InterpError('type', `${target.label} is const: it cannot be ${expr.op === '++' ? 'incremented' : 'decremented'}`, expr.span);
  const before = rvalue(m, target, expr.span);
  const one = intValue(INT, 1n);
  const after = convert(
    binary(expr.op === '++' ? '+' : '-', before, one, expr.span, (text) => m.marks.warning(expr.span, text)),
    target.type,
    expr.span,
    false,
    label(expr.operand),
  );
  target.write(after);
  return expr.prefix ? after : before;
}

/** `std::cout << a << b`: the stream and the operands, when the chain's leftmost operand is an output stream. */
function streamOf(expr: Extract<Expr, { kind: 'binary' }>): { name: string; items: Expr[]; span: Expr['span'] } | undefined {
  const items: Expr[] = [];
  let at: Expr = expr;
  while (at.kind === 'binary' && at.op === '<<') {
    items.unshift(at.right);
    at = at.left;
  }
  return at.kind === 'name' && OUTPUT_STREAMS.has(at.name) ? { name: at.name, items, span: expr.span } : undefined;
}

/** `ss << "output" << n << ".bin"` on a std::stringstream variable: the variable's cell and the operands. */
function stringStreamOf(expr: Extract<Expr, { kind: 'binary' }>, scope: Scope): { cell: Cell; items: Expr[] } | undefined {
  const items: Expr[] = [];
  let at: Expr = expr;
  while (at.kind === 'binary' && at.op === '<<') {
    items.unshift(at.right);
    at = at.left;
  }
  const cell = at.kind === 'name' ? scope.lookup(at.name)?.cell : undefined;
  return cell?.type.k === 'string' && cell.type.stream !== undefined ? { cell, items } : undefined;
}

/** Text as `<<` writes it: strings as they are, a char as its character, numbers in decimal. */
function streamText(value: Value): string {
  if (value.k === 'str' || value.k === 'string') return value.text;
  if (value.k === 'int' && value.type.name === 'char') return String.fromCharCode(Number(value.v));
  if (value.k === 'int') return String(value.v);
  return showValue(value);
}

async function appendToStringStream(m: Machine, built: { cell: Cell; items: Expr[] }, scope: Scope): Promise<Value> {
  let text = '';
  for (const item of built.items) {
    if (item.kind === 'name' && (item.name === 'std::endl' || item.name === 'endl')) text += '\n';
    else text += streamText(await evaluate(m, item, scope));
  }
  const before = built.cell.value;
  if (before.k === 'string') built.cell.value = { ...before, text: before.text + text };
  built.cell.init = true;
  return built.cell.value;
}

async function printToStream(m: Machine, stream: { name: string; items: Expr[]; span: Expr['span'] }, scope: Scope): Promise<Value> {
  let text = '';
  for (const item of stream.items) {
    if (item.kind === 'name' && (item.name === 'std::endl' || item.name === 'endl')) {
      text += '\n';
      continue;
    }
    const value = await evaluate(m, item, scope);
    text +=
      value.k === 'str' || value.k === 'string'
        ? value.text
        : value.k === 'int' && value.type.name === 'char'
          ? String.fromCharCode(Number(value.v))
          : showValue(value);
  }
  m.output.push(text);
  m.marks.note(stream.span, `${stream.name} is not modeled; it would print ${JSON.stringify(text)}`);
  return { k: 'int', type: INT, v: 0n };
}

function stringOperator(op: string, left: Value, right: Value, span: Expr['span']): Value {
  const text = (v: Value) =>
    v.k === 'string' || v.k === 'str' ? v.text : v.k === 'int' && v.type.name === 'char' ? String.fromCharCode(Number(v.v)) : undefined;
  const a = text(left);
  const b = text(right);
  if (a === undefined || b === undefined)
    throw new InterpError('type', `std::string ${op} ${describeValue(a === undefined ? left : right)}: not supported`, span);
  if (op === '+') return { k: 'string', type: { k: 'string' }, text: a + b };
  if (op === '==' || op === '!=') return boolValue((a === b) === (op === '=='));
  throw new InterpError('type', `the operator ${op} on std::string: not supported`, span);
}

/** Each expression in turn, left to right (an order C leaves unspecified for arguments). */
/** The object a call returned (`oss.str().size()`): a temporary the method reads; writes to it are lost, as in C++. */
function temporary(value: Value, text: string): LValue {
  const cell: Cell = { type: value.k === 'void' ? { k: 'void' } : value.type, value, init: true };
  return { type: cell.type, label: text, isConst: false, cell, read: () => cell.value, write: (v) => (cell.value = v) };
}

/** Arguments of a map's method, where `{key, value}` is a pair (`m.insert({k, v})`). */
export async function evaluatePairs(m: Machine, args: readonly Expr[], scope: Scope): Promise<Value[]> {
  const values: Value[] = [];
  for (const arg of args) {
    const [key, value] = arg.kind === 'initList' ? arg.items : [];
    if (arg.kind === 'initList' && key !== undefined && value !== undefined && arg.items.length === 2)
      values.push(pairValue(await evaluate(m, key, scope), await evaluate(m, value, scope)));
    else values.push(await evaluate(m, arg, scope));
  }
  return values;
}

export async function evaluateAll(m: Machine, exprs: readonly Expr[], scope: Scope): Promise<Value[]> {
  const values: Value[] = [];
  for (const expr of exprs) values.push(await evaluate(m, expr, scope));
  return values;
}

export async function evaluate(m: Machine, expr: Expr, scope: Scope): Promise<Value> {
  const lvalueOf = (e: Expr) => resolveLValue(m, e, scope, (inner, s) => evaluate(m, inner, s));
  switch (expr.kind) {
    case 'int':
      return { k: 'int', type: expr.type, v: expr.value };
    case 'float':
      return floatValue(expr.single ? FLOAT : DOUBLE, expr.value);
    case 'string':
      return { k: 'str', type: CHAR_PTR, text: expr.value };
    case 'null':
      return { k: 'ptr', type: VOID_PTR, addr: 0n };
    case 'name': {
      const binding = scope.lookup(expr.name);
      if (binding !== undefined) return rvalue(m, await lvalueOf(expr), expr.span);
      const value = constant(expr.name) ?? libraryName(expr.name, m.frames.at(-1)?.name);
      if (value !== undefined) return value;
      if (m.functions.has(expr.name))
        throw new InterpError(
          'unsupported',
          outOfScopeMessage(
            `The function ${expr.name} used as a value (a function pointer, such as a callback)`,
            expr.span.line,
            expr.span.column,
          ),
          expr.span,
        );
      throw new InterpError('undeclared', undeclaredMessage(expr.name), expr.span, expr.name);
    }
    case 'paren':
      return evaluate(m, expr.inner, scope);
    case 'unary':
      return unary(expr.op, await evaluate(m, expr.operand, scope), expr.span, (text) => m.marks.warning(expr.span, text));
    case 'addr': {
      const target = await lvalueOf(expr.operand);
      if (target.address !== undefined) return { k: 'ptr', type: pointerTo(target.type), addr: target.address };
      if (target.ref === undefined) throw new InterpError('unsupported', `taking the address of ${target.label}: not supported`, expr.span);
      return { k: 'ref', type: pointerTo(target.type), target: target.ref.target, index: target.ref.index };
    }
    case 'deref':
    case 'index':
    case 'field':
      return rvalue(m, await lvalueOf(expr), expr.span);
    case 'update':
      return update(m, expr, scope);
    case 'assign':
      return assign(m, expr, scope);
    case 'binary': {
      const stream = expr.op === '<<' ? streamOf(expr) : undefined;
      if (stream !== undefined) return printToStream(m, stream, scope);
      const built = expr.op === '<<' ? stringStreamOf(expr, scope) : undefined;
      if (built !== undefined) return appendToStringStream(m, built, scope);
      if (expr.op === '&&' || expr.op === '||') {
        const left = truthy(await evaluate(m, expr.left, scope));
        if (expr.op === '&&' ? !left : left) return boolValue(left);
        return boolValue(truthy(await evaluate(m, expr.right, scope)));
      }
      const left = await evaluate(m, expr.left, scope);
      const right = await evaluate(m, expr.right, scope);
      if (left.k === 'string' || right.k === 'string') return stringOperator(expr.op, left, right, expr.span);
      // `p == nullptr`, `a != b` of smart pointers compare the pointers they hold.
      const raw = (value: Value) => (value.k === 'smart' ? value.ptr : value);
      return binary(expr.op, raw(left), raw(right), expr.span, (text) => m.marks.warning(expr.span, text));
    }
    case 'cond':
      return truthy(await evaluate(m, expr.test, scope)) ? evaluate(m, expr.consequent, scope) : evaluate(m, expr.alternate, scope);
    case 'comma':
      await evaluate(m, expr.left, scope);
      return evaluate(m, expr.right, scope);
    case 'cast': {
      const value = await evaluate(m, expr.operand, scope);
      return convert(
        value,
        expr.type,
        expr.span,
        true,
        `${expr.style === 'c' ? `(${typeName(expr.type)})` : expr.style} ${label(expr.operand)}`,
      );
    }
    case 'sizeofType':
      return sizeValue(sizeOf(expr.type), typeName(expr.type), expr.span);
    case 'sizeofName': {
      const type = scope.lookup(expr.name)?.cell.type ?? baseType([expr.name]);
      if (type === undefined) throw new InterpError('undeclared', undeclaredMessage(expr.name), expr.span, expr.name);
      return sizeValue(sizeOf(type), expr.name, expr.span);
    }
    case 'sizeofExpr': {
      const type = staticType(expr.operand, scope);
      return sizeValue(
        type === undefined ? undefined : sizeOf(type),
        `"${label(expr.operand)}" (write sizeof(type) or sizeof(variable))`,
        expr.span,
      );
    }
    case 'call':
      return m.call(expr, scope);
    case 'initList':
      throw new InterpError('type', 'an initialiser list {…} is only allowed in a declaration', expr.span);
    case 'method': {
      const target = expr.arrow
        ? pointee(m, await evaluate(m, expr.target, scope), expr.span, label(expr.target))
        : expr.target.kind === 'call' || expr.target.kind === 'method'
          ? temporary(await evaluate(m, expr.target, scope), label(expr.target))
          : await lvalueOf(expr.target);
      const owner = definedClass(target.type);
      const method = owner === undefined ? undefined : memberFunction(m.functions, owner.name, expr.name, expr.args.length);
      if (method !== undefined && target.cell !== undefined) {
        if (method.isStatic === true)
          return m.call({ kind: 'call', callee: method.name, calleeSpan: expr.span, args: expr.args, span: expr.span }, scope);
        return m.member(m, method, target.cell, expr.args, scope, expr.span, target.label);
      }
      const args = target.read().k === 'map' ? await evaluatePairs(m, expr.args, scope) : await evaluateAll(m, expr.args, scope);
      return callMethod(m, target, expr.name, args, expr.span);
    }
    case 'new': {
      const made = expr.count === undefined ? definedClass(expr.type) : undefined;
      if (made !== undefined) return newObject(m, made, expr.args ?? [], scope, expr.span);
      const count = expr.count === undefined ? 1n : await evaluate(m, expr.count, scope);
      const n = typeof count === 'bigint' ? count : count.k === 'int' ? count.v : -1n;
      if (n < 0n || n >= 2n ** 53n) throw new InterpError('type', `new ${typeName(expr.type)}[…] needs a size`, expr.span);
      const bytes = Number(n) * (sizeOf(expr.type) ?? 1);
      const what = `new ${typeName(expr.type)}${expr.count === undefined ? '' : `[${n}]`}`;
      return { k: 'ptr', type: pointerTo(expr.type), addr: await heapAlloc(m, bytes, expr.span, what) };
    }
    case 'delete': {
      const pointer = await evaluate(m, expr.operand, scope);
      if (pointer.k !== 'ptr') throw new InterpError('type', `delete ${label(expr.operand)}: not a pointer from new`, expr.span);
      await deleteHeapObject(m, pointer.addr, expr.span, `delete${expr.array ? '[]' : ''} ${label(expr.operand)}`);
      return { k: 'void' };
    }
  }
}

/** `new Foo(args)`: its bytes from malloc, its members kept by the interpreter under that address, its constructor run. */
async function newObject(m: Machine, type: StructType, args: readonly Expr[], scope: Scope, span: Span): Promise<Value> {
  const what = `new ${type.name}`;
  const addr = await heapAlloc(m, Math.max(1, sizeOf(type) ?? 1), span, what);
  const cell = newCell(type, false);
  m.heapObjects.set(addr, cell);
  await construct(m, cell, args, scope, span, `*(${what})`);
  return { k: 'ptr', type: pointerTo(type), addr };
}
