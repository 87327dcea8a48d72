import { ACL_ENUM_TYPES, STRUCT_LAYOUTS } from '@pagelens/core';
import koffi from 'koffi';

/*
 * koffi types for the C types of acl-api.md §2 and §4, derived from core's STRUCT_LAYOUTS and the
 * catalogue's C type strings rather than typed out again. Types are anonymous on purpose: koffi's
 * type names are global to the process, and a module evaluated twice (tests, worker threads)
 * would otherwise collide with its own earlier registrations.
 */

export type KoffiType = ReturnType<typeof koffi.struct>;
export type TypeSpec = string | KoffiType;
export type AclStructName = keyof typeof STRUCT_LAYOUTS;
type FieldLayout = (typeof STRUCT_LAYOUTS)[AclStructName]['fields'][number];

/** Every ACL enum is a 4-byte C enum with no negative member, which gcc lays out as unsigned int (§2). */
const ENUM_TYPES = new Set(ACL_ENUM_TYPES.map((table) => table.cName));
/** Typedefs of `void *` (§2). */
const OPAQUE_POINTERS = new Set(['aclrtStream', 'aclrtContext', 'aclrtEvent', 'aclrtDrvMemHandle']);
const SCALARS = new Set([
  'void',
  'char',
  'int8_t',
  'uint8_t',
  'int16_t',
  'uint16_t',
  'int32_t',
  'uint32_t',
  'int64_t',
  'uint64_t',
  'size_t',
  // aclrtEventElapsedTime's `float* ms` (runtime-api.md §5).
  'float',
]);

export function isAclStructName(name: string): name is AclStructName {
  return Object.hasOwn(STRUCT_LAYOUTS, name);
}

export interface ParsedCType {
  /** The type without qualifiers, tag keywords or stars: "aclrtPhysicalMemProp". */
  readonly base: string;
  /** How many `*` follow it. */
  readonly depth: number;
}

/** `const aclrtPhysicalMemProp *` → { base: 'aclrtPhysicalMemProp', depth: 1 }. */
export function parseCType(ctype: string): ParsedCType {
  const stars = (ctype.match(/\*/g) ?? []).length;
  const base = ctype
    .replace(/\*/g, ' ')
    .replace(/\b(const|volatile|struct|union|enum)\b/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
  return { base, depth: stars };
}

function baseType(base: string): TypeSpec {
  if (ENUM_TYPES.has(base)) return 'uint32_t';
  if (base === 'aclError') return 'int32_t';
  if (OPAQUE_POINTERS.has(base)) return koffi.pointer('void');
  if (isAclStructName(base)) return structType(base);
  if (SCALARS.has(base)) return base;
  throw new Error(`no koffi type for the C type "${base}"`);
}

function isKnown(base: string): boolean {
  return ENUM_TYPES.has(base) || OPAQUE_POINTERS.has(base) || isAclStructName(base) || SCALARS.has(base) || base === 'aclError';
}

/** The koffi type of a C type as the catalogue writes it; `char *` is a NUL-terminated string. */
export function koffiType(ctype: string): TypeSpec {
  const { base, depth } = parseCType(ctype);
  if (base === 'char' && depth === 1) return 'const char *';
  // A pointer to a struct PageLens does not describe (aclrtUtilizationExtendInfo *) is still a pointer.
  if (depth > 0 && !isKnown(base)) return koffi.pointer('void');
  let type = baseType(base);
  for (let level = 0; level < depth; level += 1) type = koffi.pointer(type);
  return type;
}

function fieldType(field: FieldLayout): TypeSpec {
  const element = koffiType(field.ctype);
  if (!('count' in field) || field.count === undefined) return element;
  return koffi.array(element, field.count, field.ctype === 'char' ? 'String' : 'Array');
}

const structs = new Map<AclStructName, KoffiType>();

/** The koffi struct (or union) for a §4 layout, built once per module instance. */
export function structType(name: AclStructName): KoffiType {
  const existing = structs.get(name);
  if (existing !== undefined) return existing;
  const layout = STRUCT_LAYOUTS[name];
  const members: Record<string, TypeSpec> = {};
  for (const field of layout.fields) members[field.name] = fieldType(field);
  const type = layout.kind === 'union' ? koffi.union(members) : koffi.struct(members);
  structs.set(name, type);
  return type;
}

export interface KoffiLayout {
  readonly size: number;
  readonly align: number;
  readonly offsets: Readonly<Record<string, number>>;
}

/** What koffi will put in memory for a §4 struct: size, alignment and every field's offset (bytes). */
export function koffiLayout(name: AclStructName): KoffiLayout {
  const type = structType(name);
  // koffi.offsetof() takes structs only; introspect() describes union members too.
  const members = koffi.introspect(type).members ?? {};
  const offsets: Record<string, number> = {};
  for (const field of STRUCT_LAYOUTS[name].fields) {
    const member = members[field.name];
    if (member === undefined) throw new Error(`koffi lost the field ${name}.${field.name}`);
    offsets[field.name] = member.offset;
  }
  return { size: koffi.sizeof(type), align: koffi.alignof(type), offsets };
}
