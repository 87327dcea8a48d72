import { ACL_FUNCTIONS, type AclFunctionName, aclrtMallocAttrType, type ListItem, mallocAttrMember, parseHex, toHex } from '@pagelens/core';
import { type FieldSpec, formFields } from './form-spec.ts';
import { readSize, type SizeProblem } from './size-field.ts';

/**
 * What a person typed or chose, mirroring the argument tree: text for scalars (as typed, so a
 * half-written "3 Mi" survives), null for a NULL pointer, arrays and objects for C arrays and structs.
 */
export type FormValue = string | null | readonly FormValue[] | FormObject;
export interface FormObject {
  readonly [key: string]: FormValue;
}

export type FieldProblem =
  | { readonly code: 'size'; readonly size: SizeProblem }
  | { readonly code: 'int'; readonly min: number; readonly limit: number }
  | { readonly code: 'pointer' }
  | { readonly code: 'list'; readonly item: ListItem };

export interface FieldError {
  /** "prop.location.id", "desc[0].flags". */
  readonly path: string;
  readonly problem: FieldProblem;
}

export type BuiltArgs = { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly error: FieldError };

export interface FormContext {
  /** The device the defaults name (deviceId, location.id). */
  readonly device: number;
}

const ATTR = aclrtMallocAttrType.byName;

function isObject(value: FormValue | undefined): value is FormObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

function isList(value: FormValue | undefined): value is readonly FormValue[] {
  return Array.isArray(value);
}

function text(value: FormValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** Enum defaults that make a first call succeed (VM-3 memAttr, VM-7 READWRITE, a DEVICE location). */
function enumDefault(field: Extract<FieldSpec, { kind: 'enum' }>): number {
  const byTable: Readonly<Record<string, string>> = {
    aclrtMemLocationType: 'ACL_MEM_LOCATION_TYPE_DEVICE',
    aclrtMemAccessFlags: 'ACL_RT_MEM_ACCESS_FLAGS_READWRITE',
    aclrtMemcpyKind: 'ACL_MEMCPY_HOST_TO_DEVICE',
  };
  const wanted = field.name === 'memAttr' ? 'ACL_HBM_MEM_HUGE' : field.name === 'attr' ? 'ACL_HBM_MEM' : byTable[field.table.cName];
  const value = wanted === undefined ? undefined : field.table.valueOf(wanted);
  return value ?? field.table.byName[field.table.names[0] ?? ''] ?? 0;
}

function sizeDefault(fn: AclFunctionName, name: string): string {
  if (name === 'alignment' || name === 'offset') return '0';
  // A 2D copy's rows, not bytes (CP-9): one row of the default width.
  if (name === 'height') return '1';
  // IP-1: the key buffer's length is fixed at 65 (64 characters and a NUL).
  if (name === 'len') return '65';
  if (ACL_FUNCTIONS[fn].category === 'vmm') return '2 MiB';
  return name === 'size' ? '1 MiB' : '4 KiB';
}

function defaultOf(fn: AclFunctionName, field: FieldSpec, context: FormContext): FormValue {
  switch (field.kind) {
    case 'int':
      return field.name === 'deviceId' || field.name === 'peerDeviceId' || field.name === 'id' ? String(context.device) : '0';
    case 'size':
      return sizeDefault(fn, field.name);
    case 'count':
    case 'list':
      return '';
    case 'enum':
      return String(enumDefault(field));
    case 'flags':
      return String(
        field.table.cName === 'ACL_HOST_REG'
          ? ((field.table.valueOf('ACL_HOST_REG_PINNED') ?? 0) | (field.table.valueOf('ACL_HOST_REG_MAPPED') ?? 0)) >>> 0
          : 0,
      );
    case 'pointer':
      return '0x0';
    case 'string':
    case 'mallocConfig':
      return null;
    case 'struct':
      return Object.fromEntries(field.fields.map((member) => [member.name, defaultOf(fn, member, context)]));
    case 'structArray':
      return [defaultOf(fn, field.item, context)];
  }
}

/** A filled-in form for `fn` whose arguments the runtime accepts in shape (values may still be refused by rules). */
export function defaultValues(fn: AclFunctionName, context: FormContext): FormObject {
  return Object.fromEntries(formFields(fn).map((field) => [field.name, defaultOf(fn, field, context)]));
}

/** An integer typed in decimal or 0x hex, inside [min, limit). */
export function readInt(input: string, min: number, limit: number): number | undefined {
  const trimmed = input.trim().replace(/_/g, '');
  let value: number;
  if (/^-?\d+$/.test(trimmed)) value = Number(trimmed);
  else if (/^0x[0-9a-f]+$/i.test(trimmed)) value = Number.parseInt(trimmed.slice(2), 16);
  else return undefined;
  return Number.isSafeInteger(value) && value >= min && value < limit ? value : undefined;
}

/** A pointer typed as 0x…, or NULL. */
/** One element of a comma-separated list field: an int32, a size ("2 MiB") or a pointer. */
function readListItem(item: ListItem, part: string): number | string | undefined {
  if (item === 'ptr') return readPointer(part);
  if (item === 'int') return readInt(part, -(2 ** 31), 2 ** 31);
  const size = readSize(part);
  return size.ok ? size.bytes : undefined;
}

export function readPointer(input: string): string | undefined {
  const trimmed = input.trim();
  if (trimmed === 'NULL' || trimmed === '0' || trimmed === 'nullptr') return '0x0';
  const parsed = parseHex(trimmed);
  return parsed.ok ? toHex(parsed.value) : undefined;
}

type Built = { ok: true; value: unknown } | { ok: false; error: FieldError };

const fail = (path: string, problem: FieldProblem): Built => ({ ok: false, error: { path, problem } });

function buildConfig(path: string, value: FormValue | undefined): Built {
  if (!isObject(value)) return { ok: true, value: null };
  const attrs: unknown[] = [];
  for (const [index, item] of (isList(value.attrs) ? value.attrs : []).entries()) {
    if (!isObject(item)) continue;
    const itemPath = `${path}.attrs[${index}]`;
    const attr = readInt(text(item.attr), 0, 2 ** 32);
    if (attr === undefined) return fail(`${itemPath}.attr`, { code: 'int', min: 0, limit: 2 ** 32 });
    const member = mallocAttrMember(attr) ?? 'vaFlag';
    if (attr === ATTR.ACL_RT_MEM_ATTR_RSV) {
      attrs.push({ attr, value: {} });
      continue;
    }
    const number = readInt(text(item.value), 0, 2 ** 32);
    if (number === undefined) return fail(`${itemPath}.value.${member}`, { code: 'int', min: 0, limit: 2 ** 32 });
    attrs.push({ attr, value: { [member]: number } });
  }
  return { ok: true, value: { attrs, numAttrs: attrs.length } };
}

function build(field: FieldSpec, value: FormValue | undefined, path: string, siblings: FormObject): Built {
  switch (field.kind) {
    case 'int': {
      const number = readInt(text(value), field.min, field.limit);
      return number === undefined ? fail(path, { code: 'int', min: field.min, limit: field.limit }) : { ok: true, value: number };
    }
    case 'size': {
      const size = readSize(text(value));
      return size.ok ? { ok: true, value: size.bytes } : fail(path, { code: 'size', size: size.problem });
    }
    case 'count': {
      if (text(value).trim() === '') {
        const counted = siblings[field.of];
        const length = isList(counted)
          ? counted.length
          : text(counted)
              .split(',')
              .filter((part) => part.trim() !== '').length;
        return { ok: true, value: length };
      }
      const number = readInt(text(value), 0, 2 ** 53);
      return number === undefined ? fail(path, { code: 'int', min: 0, limit: 2 ** 53 }) : { ok: true, value: number };
    }
    case 'enum':
    case 'flags': {
      const number = readInt(text(value), 0, 2 ** 32);
      return number === undefined ? fail(path, { code: 'int', min: 0, limit: 2 ** 32 }) : { ok: true, value: number };
    }
    case 'pointer': {
      const pointer = readPointer(text(value));
      return pointer === undefined ? fail(path, { code: 'pointer' }) : { ok: true, value: pointer };
    }
    case 'string':
      return { ok: true, value: typeof value === 'string' ? value : null };
    case 'list': {
      const parts = text(value)
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      const items = parts.map((part) => readListItem(field.item, part));
      if (items.some((item) => item === undefined)) return fail(path, { code: 'list', item: field.item });
      return { ok: true, value: items };
    }
    case 'mallocConfig':
      return buildConfig(path, value);
    case 'struct': {
      if (!isObject(value)) return { ok: true, value: null };
      const built: Record<string, unknown> = {};
      for (const member of field.fields) {
        const result = build(member, value[member.name], `${path}.${member.name}`, value);
        if (!result.ok) return result;
        built[member.name] = result.value;
      }
      return { ok: true, value: built };
    }
    case 'structArray': {
      const items: unknown[] = [];
      for (const [index, item] of (isList(value) ? value : []).entries()) {
        const result = build(field.item, item, `${path}[${index}]`, siblings);
        if (!result.ok) return result;
        items.push(result.value);
      }
      return { ok: true, value: items };
    }
  }
}

/** The call's arguments, typed as the runtime wants them (numbers, "0x…", structs), or the first field at fault. */
export function buildArgs(fn: AclFunctionName, values: FormObject): BuiltArgs {
  const args: Record<string, unknown> = {};
  for (const field of formFields(fn)) {
    const result = build(field, values[field.name], field.name, values);
    if (!result.ok) return { ok: false, error: result.error };
    args[field.name] = result.value;
  }
  return { ok: true, args };
}

/** Replaces the value at a dotted/indexed path ("prop.location.id", "desc.0.flags") without mutating. */
export function setAt(values: FormValue, path: readonly (string | number)[], next: FormValue): FormValue {
  const [head, ...rest] = path;
  if (head === undefined) return next;
  if (typeof head === 'number') {
    const list = isList(values) ? [...values] : [];
    list[head] = setAt(list[head] ?? null, rest, next);
    return list;
  }
  const object: FormObject = isObject(values) ? values : {};
  return { ...object, [head]: setAt(object[head] ?? null, rest, next) };
}

/** `setAt` on a whole form. */
export function setField(values: FormObject, path: readonly (string | number)[], next: FormValue): FormObject {
  const updated = setAt(values, path, next);
  return isObject(updated) ? updated : values;
}

/** A byte count as a person would type it: "2 MiB" when a binary unit divides it exactly, else the bytes. */
export function sizeText(bytes: number): string {
  const units: readonly [string, number][] = [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ];
  for (const [unit, size] of units) if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return String(bytes);
}

/**
 * Size parameters that follow from a picked object, so picking a mapping for aclrtMemSetAccess
 * also fills its size (VM-7 wants exactly the mapped range).
 */
export function sizesFromPick(fn: string, param: string, size: number): Record<string, string> {
  const text = sizeText(size);
  if ((fn === 'aclrtMapMem' && param === 'handle') || (fn === 'aclrtMemSetAccess' && param === 'virPtr')) return { size: text };
  if ((fn === 'aclrtHostRegister' || fn === 'aclrtHostRegisterV2') && param === 'ptr') return { size: text };
  if (fn === 'aclrtMemset' && param === 'devPtr') return { maxCount: text, count: text };
  // CP-8: the async memset's bounds follow the buffer like aclrtMemset's; CP-10: the cache calls cover the whole buffer.
  if (fn === 'aclrtMemsetAsync' && param === 'devPtr') return { maxCount: text, count: text };
  if ((fn === 'aclrtMemFlush' || fn === 'aclrtMemInvalidate') && param === 'devPtr') return { size: text };
  if ((fn === 'aclrtMemcpy' || fn === 'aclrtMemcpyAsync') && param === 'dst') return { destMax: text };
  // IP-1: a key for the whole allocation.
  if (fn === 'aclrtIpcMemGetExportKey' && param === 'devPtr') return { size: text };
  return {};
}
