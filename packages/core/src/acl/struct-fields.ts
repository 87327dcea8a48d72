import { enumByCName } from './enums.ts';
import { type AclStructName, type CFieldLayout, isAclStructName, STRUCT_LAYOUTS } from './structs.ts';

/*
 * The fields of the §4 structs as values: what each holds, derived from its C type in
 * STRUCT_LAYOUTS, so the layouts stay the one table of struct facts. Checks, wire parsing, forms
 * and the log read these; the koffi binding and the interpreter read the layouts themselves.
 */

/** How PageLens holds one struct field (the same shapes as the catalogue's ValueType where they meet). */
export type FieldType =
  | { readonly t: 'int' } // int32_t
  | { readonly t: 'uint' } // uint32_t, uint16_t
  | { readonly t: 'u64' } // uint64_t
  | { readonly t: 'size' } // size_t
  | { readonly t: 'ptr' } // any other pointer: "0x…"
  | { readonly t: 'string' } // char name[32]: text
  | { readonly t: 'enum'; readonly enum: string } // a C enum type of enums.ts: the number
  | { readonly t: 'struct'; readonly struct: AclStructName }
  /** `aclrtMallocAttribute *attrs`: a pointer to elements, held as their array. */
  | { readonly t: 'structArray'; readonly struct: AclStructName }
  /** A fixed array of integers (`uint8_t rsv[12]`): absent means zeros. */
  | { readonly t: 'array'; readonly element: string; readonly count: number };

export interface StructField {
  readonly name: string;
  /** The C type as STRUCT_LAYOUTS writes it (an array's element type). */
  readonly ctype: string;
  readonly type: FieldType;
}

const SCALARS: Readonly<Record<string, FieldType>> = {
  int32_t: { t: 'int' },
  uint32_t: { t: 'uint' },
  uint16_t: { t: 'uint' },
  uint64_t: { t: 'u64' },
  size_t: { t: 'size' },
};

/** Throws for a C type it does not know, so a new layout row with a new type fails at load, in every test. */
function fieldType(struct: string, field: CFieldLayout): FieldType {
  const ctype = field.ctype.trim();
  if (field.count !== undefined) return ctype === 'char' ? { t: 'string' } : { t: 'array', element: ctype, count: field.count };
  if (ctype.endsWith('*')) {
    const pointee = ctype.slice(0, -1).trim();
    return isAclStructName(pointee) ? { t: 'structArray', struct: pointee } : { t: 'ptr' };
  }
  if (isAclStructName(ctype)) return { t: 'struct', struct: ctype };
  if (enumByCName(ctype)?.kind === 'enum') return { t: 'enum', enum: ctype };
  const scalar = Object.hasOwn(SCALARS, ctype) ? SCALARS[ctype] : undefined;
  if (scalar === undefined) throw new Error(`${struct}.${field.name}: no field type for the C type ${ctype}`);
  return scalar;
}

const STRUCT_FIELDS = new Map<AclStructName, readonly StructField[]>();
const FIELD_BY_NAME = new Map<AclStructName, ReadonlyMap<string, StructField>>();
for (const name of Object.keys(STRUCT_LAYOUTS).filter(isAclStructName)) {
  const fields = STRUCT_LAYOUTS[name].fields.map((field) => ({ name: field.name, ctype: field.ctype, type: fieldType(name, field) }));
  STRUCT_FIELDS.set(name, fields);
  FIELD_BY_NAME.set(name, new Map(fields.map((field) => [field.name, field])));
}

/** The fields of a struct in declaration order, each with what it holds. */
export function structFields(struct: AclStructName): readonly StructField[] {
  return STRUCT_FIELDS.get(struct) ?? [];
}

/** One field of a struct by its C name; undefined for a name the struct does not have. */
export function structField(struct: AclStructName, name: string): StructField | undefined {
  return FIELD_BY_NAME.get(struct)?.get(name);
}
