import { ACL_FUNCTIONS, type AclFunctionName, type AclStructName, isObject, type ValueType } from '@pagelens/core';
import { fieldShapes } from './native/field-shapes.ts';

/*
 * The agent's answer to one interposed call, as the generated C stubs read it (stub-gen.ts): the
 * aclError, then one space-separated token per out-parameter in catalogue order. "-" is a value
 * the call did not write (C leaves the caller's variable alone); text is hex-encoded bytes ("=" is
 * the empty string); a struct is "s" then its fields in field-shapes.ts order; an array of structs
 * is its length then each struct.
 */

function record(value: unknown): Readonly<Record<string, unknown>> {
  return isObject(value) ? value : {};
}

export function hexText(text: string): string {
  if (text === '') return '=';
  return Buffer.from(text, 'utf8').toString('hex');
}

function integer(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(Math.trunc(value)) : '0';
}

function flatten(struct: AclStructName, value: unknown, tokens: string[]): void {
  const fields = record(value);
  for (const shape of fieldShapes(struct)) {
    const item = fields[shape.name];
    switch (shape.kind) {
      case 'int':
        tokens.push(integer(item));
        break;
      case 'ints':
        for (let i = 0; i < shape.count; i += 1) tokens.push(integer(Array.isArray(item) ? item[i] : 0));
        break;
      case 'text':
        tokens.push(hexText(typeof item === 'string' ? item : ''));
        break;
      case 'struct':
        flatten(shape.struct, item, tokens);
        break;
      default:
        break;
    }
  }
}

function token(type: ValueType, value: unknown, tokens: string[]): void {
  if (value === undefined) {
    tokens.push('-');
    return;
  }
  switch (type.t) {
    case 'ptr':
    case 'handle':
      tokens.push(typeof value === 'string' ? value : '-');
      return;
    case 'float':
      tokens.push(typeof value === 'number' ? String(value) : '-');
      return;
    case 'string':
    case 'charBuffer':
      tokens.push(typeof value === 'string' ? hexText(value) : '-');
      return;
    case 'struct':
      tokens.push('s');
      flatten(type.struct, value, tokens);
      return;
    case 'structArray': {
      const items = Array.isArray(value) ? value : [];
      tokens.push(String(items.length));
      for (const item of items) flatten(type.struct, item, tokens);
      return;
    }
    case 'list':
      tokens.push('-');
      return;
    default:
      tokens.push(integer(value));
  }
}

/** The reply line (without its newline) for `fn`'s result. */
export function encodeReply(fn: AclFunctionName, ret: number, out: Readonly<Record<string, unknown>>): string {
  const tokens = [String(ret)];
  for (const param of ACL_FUNCTIONS[fn].params) if (param.dir === 'out') token(param.value, out[param.name], tokens);
  return tokens.join(' ');
}
