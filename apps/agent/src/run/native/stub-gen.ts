import {
  ACL_FUNCTION_NAMES,
  ACL_FUNCTIONS,
  type AclFunctionName,
  type AclStructName,
  type ParamSpec,
  STRUCT_LAYOUTS,
  type ValueType,
} from '@pagelens/core';
import { EXTRA_FUNCTIONS } from './extra-functions.ts';
import { fieldShapes } from './field-shapes.ts';

/*
 * The interposer's exported ACL functions, written as C from the catalogue: each catalogue
 * function marshals its inputs into one JSON line for the agent and writes back the out-values
 * it answers (the order of ACL_FUNCTIONS' params, the shapes of field-shapes.ts); each function
 * of extra-functions.ts answers 207000 and is reported once. Generated at build time (build.ts).
 */

/** Written by hand in pl_host.c: pinned host memory is real memory of the program (HM-2). */
export const HANDWRITTEN: ReadonlySet<AclFunctionName> = new Set(['aclrtMallocHost', 'aclrtMallocHostWithCfg', 'aclrtFreeHost']);

/**
 * What runs in the program after the simulator accepted a call: the data movement of pl_data.c.
 * Any function of the aclrtMalloc family (it takes an aclrtMemMallocPolicy) records its size.
 */
const POST_HOOKS: Partial<Record<AclFunctionName, string>> = {
  aclrtFree: 'pl_post_free(devPtr);',
  aclrtMemcpy: 'pl_post_memcpy(dst, src, count);',
  aclrtMemcpyAsync: 'pl_post_memcpy(dst, src, count);',
  aclrtMemset: 'pl_post_memset(devPtr, value, count);',
  aclrtMemsetAsync: 'pl_post_memset(devPtr, value, count);',
  aclrtMemcpy2d: 'pl_post_memcpy2d(dst, dpitch, src, spitch, width, height);',
  aclrtMemcpy2dAsync: 'pl_post_memcpy2d(dst, dpitch, src, spitch, width, height);',
  aclrtMemcpyBatch: 'for (size_t i = 0; i < numBatches; i++) pl_post_memcpy(dsts[i], srcs[i], sizes[i]);',
  aclrtMemcpyBatchAsync: 'for (size_t i = 0; i < numBatches; i++) pl_post_memcpy(dsts[i], srcs[i], sizes[i]);',
  aclrtValueWrite: 'pl_post_value_write(devAddr, value);',
};

function postHook(name: AclFunctionName): string | undefined {
  const spec = ACL_FUNCTIONS[name];
  const isMalloc = spec.params.some((param) => param.value.t === 'enum' && param.value.enum === 'aclrtMemMallocPolicy');
  return isMalloc ? 'if (devPtr != NULL) pl_post_malloc(*devPtr, size);' : POST_HOOKS[name];
}

/** `void**` + `devPtr` → `void **devPtr`. */
export function declare(ctype: string, name: string): string {
  const type = ctype.replace(/\s*\*\s*/g, '*').trim();
  const stars = /\*+$/.exec(type)?.[0] ?? '';
  const base = type.slice(0, type.length - stars.length).trim();
  return stars === '' ? `${base} ${name}` : `${base} ${stars}${name}`;
}

/** The type an out-pointer points at: `int32_t*` → `int32_t`. */
function pointee(ctype: string): string {
  return ctype
    .replace(/\s*\*\s*$/, '')
    .replace(/^const\s+/, '')
    .trim();
}

function structWriter(struct: AclStructName): string {
  const lines = [`static __attribute__((unused)) void pl_w_${struct}(pl_msg *m, const ${struct} *v) {`, "  pl_open(m, '{');"];
  for (const shape of fieldShapes(struct)) {
    const f = `v->${shape.name}`;
    switch (shape.kind) {
      case 'int':
        lines.push(`  pl_key(m, "${shape.name}"); ${shape.signed ? `pl_i64(m, (int64_t)${f})` : `pl_u64(m, (uint64_t)${f})`};`);
        break;
      case 'ints':
        lines.push(
          `  pl_key(m, "${shape.name}"); pl_open(m, '['); for (int i = 0; i < ${shape.count}; i++) { pl_comma(m); pl_u64(m, (uint64_t)${f}[i]); } pl_close(m, ']');`,
        );
        break;
      case 'text':
        lines.push(
          `  { char t[${shape.count + 1}]; memcpy(t, ${f}, ${shape.count}); t[${shape.count}] = 0; pl_key(m, "${shape.name}"); pl_str(m, t); }`,
        );
        break;
      case 'struct':
        lines.push(`  pl_key(m, "${shape.name}"); pl_w_${shape.struct}(m, &${f});`);
        break;
      case 'union': {
        // Every member is sent: the runtime reads the one the enclosing struct selects.
        const members = fieldShapes(shape.struct).filter((member) => member.kind === 'int');
        lines.push(`  pl_key(m, "${shape.name}"); pl_open(m, '{');`);
        for (const member of members) lines.push(`  pl_key(m, "${member.name}"); pl_u64(m, (uint64_t)${f}.${member.name});`);
        lines.push("  pl_close(m, '}');");
        break;
      }
      case 'array':
        lines.push(
          `  pl_key(m, "${shape.name}"); pl_open(m, '['); if (${f} != NULL) for (size_t i = 0; i < (size_t)v->${shape.countField} && i < PL_MAX_LIST; i++) { pl_comma(m); pl_w_${shape.struct}(m, &${f}[i]); } pl_close(m, ']');`,
        );
        break;
      case 'skip':
        break;
    }
  }
  lines.push("  pl_close(m, '}');", '}');
  return lines.join('\n');
}

function structReader(struct: AclStructName): string {
  const lines = [`static __attribute__((unused)) void pl_r_${struct}(pl_reply *r, ${struct} *v) {`, '  int64_t x = 0; (void)x;'];
  for (const shape of fieldShapes(struct)) {
    const f = `v->${shape.name}`;
    switch (shape.kind) {
      case 'int':
        lines.push(`  if (pl_next_i64(r, &x)) ${f} = (__typeof__(${f}))x;`);
        break;
      case 'ints':
        lines.push(`  for (int i = 0; i < ${shape.count}; i++) if (pl_next_i64(r, &x)) ${f}[i] = (__typeof__(${f}[i]))x;`);
        break;
      case 'text':
        lines.push(`  pl_next_text(r, ${f}, ${shape.count});`);
        break;
      case 'struct':
        lines.push(`  pl_r_${shape.struct}(r, &${f});`);
        break;
      default:
        break;
    }
  }
  lines.push('}');
  return lines.join('\n');
}

function writeInput(param: ParamSpec): string {
  const name = param.name;
  const value: ValueType = param.value;
  const key = `pl_key(&m, "${name}"); `;
  switch (value.t) {
    case 'int':
    case 'enum':
      return `${key}pl_i64(&m, (int64_t)${name});`;
    case 'uint':
    case 'size':
    case 'u64':
    case 'flags':
      return `${key}pl_u64(&m, (uint64_t)${name});`;
    case 'ptr':
    case 'handle':
      return `${key}pl_ptr(&m, (const void *)(uintptr_t)${name});`;
    case 'string':
      return `${key}pl_str(&m, ${name});`;
    case 'struct':
      return `${key}if (${name} == NULL) { pl_raw(&m, "null"); m.first = 0; } else pl_w_${value.struct}(&m, ${name});`;
    case 'structArray':
      return `${key}pl_open(&m, '['); if (${name} != NULL) for (size_t i = 0; i < (size_t)${value.count} && i < PL_MAX_LIST; i++) { pl_comma(&m); pl_w_${value.struct}(&m, &${name}[i]); } pl_close(&m, ']');`;
    case 'list': {
      const item =
        value.item === 'ptr'
          ? `pl_ptr(&m, (const void *)(uintptr_t)${name}[i])`
          : value.item === 'int'
            ? `pl_i64(&m, (int64_t)${name}[i])`
            : `pl_u64(&m, (uint64_t)${name}[i])`;
      return `${key}pl_open(&m, '['); if (${name} != NULL) for (size_t i = 0; i < (size_t)${value.count} && i < PL_MAX_LIST; i++) { pl_comma(&m); ${item}; } pl_close(&m, ']');`;
    }
    case 'float':
    case 'index':
    case 'charBuffer':
      throw new Error(`${name}: a ${value.t} is an out-value, not an input`);
  }
}

function readOutput(param: ParamSpec): string {
  const name = param.name;
  const value = param.value;
  const target = pointee(param.ctype);
  switch (value.t) {
    case 'int':
    case 'uint':
    case 'size':
    case 'u64':
    case 'enum':
    case 'flags':
    case 'index':
      return `{ int64_t x; if (pl_next_i64(&r, &x)) *${name} = (${target})x; }`;
    case 'ptr':
    case 'handle':
      return `{ uint64_t x; if (pl_next_u64(&r, &x)) *${name} = (${target})(uintptr_t)x; }`;
    case 'float':
      return `{ float x; if (pl_next_f32(&r, &x)) *${name} = x; }`;
    case 'charBuffer':
      return `pl_next_text(&r, ${name}, (size_t)${value.length});`;
    case 'struct':
      return `{ int64_t present; if (pl_next_i64(&r, &present)) pl_r_${value.struct}(&r, ${name}); }`;
    case 'structArray':
      return `{ int64_t n; if (pl_next_i64(&r, &n)) for (int64_t i = 0; i < n; i++) { ${value.struct} item; memset(&item, 0, sizeof item); pl_r_${value.struct}(&r, &item); if ((size_t)i < (size_t)${value.count}) ${name}[i] = item; } }`;
    case 'list':
    case 'string':
      throw new Error(`${name}: an out-value of type ${value.t} is not supported`);
  }
}

function stub(name: AclFunctionName): string {
  const spec = ACL_FUNCTIONS[name];
  const returnsText = spec.returns === 'const char*';
  const params = returnsText ? [] : spec.params;
  const signature = `${declare(spec.returns, name)}(${params.length === 0 ? 'void' : params.map((p) => declare(p.ctype, p.name)).join(', ')})`;
  const lines = [`${signature} {`, '  pl_msg m;', '  pl_reply r;', `  pl_begin(&m, "${name}", __builtin_return_address(0));`];
  for (const param of params) if (param.dir === 'in') lines.push(`  ${writeInput(param)}`);
  const outs = params.filter((param) => param.dir === 'out');
  // A NULL out-pointer is the caller's error (100000 at the acl layer); the agent records it.
  for (const out of outs) lines.push(`  if (${out.name} == NULL) { pl_key(&m, "__nullOut"); pl_str(&m, "${out.name}"); }`);
  if (returnsText) {
    lines.push('  if (pl_roundtrip(&m, &r) != 0) return NULL;', '  return pl_next_text_tls(&r, 0);', '}');
    return lines.join('\n');
  }
  lines.push('  if (pl_roundtrip(&m, &r) != 0) return r.ret;');
  for (const out of outs) lines.push(`  if (${out.name} != NULL) ${readOutput(out)}`);
  const hook = postHook(name);
  if (hook !== undefined) lines.push(`  if (r.ret == 0) { ${hook} }`);
  lines.push('  return r.ret;', '}');
  return lines.join('\n');
}

function extraStub(extra: (typeof EXTRA_FUNCTIONS)[number]): string {
  const list = extra.params.map((p) => declare(p.ctype, p.name)).join(', ');
  const unused = extra.params.map((p) => `(void)${p.name};`).join(' ');
  return `aclError ${extra.name}(${list || 'void'}) { ${unused} return pl_not_modeled("${extra.name}", __builtin_return_address(0)); }`;
}

/** pl_stubs.c: struct writers and readers, one stub per catalogue ACL function, the extras. */
export function generateStubs(): string {
  const names = ACL_FUNCTION_NAMES.filter((name) => ACL_FUNCTIONS[name].acl && !HANDWRITTEN.has(name));
  return [
    '/* Generated by apps/agent/src/run/native/stub-gen.ts from the PageLens ACL catalogue. Do not edit. */',
    '#include <string.h>',
    '#include "pl_core.h"',
    '#include "pl_structs.h"',
    '',
    ...names.map(stub),
    '',
    ...EXTRA_FUNCTIONS.map(extraStub),
    '',
  ].join('\n\n');
}

/** pl_structs.h: the struct writers and readers, shared by the stubs and pl_host.c. */
export function generateStructCodecs(): string {
  const structs = Object.keys(STRUCT_LAYOUTS).filter((name): name is AclStructName => Object.hasOwn(STRUCT_LAYOUTS, name));
  return [
    '/* Generated by apps/agent/src/run/native/stub-gen.ts from STRUCT_LAYOUTS. Do not edit. */',
    '#ifndef PAGELENS_PL_STRUCTS_H',
    '#define PAGELENS_PL_STRUCTS_H',
    '#include <string.h>',
    '#include "pl_core.h"',
    ...structs.map(structWriter),
    ...structs.map(structReader),
    '#endif',
    '',
  ].join('\n\n');
}
