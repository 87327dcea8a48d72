import { formatBytes } from '../units/bytes.ts';
import { BOOL, CHAR_PTR, type CType, fieldsOf, INT, LONG, pointerTo, SIZE_T, sizeOf, typeName } from './c-type-model.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import { heapAlloc, heapFree } from './host-memory.ts';
import { mapMethod } from './library-map.ts';
import type { LValue } from './lvalue.ts';
import type { Machine } from './machine.ts';
import { outOfScopeMessage } from './parse-context.ts';
import { dropSmart, smartMethod } from './smart-pointers.ts';
import { intValue, unmodeledZero, type Value, vectorItem, zeroValue } from './values.ts';

/*
 * Member functions of the library types ACL programs use: std::vector<T> as a host buffer (its
 * elements are heap memory of the process, grown as libstdc++ grows them: to twice the size, or
 * to what resize asks when that is more; the values the code writes are kept, those a copy from
 * the device would bring are not), std::string for messages, and the file streams, whose reads
 * and writes are not modeled.
 */

/** File-stream calls whose answer is a position, size or count the file decides. */
const FILE_SIZES: ReadonlySet<string> = new Set(['tellg', 'tellp', 'gcount']);

type VectorValue = Extract<Value, { k: 'vector' }>;

const elementBytes = (type: CType): number => sizeOf(type) ?? 1;

/** Moves the vector's elements to new heap memory for `capacity` elements, freeing the old. */
async function reallocate(m: Machine, lv: LValue, vector: VectorValue, capacity: number, span: Span): Promise<VectorValue> {
  const what = `${lv.label} holds ${capacity} ${typeName(vector.type.of)} (${formatBytes(capacity * elementBytes(vector.type.of))})`;
  const addr = await heapAlloc(m, capacity * elementBytes(vector.type.of), span, what);
  if (vector.addr !== 0n) await heapFree(m, vector.addr, span, `${lv.label} moved its elements`);
  const moved: VectorValue = { ...vector, addr, capacity };
  lv.write(moved);
  return moved;
}

/** `std::vector<T> v(n)`, `v{…}`, `= {…}`: `count` elements in heap memory (freed by freeVectors when its block ends). */
export async function constructVector(
  m: Machine,
  cell: { value: Value },
  type: VectorValue['type'],
  count: number,
  span: Span,
  label: string,
) {
  const bytes = count * elementBytes(type.of);
  const addr = await heapAlloc(m, bytes, span, `${label} holds ${count} ${typeName(type.of)}`);
  cell.value = { k: 'vector', type, addr, size: count, capacity: count, items: new Map() };
}

/** True when a value of `type` owns library memory: a std::vector or a smart pointer (itself, or in a member or element). */
export function holdsVector(type: CType): boolean {
  if (type.k === 'vector' || type.k === 'smart') return true;
  if (type.k === 'array') return holdsVector(type.of);
  return type.k === 'struct' && fieldsOf(type).some((f) => holdsVector(f.type));
}

/** A variable's block ends: the heap memory of every vector it holds is freed, and its smart pointers let go (the destructors run). */
export async function freeVectors(m: Machine, value: Value, span: Span, label: string): Promise<void> {
  if (value.k === 'vector') await heapFree(m, value.addr, span, `${label} goes out of scope`);
  else if (value.k === 'smart') await dropSmart(m, value, span, `${label} goes out of scope`);
  else if (value.k === 'struct') for (const [name, member] of value.fields) await freeVectors(m, member.value, span, `${label}.${name}`);
  else if (value.k === 'array')
    for (const [index, item] of value.items.entries()) await freeVectors(m, item.value, span, `${label}[${index}]`);
}

function count(value: Value | undefined, what: string, span: Span): number {
  if (value?.k !== 'int' || value.v < 0n || value.v >= 2n ** 53n) throw new InterpError('type', `${what} needs a size`, span);
  return Number(value.v);
}

async function vectorMethod(m: Machine, lv: LValue, vector: VectorValue, name: string, args: readonly Value[], span: Span): Promise<Value> {
  const element = vector.type.of;
  const item = (index: number): Value => vectorItem(vector, index).value;
  const drop = (from: number) => {
    for (const index of [...vector.items.keys()]) if (index >= from) vector.items.delete(index);
  };
  switch (name) {
    case 'size':
      return intValue(SIZE_T, BigInt(vector.size));
    case 'capacity':
      return intValue(SIZE_T, BigInt(vector.capacity));
    case 'empty':
      return intValue(BOOL, vector.size === 0 ? 1n : 0n);
    case 'data':
      return { k: 'ptr', type: pointerTo(element), addr: vector.addr };
    case 'clear':
      drop(0);
      lv.write({ ...vector, size: 0 });
      return { k: 'void' };
    case 'reserve': {
      const wanted = count(args[0], `${lv.label}.reserve`, span);
      if (wanted > vector.capacity) await reallocate(m, lv, vector, wanted, span);
      return { k: 'void' };
    }
    case 'resize': {
      const wanted = count(args[0], `${lv.label}.resize`, span);
      const room = wanted > vector.capacity ? await reallocate(m, lv, vector, Math.max(wanted, 2 * vector.size), span) : vector;
      drop(wanted);
      const fill = args[1];
      if (fill !== undefined)
        for (let index = vector.size; index < wanted; index += 1)
          vector.items.set(index, { type: element, value: convert(fill, element, span, false, `${lv.label}.resize`), init: true });
      lv.write({ ...room, size: wanted });
      return { k: 'void' };
    }
    case 'push_back':
    case 'emplace_back': {
      const room = vector.size === vector.capacity ? await reallocate(m, lv, vector, Math.max(1, 2 * vector.capacity), span) : vector;
      const value = args[0] === undefined ? zeroValue(element, true) : convert(args[0], element, span, false, `${lv.label}.${name}`);
      vector.items.set(vector.size, { type: element, value, init: true });
      lv.write({ ...room, size: room.size + 1 });
      return { k: 'void' };
    }
    case 'pop_back':
      if (vector.size === 0) throw new InterpError('runtime', `${lv.label}.pop_back() on an empty vector (undefined behaviour)`, span);
      drop(vector.size - 1);
      lv.write({ ...vector, size: vector.size - 1 });
      return { k: 'void' };
    case 'at': {
      const index = count(args[0], `${lv.label}.at`, span);
      if (index >= vector.size)
        throw new InterpError('runtime', `${lv.label}.at(${index}) is outside its ${vector.size} elements (std::out_of_range)`, span);
      return item(index);
    }
    case 'front':
    case 'back':
      if (vector.size === 0) throw new InterpError('runtime', `${lv.label}.${name}() on an empty vector (undefined behaviour)`, span);
      return item(name === 'front' ? 0 : vector.size - 1);
    default:
      throw new InterpError(
        'unsupported',
        `${lv.label}.${name}(): PageLens runs size, data, resize, reserve, push_back, emplace_back, pop_back, clear, empty, capacity, at, front and back of std::vector`,
        span,
      );
  }
}

function stringMethod(lv: LValue, text: string, name: string, span: Span, args: readonly Value[] = []): Value {
  const value = lv.read();
  if (value.k === 'string' && value.type.stream !== undefined) {
    // A string stream: str() reads what `<<` built, str(s) replaces it, clear() resets its state flags only.
    if (name === 'str') {
      const replacement = args[0];
      if (replacement?.k === 'str' || replacement?.k === 'string') {
        lv.write({ ...value, text: replacement.text });
        return { k: 'void' };
      }
      return { k: 'string', type: { k: 'string' }, text };
    }
    if (name === 'clear') return { k: 'void' };
    throw new InterpError('unsupported', `${lv.label}.${name}(): PageLens runs <<, str() and str(text) of std::${value.type.stream}`, span);
  }
  switch (name) {
    case 'c_str':
    case 'data':
      return { k: 'str', type: CHAR_PTR, text };
    case 'size':
    case 'length':
      return intValue(SIZE_T, BigInt(text.length));
    case 'empty':
      return intValue(BOOL, text === '' ? 1n : 0n);
    default:
      throw new InterpError('unsupported', `${lv.label}.${name}(): PageLens runs c_str, data, size, length and empty of std::string`, span);
  }
}

/** std::optional's members: has_value, value (std::bad_optional_access when empty), value_or, reset, emplace. */
function optionalMethod(lv: LValue, value: Extract<Value, { k: 'optional' }>, name: string, args: readonly Value[], span: Span): Value {
  switch (name) {
    case 'has_value':
      return intValue(BOOL, value.has ? 1n : 0n);
    case 'value':
      if (!value.has) throw new InterpError('runtime', `${lv.label}.value() of an empty std::optional (std::bad_optional_access)`, span);
      return value.item.value;
    case 'value_or':
      return value.has ? value.item.value : convert(args[0] ?? { k: 'void' }, value.type.of, span, false, `${lv.label}.value_or`);
    case 'reset':
      lv.write(zeroValue(value.type, true));
      return { k: 'void' };
    case 'emplace':
      lv.write(convert(args[0] ?? zeroValue(value.type.of, true), value.type, span, false, `${lv.label}.emplace`));
      return { k: 'void' };
    default:
      throw new InterpError(
        'unsupported',
        `${lv.label}.${name}(): PageLens runs has_value, value, value_or, reset and emplace of std::optional`,
        span,
      );
  }
}

/** `target.name(args)` for a library object; anything else is a member function the playground leaves to `pagelens run`. */
export async function callMethod(m: Machine, lv: LValue, name: string, args: readonly Value[], span: Span): Promise<Value> {
  const value = lv.read();
  if (value.k === 'vector') return vectorMethod(m, lv, value, name, args, span);
  if (value.k === 'map') return mapMethod(lv, value, name, args, span);
  if (value.k === 'optional') return optionalMethod(lv, value, name, args, span);
  if (value.k === 'smart') return smartMethod(m, lv, value, name, args, span);
  if (value.k === 'string') return stringMethod(lv, value.text, name, span, args);
  if (value.k === 'ptr' && value.type.name?.startsWith('std::') === true) {
    m.marks.note(span, `${lv.label}.${name}(…) on a file stream is not modeled: PageLens runs no file system`);
    // A stream that "opened" keeps the code on its main path, where the memory calls are.
    if (name === 'is_open' || name === 'good') return intValue(BOOL, 1n);
    // The file's size, or a count of what moved, is the file's: a size derived from it is not the program's.
    if (FILE_SIZES.has(name))
      return unmodeledZero(LONG, { line: span.line, what: `${lv.label}.${name}() reports the file's position or size`, from: 'file' });
    return intValue(INT, 0n);
  }
  throw new InterpError('unsupported', outOfScopeMessage(`The member function ${lv.label}.${name}()`, span.line, span.column), span);
}
