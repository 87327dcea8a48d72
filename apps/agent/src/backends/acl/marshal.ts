import { isIntegerValueType, isObject, mallocAttrMember, type ParamSpec, STRUCT_LAYOUTS } from '@pagelens/core';
import koffi from 'koffi';
import { type AclStructName, isAclStructName, parseCType, structType } from './ctypes.ts';
import { type CallSpec, isReturnedValue } from './declarations.ts';
import { exactInteger, hexToBigInt, integerValue, pointerValue, toHex, Unrepresentable } from './pointers.ts';

/*
 * From AclRuntime arguments (numbers, "0x…" strings, struct objects) to the values koffi passes
 * as the exact C types, and from what koffi hands back to AclRuntime out-fields. Everything is
 * driven by the catalogue's ParamSpec and core's STRUCT_LAYOUTS, so no function is special-cased.
 */

/** An out-field as the binding answers it: JSON-like, so it can cross to and from the worker thread. */
export type OutValue = string | number | null | readonly OutValue[] | { readonly [key: string]: OutValue };

type Holder = unknown[] | Record<string, unknown> | Uint8Array | BigUint64Array;

/**
 * The largest `char*` out-buffer PageLens allocates for a call (a charBuffer's length argument):
 * the one such buffer, an IPC key, takes 65 bytes, and a length above this is more likely a mistake
 * than a need.
 */
export const MAX_CHAR_BUFFER = 4096;

/**
 * The most elements PageLens allocates for an array of structs the runtime fills (an output
 * structArray: aclrtGetMemUsageInfo's memUsageInfo, whose capacity is the inputNum argument).
 */
export const MAX_OUT_STRUCTS = 1024;

/**
 * What an index out-value (a size_t the runtime writes, SIZE_MAX meaning none: aclrtMemcpyBatch's
 * failIndex) holds before the call: SIZE_MAX − 1, which no runtime writes, so PageLens can tell
 * "the runtime wrote no index" (its argument checks refused first) from SIZE_MAX ("no copy failed").
 */
const INDEX_UNWRITTEN = 2n ** 64n - 2n;

export interface Prepared {
  /** The arguments in C order, ready for the koffi function. */
  readonly args: unknown[];
  /** Out-parameters: what koffi writes into, by C name. */
  readonly holders: ReadonlyMap<string, { readonly param: ParamSpec; readonly holder: Holder }>;
}

function integer(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Unrepresentable(`${what}: expected an integer`);
  return value;
}

/** A 4-byte C enum or uint32_t: negative values are passed as their 32-bit two's complement, as C converts them. */
function u32(value: unknown, what: string): number {
  return integer(value, what) >>> 0;
}

/** A uint64_t: negative flags wrap to 64 bits, as C converts them. */
function u64(value: unknown, what: string): number | bigint {
  const number = integer(value, what);
  return number < 0 ? BigInt.asUintN(64, BigInt(number)) : number;
}

function bytes(value: unknown, count: number, what: string): number[] {
  if (value === undefined) return new Array<number>(count).fill(0);
  if (!Array.isArray(value)) throw new Unrepresentable(`${what}: expected an array of ${count} bytes`);
  const out = new Array<number>(count).fill(0);
  value.slice(0, count).forEach((item, index) => {
    out[index] = integer(item, `${what}[${index}]`) & 0xff;
  });
  return out;
}

/**
 * The 8 bytes of an aclrtMallocAttrValue union, little-endian (x86_64 and aarch64 LP64). Only the
 * member that `attr` selects is written, exactly as `value.moduleId = 33` would in C; the other
 * bytes are zero, so the runtime never reads leftovers from the caller's stack.
 */
export function unionBytes(attr: number, value: Record<string, unknown>): number[] {
  const out = new Array<number>(8).fill(0);
  const member = mallocAttrMember(attr) ?? ['moduleId', 'deviceId', 'vaFlag'].find((name) => value[name] !== undefined) ?? 'none';
  const raw = value[member];
  if (raw === undefined) return out;
  const number = integer(raw, `value.${member}`) >>> 0;
  const width = member === 'moduleId' ? 2 : 4;
  for (let index = 0; index < width; index += 1) out[index] = (number >>> (8 * index)) & 0xff;
  return out;
}

function mallocConfig(value: Record<string, unknown>, what: string): Record<string, unknown> {
  const attrs = value.attrs;
  if (!Array.isArray(attrs)) throw new Unrepresentable(`${what}.attrs: expected an array`);
  const numAttrs = integer(value.numAttrs, `${what}.numAttrs`);
  if (numAttrs > attrs.length) {
    throw new Unrepresentable(
      `${what}.numAttrs is ${numAttrs} but only ${attrs.length} attributes are given: the runtime would read past the array`,
    );
  }
  return {
    attrs: attrs.map((item, index) => {
      const path = `${what}.attrs[${index}]`;
      if (!isObject(item) || !isObject(item.value)) throw new Unrepresentable(`${path}: expected {attr, value}`);
      const attr = u32(item.attr, `${path}.attr`);
      return { attr, value: { rsv: unionBytes(attr, item.value) } };
    }),
    numAttrs,
  };
}

/** A struct argument in koffi's form, field by field from its §4 layout; missing reserved bytes are zero. */
export function structValue(name: AclStructName, value: unknown, what: string): Record<string, unknown> {
  if (!isObject(value)) throw new Unrepresentable(`${what}: expected a ${name} object`);
  if (name === 'aclrtMallocConfig') return mallocConfig(value, what);
  const out: Record<string, unknown> = {};
  for (const field of STRUCT_LAYOUTS[name].fields) {
    const path = `${what}.${field.name}`;
    const item = value[field.name];
    const { base } = parseCType(field.ctype);
    if ('count' in field && field.count !== undefined) out[field.name] = bytes(item, field.count, path);
    else if (isAclStructName(base)) out[field.name] = structValue(base, item, path);
    else if (base === 'uint64_t' || base === 'size_t') out[field.name] = u64(item, path);
    else out[field.name] = u32(item, path);
  }
  return out;
}

function arrayCount(spec: CallSpec, countName: string, args: Readonly<Record<string, unknown>>, length: number, what: string): void {
  const count = integer(args[countName], countName);
  if (count > length) {
    throw new Unrepresentable(`${countName} is ${count} but ${what} has ${length} elements: the runtime would read past the array`);
  }
  if (!spec.params.some((param) => param.name === countName)) throw new Unrepresentable(`${countName} is not a parameter`);
}

function inputValue(spec: CallSpec, param: ParamSpec, args: Readonly<Record<string, unknown>>): unknown {
  const value = args[param.name];
  const what = param.name;
  const { base } = parseCType(param.ctype);
  switch (param.value.t) {
    case 'int':
    case 'uint':
    case 'size':
      return integer(value, what);
    case 'u64':
      return u64(value, what);
    case 'enum':
    case 'flags':
      return base === 'uint64_t' ? u64(value, what) : u32(value, what);
    case 'ptr':
    case 'handle':
      return hexToBigInt(value, what);
    case 'float':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw new Unrepresentable(`${what}: expected a finite number`);
    case 'string':
      if (value === null || typeof value === 'string') return value;
      throw new Unrepresentable(`${what}: expected a string or null`);
    case 'charBuffer':
    case 'index':
      // Only ever out-parameters (prepareArgs allocates them): nothing to pass in.
      throw new Unrepresentable(
        `${what}: a ${param.value.t === 'index' ? 'size_t index' : 'char buffer'} is written by the runtime, not passed in`,
      );
    case 'struct':
      return value === null ? null : structValue(param.value.struct, value, what);
    case 'structArray': {
      if (!Array.isArray(value)) throw new Unrepresentable(`${what}: expected an array`);
      arrayCount(spec, param.value.count, args, value.length, what);
      const struct = param.value.struct;
      return value.map((item, index) => structValue(struct, item, `${what}[${index}]`));
    }
    case 'list': {
      if (!Array.isArray(value)) throw new Unrepresentable(`${what}: expected an array`);
      arrayCount(spec, param.value.count, args, value.length, what);
      if (param.value.item === 'int') return Int32Array.from(value.map((item, index) => integer(item, `${what}[${index}]`)));
      // size_t and void* are both 8 bytes on LP64: the array is laid out as uint64 words.
      const words = value.map((item, index) =>
        param.value.t === 'list' && param.value.item === 'ptr'
          ? hexToBigInt(item, `${what}[${index}]`)
          : BigInt(integer(item, `${what}[${index}]`)),
      );
      return BigUint64Array.from(words);
    }
  }
}

/**
 * A `char*` buffer the runtime writes text into, `args[length]` bytes (at least one, so a length of
 * 0 still passes a valid pointer and the runtime answers for the length, as the simulator does).
 */
function charBuffer(spec: CallSpec, param: ParamSpec, lengthName: string, args: Readonly<Record<string, unknown>>): Uint8Array {
  if (!spec.params.some((item) => item.name === lengthName)) throw new Unrepresentable(`${lengthName} is not a parameter`);
  const length = integer(args[lengthName], lengthName);
  if (length < 0 || length > MAX_CHAR_BUFFER) {
    throw new Unrepresentable(
      `${lengthName} is ${length}: PageLens allocates the ${param.name} buffer itself and gives at most ${MAX_CHAR_BUFFER} bytes`,
    );
  }
  return new Uint8Array(Math.max(length, 1));
}

/**
 * The bytes of an array of structs the runtime fills: `args[count]` elements (its capacity, at
 * least one so the runtime always gets a valid pointer and answers for the count itself).
 */
function structBuffer(
  spec: CallSpec,
  param: ParamSpec,
  struct: AclStructName,
  countName: string,
  args: Readonly<Record<string, unknown>>,
): Uint8Array {
  if (!spec.params.some((item) => item.name === countName)) throw new Unrepresentable(`${countName} is not a parameter`);
  const count = integer(args[countName], countName);
  if (count < 0 || count > MAX_OUT_STRUCTS) {
    throw new Unrepresentable(
      `${countName} is ${count}: PageLens allocates the ${param.name} array itself and gives at most ${MAX_OUT_STRUCTS} ${struct} entries`,
    );
  }
  return new Uint8Array(Math.max(count, 1) * STRUCT_LAYOUTS[struct].size);
}

/** koffi arguments for one call; throws Unrepresentable for what must not reach the runtime. */
export function prepareArgs(spec: CallSpec, args: Readonly<Record<string, unknown>>): Prepared {
  const list: unknown[] = [];
  const holders = new Map<string, { param: ParamSpec; holder: Holder }>();
  for (const param of spec.params) {
    if (isReturnedValue(spec, param)) continue;
    if (param.dir === 'out' && param.value.t === 'charBuffer') {
      const holder = charBuffer(spec, param, param.value.length, args);
      holders.set(param.name, { param, holder });
      list.push(holder);
    } else if (param.dir === 'out' && param.value.t === 'structArray') {
      const holder = structBuffer(spec, param, param.value.struct, param.value.count, args);
      holders.set(param.name, { param, holder });
      list.push(holder);
    } else if (param.dir === 'out' && param.value.t === 'index') {
      // The runtime writes the word in place (a transient pointer to the typed array, declarations.ts).
      const holder = BigUint64Array.of(INDEX_UNWRITTEN);
      holders.set(param.name, { param, holder });
      list.push(holder);
    } else if (param.dir === 'out') {
      const holder: Holder = param.value.t === 'struct' ? {} : [null];
      holders.set(param.name, { param, holder });
      list.push(holder);
    } else {
      list.push(inputValue(spec, param, args));
    }
  }
  return { args: list, holders };
}

function ptrAttributes(raw: unknown): OutValue {
  if (!isObject(raw) || !isObject(raw.location)) throw new Unrepresentable('attributes: koffi returned no struct');
  const location = {
    id: Number(integerValue(raw.location.id, 'location.id')),
    type: Number(integerValue(raw.location.type, 'location.type')),
  };
  const pageSize = Number(integerValue(raw.pageSize, 'pageSize'));
  const rsv = Array.isArray(raw.rsv) ? raw.rsv.map((item) => Number(integerValue(item, 'rsv'))) : [];
  // The four reserved words are left out when zero, as the simulator answers.
  return rsv.some((item) => item !== 0) ? { location, pageSize, rsv } : { location, pageSize };
}

/**
 * A struct out-value field by field from its §4 layout (aclrtPhysicalMemProp of
 * aclrtMemGetAllocationPropertiesFromHandle); reserved arrays are left out when all zero, as the
 * simulator answers.
 */
function structOut(name: AclStructName, raw: unknown, what: string): OutValue {
  if (name === 'aclrtPtrAttributes') return ptrAttributes(raw);
  if (!isObject(raw)) throw new Unrepresentable(`${what}: koffi returned no struct`);
  const out: Record<string, OutValue> = {};
  for (const field of STRUCT_LAYOUTS[name].fields) {
    const path = `${what}.${field.name}`;
    const item = raw[field.name];
    const { base } = parseCType(field.ctype);
    if ('count' in field && field.count !== undefined && base === 'char') {
      // A char array (aclrtMemUsageInfo.name): koffi decodes it as text up to its NUL.
      if (typeof item !== 'string') throw new Unrepresentable(`${path}: koffi returned ${typeof item}, not text`);
      out[field.name] = item;
    } else if ('count' in field && field.count !== undefined) {
      const items = Array.isArray(item) ? item.map((element) => exactInteger(integerValue(element, path), path)) : [];
      if (items.some((element) => element !== 0)) out[field.name] = items;
    } else if (isAclStructName(base)) out[field.name] = structOut(base, item, path);
    else out[field.name] = exactInteger(integerValue(item, path), path);
  }
  return out;
}

/** One out-value from what koffi wrote (or returned), by the parameter's value type. */
export function readValue(param: ParamSpec, raw: unknown): OutValue {
  const what = param.name;
  const type = param.value;
  if (isIntegerValueType(type)) return exactInteger(integerValue(raw, what), what);
  switch (type.t) {
    case 'ptr':
      return toHex(pointerValue(raw, what));
    case 'handle':
      // A shareable handle is a uint64_t token, the others are pointers.
      return toHex(type.of === 'shareableHandle' ? integerValue(raw, what) : pointerValue(raw, what));
    case 'string':
      if (raw === null || typeof raw === 'string') return raw;
      throw new Unrepresentable(`${what}: koffi returned ${typeof raw}, not a string`);
    case 'struct':
      return structOut(type.struct, raw, what);
    case 'index': {
      // SIZE_MAX ("no index") is -1 on the wire; any other index is an exact integer.
      const index = integerValue(raw, what);
      return index === 2n ** 64n - 1n || index === -1n ? -1 : exactInteger(index, what);
    }
    case 'float':
      // koffi writes a C float into the holder as a JS number (already a float's value).
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      throw new Unrepresentable(`${what}: koffi returned ${String(raw)}, not a finite float`);
    case 'charBuffer': {
      // The text up to its NUL (or the buffer's end, if the runtime wrote none).
      if (!(raw instanceof Uint8Array)) throw new Unrepresentable(`${what}: expected the char buffer PageLens passed`);
      const end = raw.indexOf(0);
      return new TextDecoder().decode(end < 0 ? raw : raw.subarray(0, end));
    }
    default:
      throw new Unrepresentable(`${what}: ${type.t} is never an out-parameter`);
  }
}

/**
 * The entries the runtime wrote into an output struct array: as many as the function's size_t
 * out-value says (aclrtGetMemUsageInfo's outputNum: "entries written"), never more than the
 * array holds; the whole array when the function has no such count.
 */
function structArrayOut(spec: CallSpec, prepared: Prepared, param: ParamSpec, struct: AclStructName, buffer: Uint8Array): OutValue {
  const capacity = buffer.length / STRUCT_LAYOUTS[struct].size;
  const counter = spec.params.find((item) => item.dir === 'out' && item.value.t === 'size');
  const counted = counter === undefined ? undefined : prepared.holders.get(counter.name)?.holder;
  const written =
    counter !== undefined && Array.isArray(counted) ? exactInteger(integerValue(counted[0], counter.name), counter.name) : capacity;
  const count = Math.max(0, Math.min(written, capacity));
  if (count === 0) return [];
  const raw: unknown = koffi.decode(buffer, structType(struct), count);
  if (!Array.isArray(raw)) throw new Unrepresentable(`${param.name}: koffi decoded no array`);
  return raw.map((item, index) => structOut(struct, item, `${param.name}[${index}]`));
}

/** An index out-value as the runtime left it; undefined when it wrote none (the holder still has its mark). */
function indexOut(param: ParamSpec, holder: BigUint64Array): OutValue | undefined {
  const word = holder[0];
  return word === undefined || word === INDEX_UNWRITTEN ? undefined : readValue(param, word);
}

function readOut(spec: CallSpec, prepared: Prepared, param: ParamSpec, holder: Holder): OutValue | undefined {
  if (param.value.t === 'index' && holder instanceof BigUint64Array) return indexOut(param, holder);
  if (param.value.t === 'structArray' && holder instanceof Uint8Array)
    return structArrayOut(spec, prepared, param, param.value.struct, holder);
  return Array.isArray(holder) ? readValue(param, holder[0]) : readValue(param, holder);
}

/** Every out-field of a successful call, by C name. */
export function readOuts(spec: CallSpec, prepared: Prepared, returned: unknown): Record<string, OutValue> {
  const out: Record<string, OutValue> = {};
  for (const param of spec.params) {
    if (param.dir !== 'out') continue;
    if (isReturnedValue(spec, param)) {
      out[param.name] = readValue(param, returned);
      continue;
    }
    const entry = prepared.holders.get(param.name);
    if (entry === undefined) continue;
    const value = readOut(spec, prepared, param, entry.holder);
    if (value !== undefined) out[param.name] = value;
  }
  return out;
}

/**
 * The out-fields of a failed call. C leaves out-parameters untouched on failure, with one kind of
 * exception: an index out-value says *where* the call failed (aclrtMemcpyBatch's failIndex names
 * the copy the runtime refused), so index outs are read on failure too, when the runtime wrote one.
 */
export function readFailureOuts(spec: CallSpec, prepared: Prepared): Record<string, OutValue> {
  const out: Record<string, OutValue> = {};
  for (const param of spec.params) {
    if (param.dir !== 'out' || param.value.t !== 'index') continue;
    const entry = prepared.holders.get(param.name);
    if (entry === undefined || !(entry.holder instanceof BigUint64Array)) continue;
    const value = indexOut(param, entry.holder);
    if (value !== undefined) out[param.name] = value;
  }
  return out;
}
