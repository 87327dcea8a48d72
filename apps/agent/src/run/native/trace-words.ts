import { ACL_FUNCTIONS, type AclFunctionName, type AclStructName, type ParamSpec } from '@pagelens/core';
import { fieldShapes } from './field-shapes.ts';

/*
 * What one trace record's words hold, read from the catalogue alone: first one word per
 * parameter in catalogue order, then the integer fields of each struct input (flattened, in
 * STRUCT_LAYOUTS order) while they fit. The C writer (trace-gen.ts) and the agent's reader
 * (trace-events.ts) both walk this layout, so the two sides cannot disagree.
 */

/** The words a trace record carries (PT_WORDS in pt_core.h). */
export const TRACE_WORDS = 12;

/** One integer field of a struct input: its C access path below the pointer and how to read it back. */
export interface StructWord {
  readonly param: string;
  readonly path: readonly string[];
  readonly signed: boolean;
}

/** A struct's integer fields by path, or undefined when it holds anything else (arrays, text, unions, pointers). */
function intFields(struct: AclStructName, prefix: readonly string[]): StructWord[] | undefined {
  const words: StructWord[] = [];
  for (const shape of fieldShapes(struct)) {
    if (shape.kind === 'int') words.push({ param: '', path: [...prefix, shape.name], signed: shape.signed });
    else if (shape.kind === 'struct') {
      const inner = intFields(shape.struct, [...prefix, shape.name]);
      if (inner === undefined) return undefined;
      words.push(...inner);
    } else return undefined;
  }
  return words;
}

function structOf(param: ParamSpec): AclStructName | undefined {
  return param.dir === 'in' && param.value.t === 'struct' ? param.value.struct : undefined;
}

const LAYOUTS = new Map<AclFunctionName, readonly StructWord[]>();

/** The struct fields `fn`'s records carry after its parameters; a struct that does not fit is left out whole. */
export function structWords(fn: AclFunctionName): readonly StructWord[] {
  // Read for every observed call: worked out once per function.
  const known = LAYOUTS.get(fn);
  if (known !== undefined) return known;
  const words = layout(fn);
  LAYOUTS.set(fn, words);
  return words;
}

function layout(fn: AclFunctionName): readonly StructWord[] {
  const params = ACL_FUNCTIONS[fn].params;
  const words: StructWord[] = [];
  for (const param of params) {
    const struct = structOf(param);
    if (struct === undefined) continue;
    const fields = intFields(struct, []);
    if (fields === undefined || params.length + words.length + fields.length > TRACE_WORDS) continue;
    for (const field of fields) words.push({ ...field, param: param.name });
  }
  return words;
}
