import {
  ACL_FUNCTIONS,
  type AclFunctionName,
  aclrtMallocAttrType,
  flagNames,
  isObject,
  mallocAttrMember,
  type ParamSpec,
} from '@pagelens/core';
import { type FieldSpec, formFields } from './form-spec.ts';

/** `aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy)`, as the header declares it. */
export function cSignature(fn: AclFunctionName, multiline = false): string {
  const spec = ACL_FUNCTIONS[fn];
  const params: readonly ParamSpec[] = spec.params;
  // aclrtGetSocName and aclGetRecentErrMsg return their one "out" value; malloc returns its pointer.
  const shown = spec.returns === 'aclError' || spec.returns === 'void' ? params : params.filter((param) => param.dir === 'in');
  const list = shown.map((param) => `${param.ctype} ${param.name}`);
  // A narrow panel shows one parameter per line, as headers often do.
  if (multiline && list.length > 0) return `${spec.returns} ${fn}(\n  ${list.join(',\n  ')})`;
  return `${spec.returns} ${fn}(${list.join(', ') || 'void'})`;
}

function scalar(field: FieldSpec, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (field.kind) {
    case 'enum':
      return typeof value === 'number' ? (field.table.nameOf(value) ?? String(value)) : String(value);
    case 'flags': {
      if (typeof value !== 'number') return String(value);
      const names = flagNames(field.table, value);
      return names.length === 0 ? '0' : names.join(' | ');
    }
    case 'pointer':
      return value === '0x0' ? 'NULL' : String(value);
    case 'string':
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

function initializer(field: FieldSpec, value: unknown): string {
  if (field.kind === 'struct' && isObject(value)) {
    return `{ ${field.fields.map((member) => `.${member.name} = ${initializer(member, value[member.name])}`).join(', ')} }`;
  }
  return scalar(field, value);
}

function configLines(name: string, value: unknown): string[] {
  if (!isObject(value) || !Array.isArray(value.attrs)) return [];
  const attrs: unknown[] = value.attrs;
  const items = attrs.map((item) => {
    if (!isObject(item) || typeof item.attr !== 'number') return '{ 0 }';
    const attrName = aclrtMallocAttrType.nameOf(item.attr) ?? String(item.attr);
    const member = mallocAttrMember(item.attr);
    const memberValue = member !== undefined && isObject(item.value) ? item.value[member] : undefined;
    return member === undefined ? `{ .attr = ${attrName} }` : `{ .attr = ${attrName}, .value.${member} = ${String(memberValue)} }`;
  });
  const attrsName = `${name}Attrs`;
  return [
    `aclrtMallocAttribute ${attrsName}[] = { ${items.join(', ')} };`,
    `aclrtMallocConfig ${name} = { ${attrsName}, ${attrs.length} };`,
  ];
}

/**
 * The C a programmer would write for this call: declarations for struct and array arguments,
 * then the call with `&out` for out-parameters. Enums and flags print as their identifiers.
 */
export function cCallText(fn: AclFunctionName, args: Readonly<Record<string, unknown>>): string {
  const spec = ACL_FUNCTIONS[fn];
  const params: readonly ParamSpec[] = spec.params;
  const fields = new Map(formFields(fn).map((field) => [field.name, field]));
  const lines: string[] = [];
  const parts: string[] = [];
  const returned = spec.returns === 'aclError' || spec.returns === 'void' ? undefined : params.find((param) => param.dir === 'out');
  for (const param of params) {
    if (param.dir === 'out') {
      if (param !== returned) parts.push(`&${param.name}`);
      continue;
    }
    const field = fields.get(param.name);
    const value = args[param.name];
    if (field === undefined) continue;
    if (field.kind === 'struct') {
      if (value === null) parts.push('NULL');
      else {
        lines.push(`${field.struct} ${param.name} = ${initializer(field, value)};`);
        parts.push(`&${param.name}`);
      }
    } else if (field.kind === 'mallocConfig') {
      const config = configLines(param.name, value);
      lines.push(...config);
      parts.push(config.length === 0 ? 'NULL' : `&${param.name}`);
    } else if (field.kind === 'structArray') {
      const items = Array.isArray(value) ? value : [];
      lines.push(`${field.struct} ${param.name}[${items.length}] = { ${items.map((item) => initializer(field.item, item)).join(', ')} };`);
      parts.push(param.name);
    } else if (field.kind === 'list') {
      const items = Array.isArray(value) ? value : [];
      const element = { int: 'int32_t ', size: 'size_t ', ptr: 'void *' }[field.item];
      const written = field.item === 'ptr' ? items.map((item) => `(void *)${String(item)}`) : items;
      lines.push(`${element}${param.name}[${items.length}] = { ${written.join(', ')} };`);
      parts.push(param.name);
    } else {
      parts.push(scalar(field, value));
    }
  }
  const call = `${fn}(${parts.join(', ')});`;
  lines.push(returned === undefined ? call : `${returned.ctype.replace('*', ' *')}${returned.name} = ${call}`);
  return lines.join('\n');
}
