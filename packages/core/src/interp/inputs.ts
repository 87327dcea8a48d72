import { ACL_CONSTANTS } from '../acl/enums.ts';
import { parseSize } from '../units/bytes.ts';
import { parseHex } from '../units/hex.ts';
import { baseType, type CType, pointerTo, typeName } from './c-type-model.ts';
import { floatValue, intValue, type Value } from './values.ts';

/**
 * A value the code uses without declaring it (the seed's host-memory sample uses `size` and
 * `stream`): a scenario declares it with its C type and, unless its setup binds it, a value.
 */
export interface InputDecl {
  readonly name: string;
  /** `size_t`, `aclrtStream`, `void*`, `int32_t`… */
  readonly ctype: string;
  /** Integers: "4 MiB", "4096", "0x1000", "-1" or an ACL constant name; pointers: "0x…" or "NULL". Absent: 0 / NULL. */
  readonly value?: string;
}

/** The C type an input declares, or undefined when PageLens cannot hold such a value. */
export function inputType(ctype: string): CType | undefined {
  const text = ctype.replace(/\bconst\b/g, ' ').trim();
  const stars = (text.match(/\*/g) ?? []).length;
  let type = baseType(text.replace(/\*/g, ' ').trim().split(/\s+/));
  if (type === undefined || type.k === 'struct' || type.k === 'array' || (type.k === 'void' && stars === 0)) return undefined;
  for (let i = 0; i < stars; i += 1) type = pointerTo(type);
  return type;
}

export type InputValue = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly message: string };

export function inputValue(decl: InputDecl): InputValue {
  const type = inputType(decl.ctype);
  const where = `input ${decl.name} (${decl.ctype})`;
  if (type === undefined) return { ok: false, message: `${where}: PageLens inputs are integers, floats or pointers` };
  const text = decl.value?.trim() ?? '';
  switch (type.k) {
    case 'int': {
      if (text === '') return { ok: true, value: intValue(type, 0n) };
      const named = ACL_CONSTANTS.get(text);
      if (named !== undefined) return { ok: true, value: intValue(type, BigInt(named)) };
      if (/^-\d+$/.test(text)) return { ok: true, value: intValue(type, BigInt(text)) };
      const size = parseSize(text);
      return size.ok ? { ok: true, value: intValue(type, BigInt(size.bytes)) } : { ok: false, message: `${where}: ${size.message}` };
    }
    case 'float': {
      const number = Number(text === '' ? 0 : text);
      return Number.isFinite(number)
        ? { ok: true, value: floatValue(type, number) }
        : { ok: false, message: `${where}: "${text}" is not a number` };
    }
    case 'ptr': {
      if (text === '' || text === 'NULL' || text === 'nullptr' || text === '0') return { ok: true, value: { k: 'ptr', type, addr: 0n } };
      const parsed = parseHex(text);
      return parsed.ok
        ? { ok: true, value: { k: 'ptr', type, addr: BigInt(parsed.value) } }
        : { ok: false, message: `${where}: ${parsed.message}` };
    }
    default:
      return { ok: false, message: `${where}: ${typeName(type)} cannot be an input` };
  }
}
