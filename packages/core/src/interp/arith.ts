import type { BinaryOp, UnaryOp } from './ast.ts';
import { DOUBLE, FLOAT, INT, type IntType, LONG, sizeOf, UINT, ULONG } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import { boolValue, carryUnmodeled, describeValue, floatValue, intValue, refLabel, type Value } from './values.ts';

/*
 * C's arithmetic on LP64 (C11 6.3.1): integer promotion to int, the usual arithmetic conversions
 * to a common type, wrap-around for unsigned types, truncating division. What C leaves undefined
 * (division by zero, shifting by the width or more) stops the run; signed overflow wraps with a
 * warning on the line.
 */

export type Warn = (message: string) => void;

/** C11 6.3.1.1: everything narrower than int becomes int (int holds every 8- and 16-bit value). */
export function promote(type: IntType): IntType {
  return type.bits < 32 ? INT : type;
}

/** C11 6.3.1.8 on LP64: the wider type wins; at equal width, unsigned wins. Keeps a typedef name (size_t) when an operand has it. */
export function commonType(a: IntType, b: IntType): IntType {
  const pa = promote(a);
  const pb = promote(b);
  const bits = Math.max(pa.bits, pb.bits);
  const signed = pa.bits === pb.bits ? pa.signed && pb.signed : pa.bits > pb.bits ? pa.signed : pb.signed;
  for (const candidate of [pa, pb])
    if (candidate.bits === bits && candidate.signed === signed && candidate.enumTable === undefined) return candidate;
  return bits === 64 ? (signed ? LONG : ULONG) : signed ? INT : UINT;
}

function checkedWrap(type: IntType, exact: bigint, op: string, warn: Warn): Value {
  const result = intValue(type, exact);
  if (type.signed && result.k === 'int' && result.v !== exact) {
    warn(`signed overflow in "${op}" on ${type.name} (undefined behaviour in C): the result wrapped to ${result.v}`);
  }
  return result;
}

function pointerStep(value: Value): bigint {
  if (value.k !== 'ptr' && value.k !== 'ref' && value.k !== 'str') return 1n;
  // GNU C steps a void* by 1 byte.
  return BigInt(sizeOf(value.type.to) ?? 1);
}

function pointerArith(op: BinaryOp, a: Value, b: Value, span: Span): Value | undefined {
  const pointerLike = (v: Value) => v.k === 'ptr' || v.k === 'ref';
  if (op === '+' || op === '-') {
    const [pointer, offset] = pointerLike(a) && b.k === 'int' ? [a, b] : op === '+' && pointerLike(b) && a.k === 'int' ? [b, a] : [];
    if (pointer !== undefined && offset?.k === 'int') {
      const delta = op === '-' ? -offset.v : offset.v;
      if (pointer.k === 'ref') return { ...pointer, index: pointer.index + Number(delta) };
      if (pointer.k === 'ptr') return { ...pointer, addr: BigInt.asUintN(64, pointer.addr + delta * pointerStep(pointer)) };
    }
    if (op === '-' && a.k === 'ptr' && b.k === 'ptr') return intValue(LONG, (a.addr - b.addr) / pointerStep(a));
    if (op === '-' && a.k === 'ref' && b.k === 'ref' && a.target === b.target) return intValue(LONG, BigInt(a.index - b.index));
  }
  if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
    const key = (v: Value): bigint | string | undefined =>
      v.k === 'ptr' ? v.addr : v.k === 'int' && v.v === 0n ? 0n : v.k === 'ref' ? refLabel(v) : v.k === 'str' ? `"${v.text}"` : undefined;
    if (!pointerLike(a) && !pointerLike(b) && a.k !== 'str' && b.k !== 'str') return undefined;
    const ka = key(a);
    const kb = key(b);
    if (ka === undefined || kb === undefined) return undefined;
    if (op === '==' || op === '!=') return boolValue((ka === kb) === (op === '=='));
    if (typeof ka === 'bigint' && typeof kb === 'bigint') return compare(op, ka, kb);
    if (a.k === 'ref' && b.k === 'ref' && a.target === b.target) return compare(op, BigInt(a.index), BigInt(b.index));
    throw new InterpError('type', `cannot order ${describeValue(a)} and ${describeValue(b)}: they do not point into the same object`, span);
  }
  return undefined;
}

function compare(op: BinaryOp, x: bigint | number, y: bigint | number): Value {
  switch (op) {
    case '<':
      return boolValue(x < y);
    case '<=':
      return boolValue(x <= y);
    case '>':
      return boolValue(x > y);
    case '>=':
      return boolValue(x >= y);
    case '==':
      return boolValue(x === y);
    default:
      return boolValue(x !== y);
  }
}

function floatArith(op: BinaryOp, a: number, b: number, single: boolean, span: Span): Value {
  const type = single ? FLOAT : DOUBLE;
  switch (op) {
    case '+':
      return floatValue(type, a + b);
    case '-':
      return floatValue(type, a - b);
    case '*':
      return floatValue(type, a * b);
    case '/':
      return floatValue(type, a / b);
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '==':
    case '!=':
      return compare(op, a, b);
    default:
      throw new InterpError('type', `"${op}" needs integer operands, not floating point`, span);
  }
}

/** Every binary operator but `&&` and `||`, which short-circuit in the evaluator. */
export function binary(op: BinaryOp, a: Value, b: Value, span: Span, warn: Warn): Value {
  return carryUnmodeled(binaryOf(op, a, b, span, warn), a, b);
}

function binaryOf(op: BinaryOp, a: Value, b: Value, span: Span, warn: Warn): Value {
  const pointer = pointerArith(op, a, b, span);
  if (pointer !== undefined) return pointer;
  if ((a.k === 'float' || a.k === 'int') && (b.k === 'float' || b.k === 'int') && (a.k === 'float' || b.k === 'float')) {
    const single = (a.k === 'int' || a.type.name === 'float') && (b.k === 'int' || b.type.name === 'float');
    return floatArith(op, Number(a.v), Number(b.v), single, span);
  }
  if (a.k !== 'int' || b.k !== 'int') {
    throw new InterpError('type', `"${op}" cannot combine ${describeValue(a)} and ${describeValue(b)}`, span);
  }
  if (op === '<<' || op === '>>') {
    const type = promote(a.type);
    const count = b.v;
    if (count < 0n || count >= BigInt(type.bits)) {
      throw new InterpError('runtime', `shifting a ${type.bits}-bit ${type.name} by ${count} is undefined behaviour in C`, span);
    }
    const x = intValue(type, a.v);
    const v = x.k === 'int' ? x.v : 0n;
    return op === '<<' ? checkedWrap(type, v << count, op, warn) : intValue(type, v >> count);
  }
  const type = commonType(a.type, b.type);
  const x = intValue(type, a.v);
  const y = intValue(type, b.v);
  if (x.k !== 'int' || y.k !== 'int') return x;
  switch (op) {
    case '+':
      return checkedWrap(type, x.v + y.v, op, warn);
    case '-':
      return checkedWrap(type, x.v - y.v, op, warn);
    case '*':
      return checkedWrap(type, x.v * y.v, op, warn);
    case '/':
    case '%':
      if (y.v === 0n) throw new InterpError('runtime', `${op === '/' ? 'division' : 'remainder'} by zero (undefined behaviour in C)`, span);
      // BigInt division truncates toward zero, as C11 6.5.5 requires.
      return checkedWrap(type, op === '/' ? x.v / y.v : x.v % y.v, op, warn);
    case '&':
      return intValue(type, x.v & y.v);
    case '|':
      return intValue(type, x.v | y.v);
    case '^':
      return intValue(type, x.v ^ y.v);
    default:
      return compare(op, x.v, y.v);
  }
}

export function unary(op: UnaryOp, a: Value, span: Span, warn: Warn): Value {
  return carryUnmodeled(unaryOf(op, a, span, warn), a);
}

function unaryOf(op: UnaryOp, a: Value, span: Span, warn: Warn): Value {
  if (op === '!') {
    if (a.k === 'struct' || a.k === 'array' || a.k === 'union' || a.k === 'void') {
      throw new InterpError('type', `"!" cannot apply to ${describeValue(a)}`, span);
    }
    return boolValue(a.k === 'int' ? a.v === 0n : a.k === 'float' ? a.v === 0 : a.k === 'ptr' ? a.addr === 0n : false);
  }
  if (a.k === 'float' && op !== '~') return floatValue(a.type, op === '-' ? -a.v : a.v);
  if (a.k !== 'int') throw new InterpError('type', `"${op}" cannot apply to ${describeValue(a)}`, span);
  const type = promote(a.type);
  if (op === '-') return checkedWrap(type, -a.v, '-', warn);
  if (op === '~') return intValue(type, ~a.v);
  return intValue(type, a.v);
}
