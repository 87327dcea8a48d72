import { BOOL, pairOf, SIZE_T, typeName } from './c-type-model.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import { type Cell, intValue, newCell, type Value, zeroValue } from './values.ts';

/*
 * std::map and std::unordered_map as ACL programs use them: a table from a name, a device id or a
 * memcpy kind to a handle or a size (`ctx_map[device->id]`, `memcpy_type_map[type]`), and a sorted
 * result (`map<float, unsigned, greater<float>>` of the classification samples). Its elements are
 * interpreter cells, `std::pair<const K, V>` structs in the map's order, so an iterator is a pointer
 * into them: `it->first`, `it->second`, `++it` and `it != m.end()` are pointer operations. No memory
 * of the process is modeled for the nodes (their allocations are the library's, not ACL's).
 */

export type MapValue = Extract<Value, { k: 'map' }>;

/** C++'s `<` on the keys the code uses: numbers, pointers and strings. */
function keyOrder(a: Value, b: Value): number {
  const number = (v: Value) => (v.k === 'int' ? Number(v.v) : v.k === 'float' ? v.v : v.k === 'ptr' ? Number(v.addr) : undefined);
  const x = number(a);
  const y = number(b);
  if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  const text = (v: Value) => (v.k === 'string' || v.k === 'str' ? v.text : undefined);
  const s = text(a);
  const t = text(b);
  if (s !== undefined && t !== undefined) return s < t ? -1 : s > t ? 1 : 0;
  return 0;
}

function keyOf(entry: Cell): Value {
  return entry.value.k === 'struct' ? (entry.value.fields.get('first')?.value ?? { k: 'void' }) : { k: 'void' };
}

/** The index of `key` among the entries, or undefined. */
export function findKey(map: MapValue, key: Value): number | undefined {
  const at = map.entries.cells.findIndex((entry) => keyOrder(keyOf(entry), key) === 0);
  return at === -1 ? undefined : at;
}

/** Inserts `key` (with `value`, or V's value-initialised 0) where the map's order puts it; returns its index. */
export function insertKey(map: MapValue, key: Value, value: Value | undefined, span: Span): number {
  const type = map.type;
  const pair = newCell(pairOf(type), true);
  if (pair.value.k === 'struct') {
    const first = pair.value.fields.get('first');
    const second = pair.value.fields.get('second');
    if (first !== undefined) first.value = convert(key, type.key, span, false, `a key of the ${typeName(type)}`);
    if (second !== undefined)
      second.value = value === undefined ? zeroValue(type.value, true) : convert(value, type.value, span, false, 'a value');
  }
  const cells = map.entries.cells as Cell[];
  const sign = type.order === 'greater' ? -1 : 1;
  const stored = keyOf(pair);
  let at = cells.length;
  if (type.order !== 'hash') {
    const after = cells.findIndex((entry) => sign * keyOrder(keyOf(entry), stored) > 0);
    if (after !== -1) at = after;
  }
  cells.splice(at, 0, pair);
  return at;
}

/** `m[key]`: the mapped value's cell, inserted value-initialised when the key is new (C++ [map.access]). */
export function mapSubscript(map: MapValue, key: Value, span: Span): Cell {
  const at = findKey(map, key) ?? insertKey(map, key, undefined, span);
  const entry = map.entries.cells[at];
  const second = entry?.value.k === 'struct' ? entry.value.fields.get('second') : undefined;
  if (second === undefined) throw new InterpError('internal', 'a map entry without its value', span);
  return second;
}

function iterator(map: MapValue, index: number): Value {
  return { k: 'ref', type: { k: 'ptr', to: pairOf(map.type) }, target: map.entries, index };
}

/** The pair `{k, v}` of insert({k, v}) or the two arguments of emplace(k, v). */
function pairArguments(name: string, args: readonly Value[], span: Span): [Value, Value | undefined] {
  const [first, second] = args;
  if (name === 'emplace' || name === 'try_emplace' || name === 'insert_or_assign') {
    if (first === undefined) throw new InterpError('type', `${name} needs a key`, span);
    return [first, second];
  }
  if (first?.k === 'struct') {
    const key = first.fields.get('first')?.value;
    if (key !== undefined) return [key, first.fields.get('second')?.value];
  }
  throw new InterpError('unsupported', `${name}(…): PageLens inserts a pair written as {key, value} or std::make_pair(key, value)`, span);
}

export function mapMethod(lv: { readonly label: string }, map: MapValue, name: string, args: readonly Value[], span: Span): Value {
  const cells = map.entries.cells as Cell[];
  const key = args[0];
  switch (name) {
    case 'size':
      return intValue(SIZE_T, BigInt(cells.length));
    case 'empty':
      return intValue(BOOL, cells.length === 0 ? 1n : 0n);
    case 'begin':
    case 'cbegin':
      return iterator(map, 0);
    case 'end':
    case 'cend':
      return iterator(map, cells.length);
    case 'clear':
      cells.splice(0);
      return { k: 'void' };
    case 'find':
      return iterator(map, key === undefined ? cells.length : (findKey(map, key) ?? cells.length));
    case 'count':
    case 'contains':
      return intValue(name === 'count' ? SIZE_T : BOOL, key !== undefined && findKey(map, key) !== undefined ? 1n : 0n);
    case 'at': {
      const at = key === undefined ? undefined : findKey(map, key);
      const entry = at === undefined ? undefined : cells[at];
      if (entry?.value.k !== 'struct')
        throw new InterpError('runtime', `${lv.label}.at(…): the key is not in the map (std::out_of_range)`, span);
      return entry.value.fields.get('second')?.value ?? { k: 'void' };
    }
    case 'erase': {
      // erase(it) returns the iterator after it; erase(key) how many it removed.
      if (key?.k === 'ref' && key.target === map.entries) {
        if (key.index >= cells.length) throw new InterpError('runtime', `${lv.label}.erase(end()) (undefined behaviour)`, span);
        cells.splice(key.index, 1);
        return iterator(map, key.index);
      }
      const at = key === undefined ? undefined : findKey(map, key);
      if (at !== undefined) cells.splice(at, 1);
      return intValue(SIZE_T, at === undefined ? 0n : 1n);
    }
    case 'insert':
    case 'emplace':
    case 'try_emplace':
    case 'insert_or_assign': {
      const [k, v] = pairArguments(name, args, span);
      const known = findKey(map, k);
      if (known !== undefined) {
        if (name === 'insert_or_assign') mapSubscript(map, k, span).value = convert(v ?? { k: 'void' }, map.type.value, span, false, name);
        return iterator(map, known);
      }
      return iterator(map, insertKey(map, k, v, span));
    }
    default:
      throw new InterpError(
        'unsupported',
        `${lv.label}.${name}(): PageLens runs size, empty, begin, end, find, count, contains, at, erase, insert, emplace, try_emplace, insert_or_assign and clear of ${typeName(map.type)}`,
        span,
      );
  }
}

/** `{key, value}` as a pair the map methods take (insert({k, v}), an initialiser list's items). */
export function pairValue(key: Value, value: Value): Value {
  const type = { k: 'struct' as const, name: 'std::pair', union: false };
  const fields = new Map<string, Cell>([
    ['first', { type: valueTypeOf(key), value: key, init: true }],
    ['second', { type: valueTypeOf(value), value, init: true }],
  ]);
  return { k: 'struct', type, fields };
}

function valueTypeOf(value: Value) {
  return value.k === 'void' ? ({ k: 'void' } as const) : value.type;
}

/** `= {{k1, v1}, {k2, v2}}`: the pairs an initialiser list gives. */
export function fillMap(map: MapValue, pairs: readonly Value[], span: Span): void {
  for (const pair of pairs) {
    const [key, value] = pairArguments('insert', [pair], span);
    if (findKey(map, key) === undefined) insertKey(map, key, value, span);
  }
}
