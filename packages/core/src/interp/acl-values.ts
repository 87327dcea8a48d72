import { isIntegerValueType, type ParamSpec } from '../acl/functions.ts';
import { mallocAttrMember } from '../acl/structs.ts';
import { isHex, parseHex, toHex } from '../units/hex.ts';
import { baseType, type CType, type IntType, SIZE_T, typeName } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import { type Cell, describeValue, floatValue, intValue, isNullPointer, markInit, unionMember, type Value } from './values.ts';

/*
 * Between interpreter values and the catalogue's representation (functions.ts, runtime.ts):
 * integers become safe JS numbers after C's conversion to the parameter's type, pointers "0x…"
 * strings, `&struct` the struct as an object with its C field names. Out-parameters come back
 * the other way into the variable the C code pointed at.
 */

/** How an argument is named in messages: `aclrtMalloc argument 2 (size_t size)`. */
export interface ArgContext {
  readonly fn: string;
  readonly position: number;
  readonly param: ParamSpec;
  /** The argument's source text, e.g. `prop`. */
  readonly text: string;
  readonly span: Span;
  /** Fields read while still indeterminate, for one warning per call. */
  readonly uninitialized: string[];
}

export function argName(a: ArgContext): string {
  return `${a.fn} argument ${a.position} (${a.param.ctype} ${a.param.name})`;
}

function refuse(a: ArgContext, expected: string, value: Value): never {
  const got =
    value.k === 'ref' ? `"${a.text}" (a pointer to a PageLens variable)` : `"${a.text}" of type ${describeValue(value).split(' ')[0]}`;
  throw new InterpError('type', `${argName(a)}: expected ${expected}, got ${got}`, a.span);
}

/** The C type of a parameter or of what an out-parameter points to. */
export function paramCType(param: ParamSpec, pointee: boolean): CType | undefined {
  let text = param.ctype.replace(/\bconst\b/g, '').trim();
  if (pointee) text = text.replace(/\*\s*$/, '').trim();
  if (text.endsWith('*')) return { k: 'ptr', to: baseType([text.slice(0, -1).trim()]) ?? { k: 'void' } };
  return baseType([text]);
}

function safeNumber(a: ArgContext, v: bigint): number {
  if (v >= 2n ** 53n || v <= -(2n ** 53n)) {
    throw new InterpError('type', `${argName(a)}: ${v} is 2^53 or more; PageLens keeps sizes and flags exact below 2^53`, a.span);
  }
  return Number(v);
}

function integerArg(a: ArgContext, value: Value): number {
  const type = paramCType(a.param, false);
  const target: IntType = type?.k === 'int' ? type : SIZE_T;
  // An enum or flag word reaches the runtime as its 32 (or 64) bits, which it reads unsigned.
  if (value.k === 'int' && (a.param.value.t === 'enum' || a.param.value.t === 'flags')) {
    return safeNumber(a, BigInt.asUintN(target.bits, value.v));
  }
  if (value.k === 'int') return safeNumber(a, wrapTo(target, value.v));
  if (value.k === 'float' && Number.isFinite(value.v)) return safeNumber(a, wrapTo(target, BigInt(Math.trunc(value.v))));
  return refuse(a, `an integer (${typeName(target)})`, value);
}

function wrapTo(type: IntType, v: bigint): bigint {
  return type.signed ? BigInt.asIntN(type.bits, v) : BigInt.asUintN(type.bits, v);
}

function address(a: ArgContext, value: Value, allowInteger: boolean): string {
  if (value.k === 'ptr') {
    if (value.addr >= 2n ** 53n)
      throw new InterpError('type', `${argName(a)}: the address 0x${value.addr.toString(16)} is beyond what PageLens models`, a.span);
    return toHex(Number(value.addr));
  }
  if (value.k === 'int' && (allowInteger || value.v === 0n)) return toHex(safeNumber(a, BigInt.asUintN(64, value.v)));
  if (value.k === 'ref') {
    throw new InterpError(
      'type',
      `${argName(a)}: "${a.text}" is the address of a PageLens variable, which is not modeled memory; pass memory from malloc or an ACL allocator`,
      a.span,
    );
  }
  return refuse(a, 'a pointer', value);
}

const LIST_CTYPE = { int: 'int32_t', size: 'size_t', ptr: 'void*' } as const;

/** Cells a pointer argument designates: from the pointee to the end of its array. */
function pointedCells(a: ArgContext, value: Value, what: string): readonly Cell[] {
  if (value.k === 'ref') return value.target.cells.slice(value.index);
  if (isNullPointer(value)) return [];
  return refuse(a, what, value);
}

function unionToAcl(value: Value, attr: number): Record<string, number> {
  if (value.k !== 'union') return {};
  const member = mallocAttrMember(attr);
  const read = member === undefined ? undefined : unionMember(value, member);
  return member === undefined || read === undefined ? {} : { [member]: Number(read.v) };
}

/** A struct cell as the catalogue's object: C field names, numbers, nested structs; all-zero reserved arrays left out. */
export function structToAcl(a: ArgContext, cell: Cell, path: string): Record<string, unknown> {
  const value = cell.value;
  if (value.k !== 'struct') return {};
  const out: Record<string, unknown> = {};
  for (const [name, member] of value.fields) {
    const where = `${path}.${name}`;
    const v = member.value;
    if (!member.init && v.k !== 'struct' && v.k !== 'array' && v.k !== 'union') a.uninitialized.push(where);
    if (v.k === 'int') out[name] = safeNumber(a, v.v);
    else if (v.k === 'struct') out[name] = structToAcl(a, member, where);
    else if (v.k === 'union') out[name] = unionToAcl(v, Number(out.attr ?? 0));
    else if (v.k === 'array') {
      const bytes = v.items.map((item) => (item.value.k === 'int' ? Number(item.value.v) : 0));
      if (bytes.some((b) => b !== 0)) out[name] = bytes;
    } else if (value.type.name === 'aclrtMallocConfig' && name === 'attrs') {
      const cells = pointedCells(a, v, 'cfg.attrs pointing at an aclrtMallocAttribute array');
      out[name] = cells.map((attr, index) => structToAcl(a, attr, `${path}.attrs[${index}]`));
    }
  }
  return out;
}

/** One input argument in the catalogue's representation. */
export function toAclArg(a: ArgContext, value: Value): unknown {
  const spec = a.param.value;
  if (isIntegerValueType(spec)) return integerArg(a, value);
  switch (spec.t) {
    case 'ptr':
      return address(a, value, false);
    case 'handle':
      return address(a, value, true);
    case 'float':
      if (value.k === 'float') return value.v;
      if (value.k === 'int') return Number(value.v);
      return refuse(a, 'a number', value);
    case 'string':
      if (value.k === 'str') return value.text;
      if (isNullPointer(value)) return null;
      // A char array (an IPC key the runtime wrote into it): its text up to the first NUL.
      if (value.k === 'ref') return cString(value.target.cells.slice(value.index));
      return refuse(a, 'a string or NULL', value);
    case 'charBuffer':
    case 'index':
      return refuse(a, 'an output buffer', value);
    case 'struct': {
      if (value.k === 'struct') return refuse(a, `a pointer to ${spec.struct} (write &${a.text})`, value);
      const [cell] = pointedCells(a, value, `a pointer to ${spec.struct}`);
      if (cell === undefined) return null;
      if (cell.value.k !== 'struct' || cell.value.type.name !== spec.struct) return refuse(a, `a pointer to ${spec.struct}`, cell.value);
      return structToAcl(a, cell, a.text.replace(/^&/, ''));
    }
    case 'structArray':
      return pointedCells(a, value, `a pointer to ${spec.struct}`).map((cell, index) => {
        if (cell.value.k !== 'struct' || cell.value.type.name !== spec.struct) return refuse(a, `${spec.struct} elements`, cell.value);
        return structToAcl(a, cell, `${a.text.replace(/^&/, '')}[${index}]`);
      });
    case 'list': {
      const cells = pointedCells(a, value, `a pointer to ${LIST_CTYPE[spec.item]}`);
      if (spec.item === 'ptr') return cells.map((cell) => address(a, cell.value, false));
      return cells.map((cell) => (cell.value.k === 'int' ? safeNumber(a, cell.value.v) : 0));
    }
  }
}

/** The text of char cells up to the first NUL (or their end). */
function cString(cells: readonly Cell[]): string {
  let text = '';
  for (const cell of cells) {
    const code = cell.value.k === 'int' ? Number(cell.value.v) & 0xff : 0;
    if (code === 0) break;
    text += String.fromCharCode(code);
  }
  return text;
}

/**
 * Writes text the runtime answered into the char cells a `char*` out-parameter points at, with its
 * NUL, as far as they reach (C would overrun; the runtime is told the buffer's length).
 */
export function writeText(cells: readonly Cell[], text: string): void {
  for (let index = 0; index < cells.length && index <= text.length; index += 1) {
    const cell = cells[index];
    if (cell === undefined || cell.type.k !== 'int') continue;
    cell.value = intValue(cell.type, BigInt(index < text.length ? text.charCodeAt(index) & 0xff : 0));
    markInit(cell);
  }
}

/** Why `cell` cannot receive out-parameter `param`, or undefined when it can. */
export function outTargetProblem(a: ArgContext, cell: Cell): string | undefined {
  const expected = paramCType(a.param, true);
  const have = cell.type;
  const ok =
    expected === undefined ||
    (expected.k === 'ptr' && (have.k === 'ptr' || (have.k === 'int' && have.bits === 64))) ||
    (expected.k === 'int' && ((have.k === 'int' && have.bits === expected.bits) || (a.param.value.t === 'handle' && have.k === 'ptr'))) ||
    (expected.k === 'float' && have.k === 'float' && have.name === expected.name) ||
    (expected.k === 'struct' && have.k === 'struct' && have.name === expected.name);
  if (ok) return undefined;
  return `${argName(a)}: "${a.text}" points to ${typeName(have)}, but ${a.fn} writes a ${expected === undefined ? '?' : typeName(expected)} there`;
}

function writeStruct(cell: Cell, source: unknown): void {
  if (cell.value.k !== 'struct' || source === null || typeof source !== 'object') return;
  for (const [name, member] of cell.value.fields) {
    const field: unknown = Object.hasOwn(source, name) ? Reflect.get(source, name) : undefined;
    if (member.value.k === 'struct') writeStruct(member, field);
    else if (member.value.k === 'int' && typeof field === 'number' && member.type.k === 'int')
      member.value = intValue(member.type, BigInt(field));
    // A char array member (aclrtMemUsageInfo.name) receives its text.
    else if (member.value.k === 'array' && typeof field === 'string') writeText(member.value.items, field);
    markInit(member);
  }
  markInit(cell);
}

/** Stores what the runtime answered for an out-parameter into the variable the C code pointed at. */
export function writeOut(cell: Cell, out: unknown): void {
  const type = cell.type;
  if (typeof out === 'number' && type.k === 'int') cell.value = intValue(type, BigInt(out));
  else if (typeof out === 'number' && type.k === 'float') cell.value = floatValue(type, out);
  else if (typeof out === 'string' && isHex(out)) {
    const parsed = parseHex(out);
    const addr = parsed.ok ? BigInt(parsed.value) : 0n;
    if (type.k === 'ptr') cell.value = { k: 'ptr', type, addr };
    else if (type.k === 'int') cell.value = intValue(type, addr);
  } else if (typeof out === 'object' && type.k === 'struct') writeStruct(cell, out);
  markInit(cell);
}
