import { formatBytes } from '../units/bytes.ts';
import { toHex } from '../units/hex.ts';
import {
  type ArrayType,
  BOOL,
  type CType,
  type FloatType,
  fieldsOf,
  INT,
  type IntType,
  type MapType,
  type OptionalType,
  type PtrType,
  type SmartPtrType,
  type StringType,
  type StructType,
  typeName,
  type VectorType,
} from './c-type-model.ts';

/**
 * Values of the interpreter. Integers are exact BigInts wrapped to their type's width, so 64-bit
 * unsigned arithmetic is C's; floats are JS numbers. A pointer is either a number (an address
 * the runtime handed out, NULL = 0) or a reference to an interpreter variable (`&x`), which is how
 * out-parameters and struct pointers reach ACL calls.
 */
export type Value =
  /** `unmodeled`: the number derives from memory contents PageLens does not model (read as 0), so it is not the program's. */
  | { readonly k: 'int'; readonly type: IntType; readonly v: bigint; readonly unmodeled?: UnmodeledRead }
  | { readonly k: 'float'; readonly type: FloatType; readonly v: number }
  | { readonly k: 'ptr'; readonly type: PtrType; readonly addr: bigint }
  | { readonly k: 'ref'; readonly type: PtrType; readonly target: RefTarget; readonly index: number }
  | { readonly k: 'str'; readonly type: PtrType; readonly text: string }
  | { readonly k: 'struct'; readonly type: StructType; readonly fields: ReadonlyMap<string, Cell> }
  /** The union aclrtMallocAttrValue: its 8 bytes as one little-endian number; `member` was written last. */
  | { readonly k: 'union'; readonly type: StructType; readonly bytes: bigint; readonly member?: string }
  | { readonly k: 'array'; readonly type: ArrayType; readonly items: readonly Cell[] }
  /**
   * std::vector<T>: `size` elements of heap memory at `addr` (malloc'd; 0 while empty), room for
   * `capacity`. The interpreter keeps the element values the code writes in `items`, by index; an
   * element never written is value-initialised, 0 (C++ [vector.cons]). The map is the vector's own:
   * shared by the copies of this value that its methods make.
   */
  | {
      readonly k: 'vector';
      readonly type: VectorType;
      readonly addr: bigint;
      readonly size: number;
      readonly capacity: number;
      readonly items: Map<number, Cell>;
    }
  | { readonly k: 'string'; readonly type: StringType; readonly text: string }
  /**
   * std::map / std::unordered_map: `entries.cells` are its elements, `std::pair<const K, V>` structs
   * in the map's order; an iterator is a `ref` into them (end() is one past the last). Shared by
   * the copies of this value that its methods make, as the map is one object.
   */
  | { readonly k: 'map'; readonly type: MapType; readonly entries: RefTarget }
  /** std::optional<T>: `item` holds the T when `has` (engaged); `*opt` and `opt->` reach it. */
  | { readonly k: 'optional'; readonly type: OptionalType; readonly has: boolean; readonly item: Cell }
  /**
   * std::shared_ptr / std::unique_ptr: `ptr` is the T* (a `ptr` or a `ref`), `owner` the control
   * block its copies share (none while it is empty). smart-pointers.ts counts the owners.
   */
  | { readonly k: 'smart'; readonly type: SmartPtrType; readonly ptr: Value; readonly owner?: SmartOwner }
  | { readonly k: 'void' };

/** What the owners of one object share: how many variables hold it, and what deletes it when none does. */
export interface SmartOwner {
  holders: number;
  /** A function the code defines, given as the deleter (`shared_ptr<T> p(raw, Release)`); else `delete`. */
  readonly deleter?: string;
  /** Set once the object is deleted, so a stale copy cannot delete it again. */
  released: boolean;
}

/** A read of memory contents PageLens does not model (`*(const uint32_t*)tilingHost` after a file read): where, and what. */
export interface UnmodeledRead {
  readonly line: number;
  readonly what: string;
  /**
   * Where the number would come from: `memory` (a read through a pointer, the default), `file`
   * (a file's size or a read's count: PageLens runs no file system) or `model` (a model's sizes:
   * PageLens loads no model).
   */
  readonly from?: 'memory' | 'file' | 'model';
}

/** `result`, marked as unmodeled when an integer operand was (so `blockDim * 2048` keeps where blockDim came from). */
export function carryUnmodeled(result: Value, ...operands: readonly Value[]): Value {
  if (result.k !== 'int' || result.unmodeled !== undefined) return result;
  for (const operand of operands)
    if (operand.k === 'int' && operand.unmodeled !== undefined) return { ...result, unmodeled: operand.unmodeled };
  return result;
}

/** Storage for one object; aggregates hold cells for their members. */
export interface Cell {
  readonly type: CType;
  value: Value;
  /** False for a local declared without initialiser and not written since (indeterminate in C). */
  init: boolean;
}

/** What `&x` or an array points into: `cells[index]` is the pointee. */
export interface RefTarget {
  readonly cells: readonly Cell[];
  /** `devPtr`, `attrs`: how to show the pointer. */
  readonly label: string;
  /** True when `cells` are the elements of an array (so `label[i]` is shown). */
  readonly isArray: boolean;
}

export const intValue = (type: IntType, v: bigint): Value => ({ k: 'int', type, v: wrap(type, v) });
export const boolValue = (truth: boolean): Value => ({ k: 'int', type: INT, v: truth ? 1n : 0n });
export const floatValue = (type: FloatType, v: number): Value => ({ k: 'float', type, v: type.name === 'float' ? Math.fround(v) : v });
export const VOID_VALUE: Value = { k: 'void' };
/** 0 of `type`, marked as a number PageLens cannot know (a file's size, a model's output size). */
export const unmodeledZero = (type: IntType, read: UnmodeledRead): Value => ({ k: 'int', type, v: 0n, unmodeled: read });

export function wrap(type: IntType, v: bigint): bigint {
  if (type.bool === true) return v === 0n ? 0n : 1n;
  const bits = type.bits;
  return type.signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
}

/** A fresh cell: zero-filled when `init` (globals, `= {}`), else marked indeterminate. */
export function newCell(type: CType, init: boolean): Cell {
  return { type, value: zeroValue(type, init), init };
}

export function zeroValue(type: CType, init: boolean): Value {
  switch (type.k) {
    case 'int':
      return { k: 'int', type, v: 0n };
    case 'float':
      return { k: 'float', type, v: 0 };
    case 'ptr':
      return { k: 'ptr', type, addr: 0n };
    case 'struct':
      if (type.union) return { k: 'union', type, bytes: 0n };
      return { k: 'struct', type, fields: new Map(fieldsOf(type).map((f) => [f.name, memberCell(f.type, init, f.initial)])) };
    case 'array':
      return { k: 'array', type, items: Array.from({ length: type.length }, () => newCell(type.of, init)) };
    case 'vector':
      return { k: 'vector', type, addr: 0n, size: 0, capacity: 0, items: new Map() };
    case 'string':
      return { k: 'string', type, text: '' };
    case 'map':
      return { k: 'map', type, entries: { cells: [], label: 'map', isArray: true } };
    case 'optional':
      return { k: 'optional', type, has: false, item: newCell(type.of, true) };
    case 'smart':
      return { k: 'smart', type, ptr: { k: 'ptr', type: { k: 'ptr', to: type.of }, addr: 0n } };
    case 'void':
      return VOID_VALUE;
  }
}

/** A member's cell: its default member initialiser when the code gives one (C++11), else as newCell. */
function memberCell(type: CType, init: boolean, initial: number | string | undefined): Cell {
  if (initial === undefined) return newCell(type, init);
  if (typeof initial === 'string')
    return type.k === 'string'
      ? { type, value: { k: 'string', type, text: initial }, init: true }
      : type.k === 'ptr'
        ? { type, value: { k: 'str', type, text: initial }, init: true }
        : newCell(type, true);
  if (type.k === 'int') return { type, value: intValue(type, BigInt(Math.trunc(initial))), init: true };
  if (type.k === 'float') return { type, value: floatValue(type, initial), init: true };
  return newCell(type, true);
}

/** Element `index` of a vector: its cell, made (value-initialised) at first use. */
export function vectorItem(vector: Extract<Value, { k: 'vector' }>, index: number): Cell {
  let cell = vector.items.get(index);
  if (cell === undefined) {
    cell = newCell(vector.type.of, true);
    vector.items.set(index, cell);
  }
  return cell;
}

/** A deep copy, for struct assignment and passing by value. */
export function copyValue(value: Value): Value {
  if (value.k === 'struct') {
    return { ...value, fields: new Map([...value.fields].map(([name, cell]) => [name, copyCell(cell)])) };
  }
  if (value.k === 'array') return { ...value, items: value.items.map(copyCell) };
  return value;
}

function copyCell(cell: Cell): Cell {
  return { type: cell.type, value: copyValue(cell.value), init: cell.init };
}

/** Marks a cell and everything in it as initialised (after `= {}` or a whole-struct write). */
export function markInit(cell: Cell): void {
  cell.init = true;
  if (cell.value.k === 'struct') for (const member of cell.value.fields.values()) markInit(member);
  if (cell.value.k === 'array') for (const member of cell.value.items) markInit(member);
}

export function valueType(value: Value): CType {
  return value.k === 'void' ? { k: 'void' } : value.type;
}

/** NULL as an argument spells it: a null pointer, or the integer constant 0 (`NULL`, `nullptr` and `0` all pass). */
export function isNullPointer(value: Value): boolean {
  return (value.k === 'ptr' && value.addr === 0n) || (value.k === 'int' && value.v === 0n);
}

export function truthy(value: Value): boolean {
  switch (value.k) {
    case 'int':
      return value.v !== 0n;
    case 'float':
      return value.v !== 0;
    case 'ptr':
      return value.addr !== 0n;
    case 'ref':
    case 'str':
      return true;
    case 'optional':
      return value.has;
    case 'smart':
      return truthy(value.ptr);
    default:
      return false;
  }
}

function showInt(type: IntType, v: bigint): string {
  const name = type.enumTable?.nameOf(Number(v));
  if (name !== undefined) return `${v} (${name})`;
  if (type === BOOL) return v === 0n ? 'false' : 'true';
  // A size_t counts bytes, which read better with a unit: 2097152 (2 MiB).
  if (type.name === 'size_t' && v >= 1024n && v < 2n ** 53n) return `${v} (${formatBytes(Number(v))})`;
  return String(v);
}

export function refLabel(value: Extract<Value, { k: 'ref' }>): string {
  return value.target.isArray ? `&${value.target.label}[${value.index}]` : `&${value.target.label}`;
}

/** What a never-set variable shows; the web puts its own word for it in the UI's language. */
export const UNINITIALIZED = '(uninitialized)';

/** C-like display text for the variables view. */
export function showValue(value: Value, cell?: Cell): string {
  const opaque = ['struct', 'array', 'vector', 'string', 'map', 'optional', 'smart'].includes(value.k);
  if (cell !== undefined && !cell.init && !opaque) return UNINITIALIZED;
  switch (value.k) {
    case 'int':
      return showInt(value.type, value.v);
    case 'float':
      return String(value.v);
    case 'ptr':
      return value.addr === 0n ? 'NULL' : value.addr < 2n ** 53n ? toHex(Number(value.addr)) : `0x${value.addr.toString(16)}`;
    case 'ref':
      return refLabel(value);
    case 'str':
      return JSON.stringify(value.text);
    case 'struct':
      return `{${[...value.fields].map(([name, member]) => `${name} = ${showValue(member.value, member)}`).join(', ')}}`;
    case 'union':
      return value.member === undefined ? '{0}' : `{${value.member} = ${unionMember(value, value.member)?.v ?? 0n}}`;
    case 'array': {
      const text = charArrayText(value);
      return text ?? `{${value.items.map((item) => showValue(item.value, item)).join(', ')}}`;
    }
    case 'vector':
      return `{size = ${value.size}, data = ${value.addr === 0n ? 'NULL' : `0x${value.addr.toString(16)}`}}`;
    case 'string':
      return JSON.stringify(value.text);
    case 'optional':
      return value.has ? `{${showValue(value.item.value, value.item)}}` : 'std::nullopt';
    case 'smart':
      return value.type.kind === 'shared' && value.owner !== undefined
        ? `${showValue(value.ptr)} (use_count ${value.owner.holders})`
        : showValue(value.ptr);
    case 'map': {
      const shown = value.entries.cells.slice(0, 8).map((entry) => {
        const pair = entry.value.k === 'struct' ? entry.value.fields : undefined;
        const first = pair?.get('first');
        const second = pair?.get('second');
        return `[${first === undefined ? '?' : showValue(first.value)}] = ${second === undefined ? '?' : showValue(second.value, second)}`;
      });
      const more = value.entries.cells.length > 8 ? ', …' : '';
      return `{size = ${value.entries.cells.length}${shown.length > 0 ? `: ${shown.join(', ')}${more}` : ''}}`;
    }
    case 'void':
      return 'void';
  }
}

/** A char array holding printable text up to a NUL, as a C string literal; undefined otherwise. */
function charArrayText(value: Extract<Value, { k: 'array' }>): string | undefined {
  if (value.type.of.k !== 'int' || value.type.of.name !== 'char') return undefined;
  let text = '';
  for (const item of value.items) {
    const code = item.value.k === 'int' ? Number(item.value.v) : -1;
    if (code === 0) return text.length > 0 ? JSON.stringify(text) : undefined;
    if (code < 0x20 || code > 0x7e) return undefined;
    text += String.fromCharCode(code);
  }
  return undefined;
}

const UNION_MEMBERS: Readonly<Record<string, IntType>> = {
  moduleId: { k: 'int', name: 'uint16_t', bits: 16, signed: false },
  deviceId: { k: 'int', name: 'uint32_t', bits: 32, signed: false },
  vaFlag: { k: 'int', name: 'uint32_t', bits: 32, signed: false },
};

/** A member of aclrtMallocAttrValue read from its bytes (all members start at offset 0, §4). */
export function unionMember(value: Extract<Value, { k: 'union' }>, member: string): Extract<Value, { k: 'int' }> | undefined {
  const type = UNION_MEMBERS[member];
  return type === undefined ? undefined : { k: 'int', type, v: BigInt.asUintN(type.bits, value.bytes) };
}

export function withUnionMember(value: Extract<Value, { k: 'union' }>, member: string, v: bigint): Value {
  const type = UNION_MEMBERS[member];
  if (type === undefined) return value;
  const mask = (1n << BigInt(type.bits)) - 1n;
  return { ...value, bytes: (value.bytes & ~mask) | (BigInt.asUintN(type.bits, v) & mask), member };
}

export function unionMemberType(member: string): IntType | undefined {
  return UNION_MEMBERS[member];
}

export function describeValue(value: Value): string {
  if (value.k === 'void') return 'void';
  return `${typeName(value.type)} ${showValue(value)}`;
}
