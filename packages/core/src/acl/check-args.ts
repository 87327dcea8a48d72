import { isObject } from '../protocol/guards.ts';
import { clip, quote } from '../protocol/quote.ts';
import { hexDigitsValue, parseHex } from '../units/hex.ts';
import { ACL_FUNCTIONS, type AclFunctionName, type ListItem, type ParamSpec, type ValueType } from './functions.ts';
import type { AclArgs } from './runtime.ts';
import { type FieldType, structField, structFields } from './struct-fields.ts';
import type { AclStructName } from './structs.ts';

/**
 * Checks that the arguments of a call have the runtime shapes the catalogue demands: integers in
 * their C ranges, sizes that are safe integers, pointers as "0x…", structs with their C fields.
 * It does not judge values (that is the runtime's job, which answers with an ACL code); it
 * refuses what could never be a C value, naming the field, what was received and what is allowed.
 */
export type ArgCheck = { ok: true } | { ok: false; field: string; message: string };

/** What a value is checked against: a parameter's type, a struct field's, or an aclrtMallocAttrValue member. */
type Checked = ValueType | FieldType | { readonly t: 'optionalInt' };

const MAX_ARRAY = 1024;
/** Each list element is checked as the scalar it is. */
const LIST_ELEMENTS: Readonly<Record<ListItem, { readonly ctype: string; readonly type: ValueType }>> = {
  int: { ctype: 'int32_t', type: { t: 'int' } },
  size: { ctype: 'size_t', type: { t: 'size' } },
  ptr: { ctype: 'void*', type: { t: 'ptr' } },
};
const MAX_STRING = 4096;
const INT32_MIN = -(2 ** 31);
const UINT32_LIMIT = 2 ** 32;

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : quote(value);
}

function bad(field: string, value: unknown, allowed: string): ArgCheck {
  return { ok: false, field, message: `${field}: received ${describe(value)}; expected ${allowed}` };
}

const OK: ArgCheck = { ok: true };

function isIntegerIn(value: unknown, min: number, limit: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value < limit;
}

function checkInteger(field: string, value: unknown, min: number, limit: number, what: string): ArgCheck {
  return isIntegerIn(value, min, limit) ? OK : bad(field, value, what);
}

function checkValue(field: string, type: Checked, value: unknown): ArgCheck {
  switch (type.t) {
    case 'int':
      return checkInteger(field, value, INT32_MIN, 2 ** 31, 'an int32_t integer');
    case 'uint':
      return checkInteger(field, value, 0, UINT32_LIMIT, 'a uint32_t integer (0 to 4294967295)');
    case 'optionalInt':
      return value === undefined ? OK : checkInteger(field, value, INT32_MIN, UINT32_LIMIT, 'an integer');
    case 'size':
    case 'u64':
      if (typeof value === 'number' && value >= 2 ** 53) return bad(field, value, 'an integer below 2^53 (PageLens keeps sizes exact)');
      return checkInteger(field, value, 0, 2 ** 53, 'a whole number ≥ 0');
    case 'enum':
    case 'flags':
      // The description is built only on failure: this runs for every policy and flags argument.
      return isIntegerIn(value, INT32_MIN, UINT32_LIMIT) ? OK : bad(field, value, `a ${type.enum} value`);
    case 'ptr':
    case 'handle': {
      // One pass over the text decides both the shape and the 2^53 limit (units/hex.ts).
      const digits = typeof value === 'string' ? hexDigitsValue(value) : -1;
      if (digits === -1) return bad(field, value, 'a pointer written as 0x followed by 1 to 16 hex digits ("0x0" for NULL)');
      if (Number.isSafeInteger(digits)) return OK;
      const parsed = parseHex(String(value));
      return parsed.ok ? OK : { ok: false, field, message: `${field}: ${parsed.message}` };
    }
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? OK : bad(field, value, 'a finite number');
    case 'index':
      return checkInteger(field, value, -1, 2 ** 53, 'an index ≥ 0, or -1 for SIZE_MAX');
    case 'charBuffer':
      return typeof value === 'string' && value.length <= MAX_STRING
        ? OK
        : bad(field, value, `a string of at most ${MAX_STRING} characters`);
    case 'string':
      if (value === null) return OK;
      if (typeof value !== 'string' || value.length > MAX_STRING)
        return bad(field, value, `a string of at most ${MAX_STRING} characters, or null`);
      return OK;
    case 'array': {
      // Reserved words (rsv) the runtime wants zero: judging them is its job, only the shape is checked here.
      if (value === undefined) return OK;
      const bytes = type.element === 'uint8_t';
      const limit = bytes ? 256 : 2 ** 53;
      if (!Array.isArray(value) || value.length > 64 || !value.every((item) => isIntegerIn(item, 0, limit))) {
        return bad(field, value, bytes ? 'an array of byte values' : `an array of ${type.element} values`);
      }
      return OK;
    }
    case 'list': {
      const element = LIST_ELEMENTS[type.item];
      if (!Array.isArray(value) || value.length > MAX_ARRAY)
        return bad(field, value, `an array of at most ${MAX_ARRAY} ${element.ctype} values`);
      for (const [index, item] of value.entries()) {
        const check = checkValue(`${field}[${index}]`, element.type, item);
        if (!check.ok) return check;
      }
      return OK;
    }
    case 'struct':
      return value === null ? OK : checkStruct(field, type.struct, value);
    case 'structArray':
      if (!Array.isArray(value) || value.length > MAX_ARRAY)
        return bad(field, value, `an array of at most ${MAX_ARRAY} ${type.struct} objects`);
      for (const [index, item] of value.entries()) {
        const check = checkStruct(`${field}[${index}]`, type.struct, item);
        if (!check.ok) return check;
      }
      return OK;
  }
}

function checkMallocConfig(field: string, value: Record<string, unknown>): ArgCheck {
  const { attrs, numAttrs } = value;
  const count = checkValue(`${field}.numAttrs`, { t: 'size' }, numAttrs);
  if (!count.ok) return count;
  if (!Array.isArray(attrs) || attrs.length > 64)
    return bad(`${field}.attrs`, attrs, 'an array of at most 64 aclrtMallocAttribute objects');
  for (const [index, attr] of attrs.entries()) {
    const path = `${field}.attrs[${index}]`;
    if (!isObject(attr)) return bad(path, attr, 'an object {attr, value}');
    for (const key of Object.keys(attr)) {
      if (key !== 'attr' && key !== 'value') return bad(`${path}.${clip(key)}`, attr[key], 'only the fields attr and value');
    }
    const kind = checkValue(`${path}.attr`, { t: 'enum', enum: 'aclrtMallocAttrType' }, attr.attr);
    if (!kind.ok) return kind;
    if (!isObject(attr.value)) return bad(`${path}.value`, attr.value, 'an object with moduleId, deviceId or vaFlag');
    for (const [key, member] of Object.entries(attr.value)) {
      if (key !== 'moduleId' && key !== 'deviceId' && key !== 'vaFlag')
        return bad(`${path}.value.${clip(key)}`, member, 'only moduleId, deviceId or vaFlag');
      const check = checkValue(`${path}.value.${key}`, { t: 'optionalInt' }, member);
      if (!check.ok) return check;
    }
  }
  for (const key of Object.keys(value)) {
    if (key !== 'attrs' && key !== 'numAttrs') return bad(`${field}.${clip(key)}`, value[key], 'only the fields attrs and numAttrs');
  }
  return OK;
}

function checkStruct(field: string, struct: AclStructName, value: unknown): ArgCheck {
  if (!isObject(value)) return bad(field, value, `a ${struct} object`);
  if (struct === 'aclrtMallocConfig') return checkMallocConfig(field, value);
  const fields = structFields(struct);
  for (const { name, type } of fields) {
    const check = checkValue(`${field}.${name}`, type, value[name]);
    if (!check.ok) return check;
  }
  for (const key of Object.keys(value)) {
    if (structField(struct, key) === undefined)
      return bad(`${field}.${clip(key)}`, value[key], `only the fields of ${struct}: ${fields.map((f) => f.name).join(', ')}`);
  }
  return OK;
}

/** A function's parameters arranged for checking each call: inputs in order, and each name's direction. */
interface Signature {
  readonly inputs: readonly ParamSpec[];
  readonly direction: ReadonlyMap<string, ParamSpec['dir']>;
}

/** Built on first use per function: every simulated call is checked, and the catalogue never changes. */
const SIGNATURES = new Map<AclFunctionName, Signature>();

function signatureOf(fn: AclFunctionName): Signature {
  let signature = SIGNATURES.get(fn);
  if (signature === undefined) {
    const params = ACL_FUNCTIONS[fn].params;
    const direction = new Map<string, ParamSpec['dir']>();
    // A name listed twice keeps 'in' if either is an input, as the `some` scans this replaces did.
    for (const param of params) if (direction.get(param.name) !== 'in') direction.set(param.name, param.dir);
    signature = { inputs: params.filter((param) => param.dir === 'in'), direction };
    SIGNATURES.set(fn, signature);
  }
  return signature;
}

/**
 * The usual call in one pass: the own keys are the inputs, in catalogue order. Returns the same
 * verdict the general check below would, or undefined when the keys are otherwise (missing, extra,
 * reordered, not enumerable) and the general check must decide, with its messages.
 */
function checkInOrder(inputs: readonly ParamSpec[], args: Record<string, unknown>): ArgCheck | undefined {
  let position = 0;
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    const param = inputs[position];
    if (param === undefined || param.name !== key) return undefined;
    // Every input before this one is present and valid, so the general check would fail here too.
    const check = checkValue(key, param.value, args[key]);
    if (!check.ok) return check;
    position += 1;
  }
  return position === inputs.length ? OK : undefined;
}

/** Checks every input parameter of `fn` in `args` (an object keyed by C parameter names). */
export function checkArgs(fn: AclFunctionName, args: unknown): ArgCheck {
  if (!isObject(args)) return bad('args', args, 'an object keyed by the C parameter names');
  return checkInOrder(signatureOf(fn).inputs, args) ?? checkEachParam(fn, args);
}

/**
 * The general check: each input in catalogue order (missing or invalid), then each own key that is
 * not an input. Exported only for the test that holds `checkInOrder` to it.
 */
export function checkEachParam(fn: AclFunctionName, args: Record<string, unknown>): ArgCheck {
  const { inputs, direction } = signatureOf(fn);
  for (const param of inputs) {
    if (!Object.hasOwn(args, param.name)) {
      return {
        ok: false,
        field: param.name,
        message: `${param.name}: missing; ${fn} takes ${inputNames(fn).join(', ') || 'no arguments'}`,
      };
    }
    const check = checkValue(param.name, param.value, args[param.name]);
    if (!check.ok) return check;
  }
  // Own enumerable keys, in Object.keys order, without building the array.
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    const dir = direction.get(key);
    if (dir !== 'in') {
      const out = dir === 'out';
      // A key that is no parameter came from the client and may be a megabyte long.
      const name = out ? key : clip(key);
      return {
        ok: false,
        field: name,
        message: out
          ? `${name}: is an out-parameter of ${fn}; its value comes back in the result, do not pass it`
          : `${name}: ${fn} has no such parameter; it takes ${inputNames(fn).join(', ') || 'no arguments'}`,
      };
    }
  }
  return OK;
}

export function inputNames(fn: AclFunctionName): string[] {
  return ACL_FUNCTIONS[fn].params.filter((param) => param.dir === 'in').map((param) => param.name);
}

/**
 * The same check as a type guard, for code that must hand the arguments on typed; a failure is
 * reported through `onProblem` (one pass, no second check to get the message).
 */
export function argsAreValid<F extends AclFunctionName>(
  fn: F,
  args: unknown,
  onProblem?: (field: string, message: string) => void,
): args is AclArgs<F> {
  const check = checkArgs(fn, args);
  if (!check.ok) onProblem?.(check.field, check.message);
  return check.ok;
}
