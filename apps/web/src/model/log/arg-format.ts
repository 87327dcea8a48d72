import {
  ACL_FUNCTIONS,
  type AclStructName,
  type CallEvent,
  enumByCName,
  type FieldType,
  flagNames,
  formatInteger,
  isAclFunctionName,
  type ParamSpec,
  parseHex,
  parseSize,
  structField,
  type ValueType,
} from '@pagelens/core';
import { address, bytes, type FormatPrefs } from '../format.ts';

/** One argument of a call as a person reads it: "size = 3 MiB", "policy = ACL_MEM_MALLOC_HUGE_FIRST". */
export interface RenderedArg {
  readonly name: string;
  readonly text: string;
  readonly dir: 'in' | 'out';
}

/**
 * A byte count with units when the unit form is exact ("3 MiB"), otherwise the exact count with the
 * rounded form beside it ("1,048,577 B ≈ 1 MiB"), so a log never hides a padding byte.
 */
export function sizeText(value: number, prefs: FormatPrefs): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) < 1024) return `${value} B`;
  const rounded = bytes(value, prefs);
  const back = parseSize(rounded);
  if (back.ok && back.bytes === value) return rounded;
  return `${formatInteger(value)} B ≈ ${rounded}`;
}

function enumText(cName: string, value: number, flags: boolean): string {
  const table = enumByCName(cName);
  if (table === undefined) return String(value);
  if (flags) {
    const names = flagNames(table, value);
    return names.length === 0 ? String(value) : names.join(' | ');
  }
  return table.nameOf(value) ?? `${value} (?)`;
}

function pointerText(value: unknown, prefs: FormatPrefs): string {
  if (value === null || value === '0x0' || value === 0) return 'NULL';
  if (typeof value === 'number') return address(value, prefs);
  if (typeof value !== 'string') return genericText(value, prefs);
  const parsed = parseHex(value);
  return parsed.ok ? address(parsed.value, prefs) : value;
}

function objectText(value: object, prefs: FormatPrefs): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => genericText(item, prefs)).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${key}: ${genericText(item, prefs)}`)
    .join(', ')}}`;
}

/**
 * A struct field by field in the value's own key order, enum members by name (acl-api.md §4 via
 * core's struct fields), nested structs likewise; other members, and keys the struct does not
 * have, as plain values.
 */
function structText(struct: AclStructName, value: unknown, prefs: FormatPrefs): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return genericText(value, prefs);
  const parts = Object.entries(value).map(([key, item]) => {
    const type = structField(struct, key)?.type;
    return `${key}: ${type === undefined ? genericText(item, prefs) : memberText(type, item, prefs)}`;
  });
  return `{${parts.join(', ')}}`;
}

function structArrayText(struct: AclStructName, value: unknown, prefs: FormatPrefs): string {
  if (!Array.isArray(value)) return genericText(value, prefs);
  return `[${value.map((item: unknown) => structText(struct, item, prefs)).join(', ')}]`;
}

/** A struct member (or a parameter of the same shape); sizes inside structs stay plain numbers. */
function memberText(type: FieldType, value: unknown, prefs: FormatPrefs): string {
  switch (type.t) {
    case 'enum':
      return typeof value === 'number' ? enumText(type.enum, value, false) : genericText(value, prefs);
    case 'struct':
      return structText(type.struct, value, prefs);
    case 'structArray':
      return structArrayText(type.struct, value, prefs);
    case 'int':
    case 'uint':
    case 'u64':
    case 'size':
    case 'ptr':
    case 'string':
    case 'array':
      return genericText(value, prefs);
  }
}

/** Values of unknown type: numbers as they are, text quoted, objects field by field. */
function genericText(value: unknown, prefs: FormatPrefs): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return /^0x[0-9a-f]+$/i.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return objectText(value, prefs);
  return String(value);
}

/** One value of a known C type, rendered for reading. */
export function valueText(type: ValueType, value: unknown, prefs: FormatPrefs): string {
  if (value === undefined) return '—';
  switch (type.t) {
    case 'size':
      return typeof value === 'number' ? sizeText(value, prefs) : genericText(value, prefs);
    case 'enum':
    case 'flags':
      return typeof value === 'number' ? enumText(type.enum, value, type.t === 'flags') : genericText(value, prefs);
    case 'ptr':
      return pointerText(value, prefs);
    case 'handle':
      return value === null || value === '0x0' ? 'NULL' : genericText(value, prefs);
    case 'string':
      return value === null ? 'NULL' : genericText(value, prefs);
    case 'charBuffer':
      // The text the runtime wrote into the buffer (an IPC key), quoted whole.
      return typeof value === 'string' ? JSON.stringify(value) : genericText(value, prefs);
    case 'struct':
    case 'structArray':
    case 'int':
    case 'uint':
    case 'u64':
      return memberText(type, value, prefs);
    case 'float':
      return typeof value === 'number' ? floatText(value) : genericText(value, prefs);
    case 'list':
      return genericText(value, prefs);
    case 'index':
      // aclrtMemcpyBatch's failIndex: SIZE_MAX (-1 on the wire) when no copy failed.
      return value === -1 ? 'SIZE_MAX' : genericText(value, prefs);
  }
}

/**
 * A C float as the runtime wrote it, to the precision a float holds (about 7 significant digits)
 * with trailing zeros dropped: aclrtEventElapsedTime's ms "0.0125".
 */
export function floatText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  return String(Number(value.toPrecision(7)));
}

/**
 * A size_t that counts things rather than bytes, shown as a plain number: a 2D copy's rows (CP-9)
 * and the element count of an array parameter (aclrtMemSetAccess count, pidNum).
 */
function isPlainCount(param: ParamSpec, params: readonly ParamSpec[]): boolean {
  if (param.value.t !== 'size') return false;
  if (param.name === 'height') return true;
  // A char buffer's length (the IPC key's 65): bytes, but read as a count.
  if (params.some((other) => other.value.t === 'charBuffer' && other.value.length === param.name)) return true;
  return params.some((other) => (other.value.t === 'structArray' || other.value.t === 'list') && other.value.count === param.name);
}

function paramsOf(fn: string): readonly ParamSpec[] | undefined {
  return isAclFunctionName(fn) ? ACL_FUNCTIONS[fn].params : undefined;
}

/**
 * A call's inputs (from `args`) and, when it succeeded, its outputs (from `out`), in the C
 * parameter order of the catalogue; fields the catalogue does not name follow, rendered plainly.
 */
export function renderCallArgs(call: Pick<CallEvent, 'fn' | 'args' | 'out' | 'ret'>, prefs: FormatPrefs): RenderedArg[] {
  const params = paramsOf(call.fn) ?? [];
  const rendered: RenderedArg[] = [];
  const named = new Set<string>();
  for (const param of params) {
    named.add(param.name);
    if (param.dir === 'in') {
      const value = call.args[param.name];
      const text = isPlainCount(param, params) && typeof value === 'number' ? String(value) : valueText(param.value, value, prefs);
      rendered.push({ name: param.name, text, dir: 'in' });
    } else if (call.ret === 0 && call.out !== undefined && param.name in call.out) {
      const value = call.out[param.name];
      // The only float out-value is a time in ms (aclrtEventElapsedTime, EV-6): say the unit.
      const unit = param.value.t === 'float' && param.name === 'ms' && typeof value === 'number' ? ' ms' : '';
      rendered.push({ name: param.name, text: `${valueText(param.value, value, prefs)}${unit}`, dir: 'out' });
    }
  }
  for (const [name, value] of Object.entries(call.args)) {
    if (!named.has(name)) rendered.push({ name, text: genericText(value, prefs), dir: 'in' });
  }
  if (call.ret === 0 && call.out !== undefined) {
    for (const [name, value] of Object.entries(call.out)) {
      if (!named.has(name)) rendered.push({ name, text: genericText(value, prefs), dir: 'out' });
    }
  }
  return rendered;
}

/** "aclrtMalloc(size = 3 MiB, policy = ACL_MEM_MALLOC_HUGE_FIRST) → devPtr = 0x100000000000" */
export function callSignature(call: Pick<CallEvent, 'fn' | 'args' | 'out' | 'ret'>, prefs: FormatPrefs): string {
  const args = renderCallArgs(call, prefs);
  const inputs = args.filter((arg) => arg.dir === 'in').map((arg) => `${arg.name} = ${arg.text}`);
  const outputs = args.filter((arg) => arg.dir === 'out').map((arg) => `${arg.name} = ${arg.text}`);
  const head = `${call.fn}(${inputs.join(', ')})`;
  return outputs.length === 0 ? head : `${head} → ${outputs.join(', ')}`;
}
