import { isObject } from '../protocol/guards.ts';
import { quote } from '../protocol/quote.ts';
import type { AclEnum } from './enum-table.ts';
import { aclrtMallocAttrType, enumByCName } from './enums.ts';
import { ACL_FUNCTIONS, type AclFunctionName, type ValueType } from './functions.ts';
import { type FieldType, structField } from './struct-fields.ts';
import type { AclStructName } from './structs.ts';

/**
 * Turns call arguments as people and scripts write them into the runtime's form: enum and flag
 * values given as C identifiers ("ACL_MEM_MALLOC_HUGE_FIRST", "ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED",
 * or an array of names) become numbers, and a null pointer becomes "0x0". Everything else passes
 * through unchanged for `checkArgs` to judge. Unknown identifiers are refused with the names allowed.
 */
export type Normalized = { ok: true; value: unknown } | { ok: false; field: string; message: string };

function namesOf(table: AclEnum<string>): string {
  const names = table.names;
  return names.length > 12 ? `${names.slice(0, 12).join(', ')}, …` : names.join(', ');
}

/** The most names or numbers a flags value may list. */
const MAX_FLAG_PARTS = 64;

/** A negative int32 is the same 32 bits as an unsigned value, which is how the runtime reads an enum or flag word. */
const unsigned32 = (value: number): number => (Number.isInteger(value) && value < 0 && value >= -(2 ** 31) ? value >>> 0 : value);

function enumValue(field: string, table: AclEnum<string>, value: unknown, flags: boolean, wide: boolean): Normalized {
  if (typeof value === 'number') return { ok: true, value: wide ? value : unsigned32(value) };
  const parts = Array.isArray(value) ? value : typeof value === 'string' && flags ? value.split('|') : [value];
  // A flag set has 32 bits: a longer list is no C value (and is not worth reading through).
  if (parts.length > MAX_FLAG_PARTS) {
    return {
      ok: false,
      field,
      message: `${field}: a list of ${parts.length} flags; ${table.cName} takes at most ${MAX_FLAG_PARTS} names or numbers`,
    };
  }
  let total = 0;
  for (const part of parts) {
    if (typeof part === 'number' && flags) {
      total = (total | (wide ? part : unsigned32(part))) >>> 0;
      continue;
    }
    if (typeof part !== 'string') return { ok: true, value };
    const name = part.trim();
    const resolved = table.valueOf(name);
    if (resolved === undefined) {
      return {
        ok: false,
        field,
        message: `${field}: ${quote(name)} is not a name in ${table.cName}; use a number or one of ${namesOf(table)}`,
      };
    }
    total = flags ? (total | resolved) >>> 0 : resolved;
  }
  return { ok: true, value: total };
}

/** `wide`: a 64-bit parameter (uint64_t flags, mode), whose negative values are not 32-bit words. */
function normalize(field: string, type: ValueType | FieldType, value: unknown, wide = false): Normalized {
  switch (type.t) {
    case 'enum':
    case 'flags': {
      const table = enumByCName(type.enum);
      return table === undefined ? { ok: true, value } : enumValue(field, table, value, type.t === 'flags', wide);
    }
    case 'ptr':
    case 'handle':
      return { ok: true, value: value === null ? '0x0' : value };
    case 'struct':
      if (type.struct === 'aclrtMallocConfig') return normalizeConfig(field, value);
      return normalizeStruct(field, type.struct, value);
    case 'structArray': {
      if (!Array.isArray(value)) return { ok: true, value };
      const items: unknown[] = [];
      for (const [index, item] of value.entries()) {
        const result = normalizeStruct(`${field}[${index}]`, type.struct, item);
        if (!result.ok) return result;
        items.push(result.value);
      }
      return { ok: true, value: items };
    }
    default:
      return { ok: true, value };
  }
}

function normalizeStruct(field: string, struct: AclStructName, value: unknown): Normalized {
  if (!isObject(value)) return { ok: true, value };
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const spec = structField(struct, key);
    if (spec === undefined) {
      copy[key] = item;
      continue;
    }
    const result = normalize(`${field}.${key}`, spec.type, item);
    if (!result.ok) return result;
    copy[key] = result.value;
  }
  return { ok: true, value: copy };
}

function normalizeConfig(field: string, value: unknown): Normalized {
  if (!isObject(value) || !Array.isArray(value.attrs)) return { ok: true, value };
  const attrs: unknown[] = [];
  for (const [index, attribute] of value.attrs.entries()) {
    if (!isObject(attribute)) {
      attrs.push(attribute);
      continue;
    }
    const kind = enumValue(`${field}.attrs[${index}].attr`, aclrtMallocAttrType, attribute.attr, false, false);
    if (!kind.ok) return kind;
    attrs.push({ ...attribute, attr: kind.value });
  }
  // numAttrs may be left out on the wire: it then counts the attributes given.
  return { ok: true, value: { ...value, attrs, numAttrs: value.numAttrs ?? attrs.length } };
}

export function normalizeArgs(fn: AclFunctionName, args: unknown): Normalized {
  if (!isObject(args)) return { ok: true, value: args };
  const copy: Record<string, unknown> = { ...args };
  for (const param of ACL_FUNCTIONS[fn].params) {
    if (param.dir !== 'in' || !Object.hasOwn(args, param.name)) continue;
    const result = normalize(param.name, param.value, args[param.name], /\b(u?int64_t|size_t)\b/.test(param.ctype));
    if (!result.ok) return result;
    copy[param.name] = result.value;
  }
  return { ok: true, value: copy };
}
