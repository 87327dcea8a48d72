import {
  ACL_FUNCTIONS,
  type AclEnum,
  type AclFunctionName,
  type AclStructName,
  enumByCName,
  type ListItem,
  type ParamSpec,
  type PointerTarget,
  type StructField,
  structFields,
  type ValueType,
} from '@pagelens/core';

/** The live objects a pointer or handle parameter can name (the picker lists these). */
export type PickKind = PointerTarget | 'handle' | 'stream' | 'context' | 'event' | 'share';

interface Named {
  readonly name: string;
  /** The C type as the header writes it. */
  readonly ctype: string;
}

/** One input of a generated form: the widget follows from the catalogue's value type. */
export type FieldSpec =
  | (Named & { readonly kind: 'int'; readonly min: number; readonly limit: number })
  | (Named & { readonly kind: 'size' })
  | (Named & { readonly kind: 'count'; readonly of: string })
  | (Named & { readonly kind: 'enum'; readonly table: AclEnum<string> })
  | (Named & { readonly kind: 'flags'; readonly table: AclEnum<string> })
  | (Named & { readonly kind: 'pointer'; readonly picks: readonly PickKind[] })
  | (Named & { readonly kind: 'string' })
  | (Named & { readonly kind: 'list'; readonly item: ListItem; readonly countParam: string })
  | (Named & { readonly kind: 'struct'; readonly struct: AclStructName; readonly fields: readonly FieldSpec[]; readonly nullable: boolean })
  | (Named & { readonly kind: 'structArray'; readonly struct: AclStructName; readonly item: FieldSpec; readonly countParam: string })
  | (Named & { readonly kind: 'mallocConfig'; readonly nullable: boolean });

function table(name: string): AclEnum<string> {
  const found = enumByCName(name);
  if (found === undefined) throw new Error(`the catalogue names enum ${name}, which core does not define`);
  return found;
}

const INT32 = { min: -(2 ** 31), limit: 2 ** 31 };
const UINT32 = { min: 0, limit: 2 ** 32 };
const UINT64 = { min: 0, limit: 2 ** 53 };

const STRUCT_FORMS = new Map<AclStructName, readonly FieldSpec[]>();

/**
 * A struct as a sub-form: one field per member of acl-api.md §4, from core's struct fields. Reserved
 * arrays (rsv) stay zero and are left out; a nested struct is always there (it is not a pointer).
 */
function structForm(struct: AclStructName): readonly FieldSpec[] {
  let form = STRUCT_FORMS.get(struct);
  if (form === undefined) {
    form = structFields(struct).flatMap(memberOf);
    STRUCT_FORMS.set(struct, form);
  }
  return form;
}

function memberOf({ name, ctype, type }: StructField): FieldSpec[] {
  const named = { name, ctype };
  switch (type.t) {
    case 'int':
      return [{ kind: 'int', ...named, ...INT32 }];
    case 'uint':
      return [{ kind: 'int', ...named, ...UINT32 }];
    case 'u64':
      return [{ kind: 'int', ...named, ...UINT64 }];
    case 'size':
      return [{ kind: 'size', ...named }];
    case 'enum':
      return [{ kind: 'enum', ...named, table: table(type.enum) }];
    case 'struct':
      return [{ kind: 'struct', ...named, struct: type.struct, fields: structForm(type.struct), nullable: false }];
    case 'array':
    case 'ptr':
    case 'string':
    case 'structArray':
      // rsv arrays stay zero; the other kinds are members only of aclrtMallocConfig (its own form) and output structs.
      return [];
  }
}

const ANY_BUFFER: readonly PickKind[] = ['allocation', 'mapping', 'host'];

/** Which live objects make sense for a pointer or handle parameter: its handle type, or what the catalogue says it points into. */
export function picksFor(param: ParamSpec): readonly PickKind[] {
  if (param.value.t === 'handle') {
    switch (param.value.of) {
      case 'aclrtStream':
        return ['stream'];
      case 'aclrtContext':
        return ['context'];
      case 'aclrtEvent':
        return ['event'];
      case 'aclrtDrvMemHandle':
        return ['handle'];
      case 'shareableHandle':
        return ['share'];
    }
  }
  return param.into ?? ANY_BUFFER;
}

/** The input array a size or uint32 parameter counts (aclrtMemSetAccess count, pidNum, aclrtCheckMemType size), if any. */
function countedArray(param: ParamSpec, params: readonly ParamSpec[]): ParamSpec | undefined {
  return params.find(
    (other) => other.dir === 'in' && (other.value.t === 'structArray' || other.value.t === 'list') && other.value.count === param.name,
  );
}

function fieldOf(param: ParamSpec, params: readonly ParamSpec[]): FieldSpec {
  const named = { name: param.name, ctype: param.ctype };
  const value: ValueType = param.value;
  switch (value.t) {
    case 'int':
      return { kind: 'int', ...named, ...INT32 };
    case 'uint': {
      const counted = countedArray(param, params);
      return counted === undefined ? { kind: 'int', ...named, ...UINT32 } : { kind: 'count', ...named, of: counted.name };
    }
    case 'u64':
      return { kind: 'int', ...named, ...UINT64 };
    case 'size': {
      const counted = countedArray(param, params);
      return counted === undefined ? { kind: 'size', ...named } : { kind: 'count', ...named, of: counted.name };
    }
    case 'enum':
      return { kind: 'enum', ...named, table: table(value.enum) };
    case 'flags':
      return { kind: 'flags', ...named, table: table(value.enum) };
    case 'ptr':
    case 'handle':
      return { kind: 'pointer', ...named, picks: picksFor(param) };
    case 'float':
    case 'charBuffer':
    case 'index':
      // Only out-values (aclrtEventElapsedTime's ms, an IPC key's text): never form fields, but typed like one.
      return { kind: 'string', ...named };
    case 'string':
      return { kind: 'string', ...named };
    case 'list':
      return { kind: 'list', ...named, item: value.item, countParam: value.count };
    case 'struct':
      if (value.struct === 'aclrtMallocConfig') return { kind: 'mallocConfig', ...named, nullable: true };
      return { kind: 'struct', ...named, struct: value.struct, fields: structForm(value.struct), nullable: true };
    case 'structArray': {
      const item: FieldSpec =
        value.struct === 'aclrtMallocConfig'
          ? { kind: 'mallocConfig', name: value.struct, ctype: value.struct, nullable: false }
          : {
              kind: 'struct',
              name: value.struct,
              ctype: value.struct,
              struct: value.struct,
              fields: structForm(value.struct),
              nullable: false,
            };
      return { kind: 'structArray', ...named, struct: value.struct, item, countParam: value.count };
    }
  }
}

/** The form for `fn`: one field per input parameter, in C order. */
export function formFields(fn: AclFunctionName): FieldSpec[] {
  const params: readonly ParamSpec[] = ACL_FUNCTIONS[fn].params;
  return params.filter((param) => param.dir === 'in').map((param) => fieldOf(param, params));
}

/** The out-parameters the result will show, by C name. */
export function outParams(fn: AclFunctionName): ParamSpec[] {
  const params: readonly ParamSpec[] = ACL_FUNCTIONS[fn].params;
  return params.filter((param) => param.dir === 'out');
}
