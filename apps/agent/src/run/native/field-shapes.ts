import { ACL_ENUM_TYPES, type AclStructName, STRUCT_LAYOUTS } from '@pagelens/core';

type CFieldLayout = (typeof STRUCT_LAYOUTS)[AclStructName]['fields'][number];

/*
 * How each struct field crosses the interposer's socket, read from STRUCT_LAYOUTS alone. The C
 * writers and readers (stub-gen.ts) and the agent's encoder (reply.ts) both walk these shapes, so
 * the two sides of the channel cannot disagree on the order of a struct's values.
 */

export type FieldShape =
  | { readonly kind: 'int'; readonly name: string; readonly signed: boolean }
  | { readonly kind: 'ints'; readonly name: string; readonly count: number }
  | { readonly kind: 'text'; readonly name: string; readonly count: number }
  | { readonly kind: 'struct'; readonly name: string; readonly struct: AclStructName }
  | { readonly kind: 'union'; readonly name: string; readonly struct: AclStructName }
  /** A pointer to `count` structs, counted by another field (`attrs` by `numAttrs`). */
  | { readonly kind: 'array'; readonly name: string; readonly struct: AclStructName; readonly countField: string }
  | { readonly kind: 'skip'; readonly name: string };

const SIGNED = new Set(['int8_t', 'int16_t', 'int32_t', 'int64_t', 'int', 'char']);
const UNSIGNED = new Set(['uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'size_t', 'unsigned']);
const ENUMS: ReadonlySet<string> = new Set(ACL_ENUM_TYPES.map((table) => table.cName));

function isStruct(name: string): name is AclStructName {
  return Object.hasOwn(STRUCT_LAYOUTS, name);
}

function shapeOf(field: CFieldLayout, siblings: readonly CFieldLayout[]): FieldShape {
  const ctype = field.ctype.trim();
  if (ctype.endsWith('*')) {
    const target = ctype.slice(0, -1).trim();
    const countField = `num${field.name[0]?.toUpperCase() ?? ''}${field.name.slice(1)}`;
    if (isStruct(target) && siblings.some((s) => s.name === countField))
      return { kind: 'array', name: field.name, struct: target, countField };
    return { kind: 'skip', name: field.name };
  }
  if (field.count !== undefined) {
    if (ctype === 'char') return { kind: 'text', name: field.name, count: field.count };
    return { kind: 'ints', name: field.name, count: field.count };
  }
  if (isStruct(ctype))
    return STRUCT_LAYOUTS[ctype].kind === 'union'
      ? { kind: 'union', name: field.name, struct: ctype }
      : { kind: 'struct', name: field.name, struct: ctype };
  if (SIGNED.has(ctype) || ENUMS.has(ctype)) return { kind: 'int', name: field.name, signed: true };
  if (UNSIGNED.has(ctype)) return { kind: 'int', name: field.name, signed: false };
  return { kind: 'skip', name: field.name };
}

export function fieldShapes(struct: AclStructName): FieldShape[] {
  const fields = STRUCT_LAYOUTS[struct].fields;
  return fields.map((field) => shapeOf(field, fields));
}
