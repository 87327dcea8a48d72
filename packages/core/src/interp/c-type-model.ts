import type { AclEnum } from '../acl/enum-table.ts';
import { ACL_ENUM_TYPES } from '../acl/enums.ts';
import { isAclStructName, STRUCT_LAYOUTS } from '../acl/structs.ts';

/**
 * The C types the interpreter knows, on LP64 Linux (acl-api.md §2): fixed-width and classic
 * integers, float/double, pointers (with the ACL handle typedefs as named `void*`), the ACL enum
 * types (4 bytes, unsigned as gcc makes an enum without negative members), and the structs and
 * the union of acl-api.md §4.
 */
export interface IntType {
  readonly k: 'int';
  readonly name: string;
  readonly bits: 8 | 16 | 32 | 64;
  readonly signed: boolean;
  /** `bool`: any non-zero value converts to 1. */
  readonly bool?: true;
  /** Set for the ACL enum types, to show values by name. */
  readonly enumTable?: AclEnum<string>;
}
export interface FloatType {
  readonly k: 'float';
  readonly name: 'float' | 'double';
}
export interface PtrType {
  readonly k: 'ptr';
  readonly to: CType;
  /** A typedef name such as `aclrtStream`, shown instead of `void*`. */
  readonly name?: string;
}
export interface StructType {
  readonly k: 'struct';
  /** An ACL struct of acl-api.md §4, or a struct the code defines (then `members` is set). */
  readonly name: string;
  readonly union: boolean;
  /** A struct or class the code defines, as plain data: its members in declaration order. */
  readonly members?: readonly FieldInfo[];
}
export interface ArrayType {
  readonly k: 'array';
  readonly of: CType;
  readonly length: number;
}
export interface VoidType {
  readonly k: 'void';
}
/** `std::vector<T>`: its elements live in heap memory of the process (from malloc), whose contents PageLens does not model. */
export interface VectorType {
  readonly k: 'vector';
  readonly of: CType;
}
/** `std::string`, for messages: its text is kept, not its memory. */
export interface StringType {
  readonly k: 'string';
  /** `std::stringstream`, `std::ostringstream`: a string built with `<<` and read with `.str()`. */
  readonly stream?: 'stringstream' | 'ostringstream';
}
/**
 * `std::map<K, V>` (ordered by `<`, or by `>` with `std::greater<K>`) and `std::unordered_map<K, V>`
 * (in insertion order here: the standard leaves its order unspecified). Its elements are
 * `std::pair<const K, V>` (pairOf), and an iterator is a pointer into them.
 */
export interface MapType {
  readonly k: 'map';
  readonly key: CType;
  readonly value: CType;
  readonly order: 'less' | 'greater' | 'hash';
}
/** `std::optional<T>`: a T or nothing (`std::nullopt`), as torch_npu keeps an optional stream. */
export interface OptionalType {
  readonly k: 'optional';
  readonly of: CType;
}
/**
 * `std::shared_ptr<T>` and `std::unique_ptr<T>`: a T* that deletes its object (or calls the deleter
 * the code gives) when the last owner lets go; smart-pointers.ts runs the ownership.
 */
export interface SmartPtrType {
  readonly k: 'smart';
  readonly kind: 'shared' | 'unique';
  readonly of: CType;
}
export type CType =
  | IntType
  | FloatType
  | PtrType
  | StructType
  | ArrayType
  | VoidType
  | VectorType
  | StringType
  | MapType
  | OptionalType
  | SmartPtrType;

/** The type of `std::nullopt`: converts to any std::optional as an empty one. */
export const NULLOPT_T: PtrType = { k: 'ptr', to: { k: 'void' }, name: 'std::nullopt_t' };

/** The element type of a map: `std::pair<const K, V>` with its members `first` and `second`. */
export function pairOf(map: MapType): StructType {
  return {
    k: 'struct',
    name: `std::pair<const ${typeName(map.key)}, ${typeName(map.value)}>`,
    union: false,
    members: [
      { name: 'first', type: map.key },
      { name: 'second', type: map.value },
    ],
  };
}

const int = (name: string, bits: IntType['bits'], signed: boolean): IntType => ({ k: 'int', name, bits, signed });

export const VOID: VoidType = { k: 'void' };
export const INT = int('int', 32, true);
export const UINT = int('unsigned int', 32, false);
export const LONG = int('long', 64, true);
export const ULONG = int('unsigned long', 64, false);
export const SIZE_T = int('size_t', 64, false);
export const BOOL: IntType = { k: 'int', name: 'bool', bits: 8, signed: false, bool: true };
export const CHAR = int('char', 8, true);
export const DOUBLE: FloatType = { k: 'float', name: 'double' };
export const FLOAT: FloatType = { k: 'float', name: 'float' };
export const VOID_PTR: PtrType = { k: 'ptr', to: VOID };
export const CHAR_PTR: PtrType = { k: 'ptr', to: CHAR };

/**
 * The runtime's handle types, each `typedef void* …` in CANN's headers (hicann/runtime 681ef76,
 * include/external/acl/acl_base_rt.h and acl_rt.h): the first four are the catalogue's; the others
 * reach only calls PageLens does not model (notify, labels, allocators, kernel binaries), as notes.
 */
const HANDLE_TYPEDEFS = [
  ...['aclrtStream', 'aclrtContext', 'aclrtEvent', 'aclrtDrvMemHandle'],
  ...['aclrtNotify', 'aclrtCntNotify', 'aclrtLabel', 'aclrtLabelList', 'aclrtMbuf', 'aclrtTaskGrp', 'aclrtMemPool'],
  ...['aclrtAllocatorDesc', 'aclrtAllocator', 'aclrtAllocatorBlock', 'aclrtAllocatorAddr'],
  ...['aclrtBinary', 'aclrtBinHandle', 'aclrtFuncHandle', 'aclrtArgsHandle', 'aclrtParamHandle'],
];

const NAMED: ReadonlyMap<string, CType> = new Map<string, CType>([
  ['int8_t', int('int8_t', 8, true)],
  ['uint8_t', int('uint8_t', 8, false)],
  ['int16_t', int('int16_t', 16, true)],
  ['uint16_t', int('uint16_t', 16, false)],
  ['int32_t', int('int32_t', 32, true)],
  ['uint32_t', int('uint32_t', 32, false)],
  ['int64_t', int('int64_t', 64, true)],
  ['uint64_t', int('uint64_t', 64, false)],
  ['size_t', SIZE_T],
  ['ssize_t', int('ssize_t', 64, true)],
  ['ptrdiff_t', int('ptrdiff_t', 64, true)],
  ['intptr_t', int('intptr_t', 64, true)],
  ['uintptr_t', int('uintptr_t', 64, false)],
  ['aclError', int('aclError', 32, true)],
  ['aclFloat16', int('aclFloat16', 16, false)],
  ['bool', BOOL],
  ['_Bool', BOOL],
  ['float', FLOAT],
  ['double', DOUBLE],
  ['void', VOID],
  // The C library's FILE is opaque: only FILE* is ever written.
  ['FILE', VOID],
  ...HANDLE_TYPEDEFS.map((name): [string, CType] => [name, { k: 'ptr', to: VOID, name }]),
  ...ACL_ENUM_TYPES.map((table): [string, CType] => [
    table.cName,
    { k: 'int', name: table.cName, bits: 32, signed: false, enumTable: table },
  ]),
]);

/** `unsigned long long`, `short int`, `char`…: the classic integer spellings, in any word order. */
function classicInt(words: readonly string[]): IntType | undefined {
  const known = new Set(['unsigned', 'signed', 'long', 'short', 'int', 'char']);
  if (words.length === 0 || !words.every((w) => known.has(w))) return undefined;
  const unsigned = words.includes('unsigned');
  const longs = words.filter((w) => w === 'long').length;
  const name = words.join(' ');
  if (words.includes('char')) return int(name, 8, !unsigned);
  if (words.includes('short')) return int(name, 16, !unsigned);
  if (longs > 0) return int(name, 64, !unsigned);
  return int(name, 32, !unsigned);
}

/** The type a base name (one or more words, no `*`) denotes, or undefined if PageLens does not know it. */
export function baseType(words: readonly string[]): CType | undefined {
  const [first] = words;
  if (words.length === 1 && first !== undefined) {
    const named = NAMED.get(first);
    if (named !== undefined) return named;
    if (isAclStructName(first)) return { k: 'struct', name: first, union: STRUCT_LAYOUTS[first].kind === 'union' };
  }
  return classicInt(words);
}

export const pointerTo = (to: CType): PtrType => ({ k: 'ptr', to });

/** A C type written as text in STRUCT_LAYOUTS (`uint32_t`, `aclrtMallocAttribute *`); unknown pointees become `void`. */
export function typeFromLayout(ctype: string, count?: number): CType {
  const text = ctype.trim();
  let type: CType;
  if (text.endsWith('*')) type = pointerTo(baseType([text.slice(0, -1).trim()]) ?? VOID);
  else type = baseType(text.split(/\s+/)) ?? VOID;
  return count === undefined ? type : { k: 'array', of: type, length: count };
}

export interface FieldInfo {
  readonly name: string;
  readonly type: CType;
  /** A default member initialiser the code writes (`int32_t deviceId = 0;`): a number (0 for nullptr), or a std::string's text. */
  readonly initial?: number | string;
}

export function fieldsOf(struct: StructType): readonly FieldInfo[] {
  if (struct.members !== undefined) return struct.members;
  const name: string = struct.name;
  if (!isAclStructName(name)) return [];
  return STRUCT_LAYOUTS[name].fields.map((f) => ({ name: f.name, type: typeFromLayout(f.ctype, f.count) }));
}

/** Bytes a value of `type` is aligned to on LP64 (1 for void). */
export function alignOf(type: CType): number {
  switch (type.k) {
    case 'int':
      return type.bits / 8;
    case 'float':
      return type.name === 'float' ? 4 : 8;
    case 'ptr':
      return 8;
    case 'array':
      return alignOf(type.of);
    case 'struct':
      return Math.max(1, ...fieldsOf(type).map((f) => alignOf(f.type)));
    case 'vector':
    case 'string':
    case 'map':
    case 'smart':
      return 8;
    case 'optional':
      return alignOf(type.of);
    case 'void':
      return 1;
  }
}

/** The size of a struct the code defines, laid out as gcc does on LP64: each member at its alignment, the whole rounded to the largest. */
function definedStructSize(type: StructType, members: readonly FieldInfo[]): number | undefined {
  let offset = 0;
  for (const member of members) {
    const size = sizeOf(member.type);
    if (size === undefined) return undefined;
    const align = alignOf(member.type);
    offset = type.union ? Math.max(offset, size) : Math.ceil(offset / align) * align + size;
  }
  const align = alignOf(type);
  return Math.max(Math.ceil(offset / align) * align, type.union ? 0 : members.length === 0 ? 1 : 0);
}

/** Bytes; undefined for `void`. */
export function sizeOf(type: CType): number | undefined {
  switch (type.k) {
    case 'int':
      return type.bits / 8;
    case 'float':
      return type.name === 'float' ? 4 : 8;
    case 'ptr':
      return 8;
    case 'struct': {
      if (type.members !== undefined) return definedStructSize(type, type.members);
      const name: string = type.name;
      return isAclStructName(name) ? STRUCT_LAYOUTS[name].size : undefined;
    }
    case 'array': {
      const element = sizeOf(type.of);
      return element === undefined ? undefined : element * type.length;
    }
    // libstdc++ on LP64: three pointers; a pointer, a length and a 16-byte local buffer.
    case 'vector':
      return 24;
    case 'string':
      return 32;
    // libstdc++ on LP64: the tree header and a count; the hash table's buckets, count and policy.
    case 'map':
      return type.order === 'hash' ? 56 : 48;
    // libstdc++: the T, then its engaged flag, rounded to T's alignment.
    case 'optional': {
      const size = sizeOf(type.of);
      const align = alignOf(type.of);
      return size === undefined ? undefined : Math.ceil((size + 1) / align) * align;
    }
    // libstdc++ on LP64: the pointer and its control block; unique_ptr with the default deleter is the pointer alone.
    case 'smart':
      return type.kind === 'shared' ? 16 : 8;
    case 'void':
      return undefined;
  }
}

export function typeName(type: CType): string {
  switch (type.k) {
    case 'int':
    case 'float':
    case 'struct':
      return type.name;
    case 'ptr':
      return type.name ?? `${typeName(type.to)}*`;
    case 'array':
      return `${typeName(type.of)}[${type.length}]`;
    case 'vector':
      return `std::vector<${typeName(type.of)}>`;
    case 'string':
      return type.stream === undefined ? 'std::string' : `std::${type.stream}`;
    case 'optional':
      return `std::optional<${typeName(type.of)}>`;
    case 'smart':
      return `std::${type.kind}_ptr<${typeName(type.of)}>`;
    case 'map': {
      const compare = type.order === 'greater' ? `, std::greater<${typeName(type.key)}>` : '';
      return `std::${type.order === 'hash' ? 'unordered_map' : 'map'}<${typeName(type.key)}, ${typeName(type.value)}${compare}>`;
    }
    case 'void':
      return 'void';
  }
}

/** The names a declaration can use, for messages. */
