import {
  ACL_FUNCTIONS,
  type AclEnum,
  type AclFunctionName,
  ALL_ENUMS,
  type ParamSpec,
  type StructName,
  type ValueType,
} from '@pagelens/core';

/** The live objects a pointer or handle parameter can name (the picker lists these). */
export type PickKind =
  | 'allocation'
  | 'mapping'
  | 'reservation'
  | 'host'
  | 'pinnedHost'
  | 'pageableHost'
  | 'registered'
  | 'handle'
  | 'stream'
  | 'share';

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
  | (Named & { readonly kind: 'intArray'; readonly countParam: string })
  | (Named & { readonly kind: 'struct'; readonly struct: StructName; readonly fields: readonly FieldSpec[]; readonly nullable: boolean })
  | (Named & { readonly kind: 'structArray'; readonly struct: StructName; readonly item: FieldSpec; readonly countParam: string })
  | (Named & { readonly kind: 'mallocConfig'; readonly nullable: boolean });

const ENUMS = new Map<string, AclEnum<string>>(ALL_ENUMS.map((table) => [table.cName, table]));

function table(name: string): AclEnum<string> {
  const found = ENUMS.get(name);
  if (found === undefined) throw new Error(`the catalogue names enum ${name}, which core does not define`);
  return found;
}

const INT32 = { min: -(2 ** 31), limit: 2 ** 31 };
const UINT32 = { min: 0, limit: 2 ** 32 };
const UINT64 = { min: 0, limit: 2 ** 53 };

const LOCATION_FIELDS: readonly FieldSpec[] = [
  { kind: 'int', name: 'id', ctype: 'uint32_t', ...UINT32 },
  { kind: 'enum', name: 'type', ctype: 'aclrtMemLocationType', table: table('aclrtMemLocationType') },
];

/** The input structs of acl-api.md §4 as sub-forms (rsv bytes stay zero and are left out). */
const STRUCT_FORMS: Readonly<Record<Exclude<StructName, 'aclrtMallocConfig'>, readonly FieldSpec[]>> = {
  aclrtMemLocation: LOCATION_FIELDS,
  aclrtPhysicalMemProp: [
    { kind: 'enum', name: 'handleType', ctype: 'aclrtMemHandleType', table: table('aclrtMemHandleType') },
    { kind: 'enum', name: 'allocationType', ctype: 'aclrtMemAllocationType', table: table('aclrtMemAllocationType') },
    { kind: 'enum', name: 'memAttr', ctype: 'aclrtMemAttr', table: table('aclrtMemAttr') },
    { kind: 'struct', name: 'location', ctype: 'aclrtMemLocation', struct: 'aclrtMemLocation', fields: LOCATION_FIELDS, nullable: false },
    { kind: 'int', name: 'reserve', ctype: 'uint64_t', ...UINT64 },
  ],
  aclrtMemAccessDesc: [
    { kind: 'enum', name: 'flags', ctype: 'aclrtMemAccessFlags', table: table('aclrtMemAccessFlags') },
    { kind: 'struct', name: 'location', ctype: 'aclrtMemLocation', struct: 'aclrtMemLocation', fields: LOCATION_FIELDS, nullable: false },
  ],
  aclrtPtrAttributes: [],
};

/** Which live objects make sense for a pointer or handle parameter of a function. */
export function picksFor(fn: AclFunctionName, param: ParamSpec): readonly PickKind[] {
  if (param.value.t === 'handle') {
    switch (param.value.of) {
      case 'aclrtStream':
        return ['stream'];
      case 'aclrtDrvMemHandle':
        return ['handle'];
      case 'shareableHandle':
        return ['share'];
    }
  }
  switch (fn) {
    case 'aclrtFree':
      return ['allocation'];
    case 'aclrtFreeHost':
      return ['pinnedHost'];
    case 'free':
      return ['pageableHost'];
    case 'aclrtMemset':
      return ['allocation', 'mapping'];
    case 'aclrtHostRegister':
    case 'aclrtHostRegisterV2':
      return ['pageableHost', 'pinnedHost'];
    case 'aclrtHostUnregister':
    case 'aclrtHostGetDevicePointer':
      return ['registered'];
    case 'aclrtReserveMemAddress':
      return [];
    case 'aclrtReleaseMemAddress':
    case 'aclrtMapMem':
      return ['reservation'];
    case 'aclrtUnmapMem':
    case 'aclrtMemSetAccess':
    case 'aclrtMemGetAccess':
      return ['mapping'];
    default:
      return ['allocation', 'mapping', 'host'];
  }
}

function fieldOf(fn: AclFunctionName, param: ParamSpec, params: readonly ParamSpec[]): FieldSpec {
  const named = { name: param.name, ctype: param.ctype };
  const value: ValueType = param.value;
  switch (value.t) {
    case 'int':
      return { kind: 'int', ...named, ...INT32 };
    case 'uint':
      return { kind: 'int', ...named, ...UINT32 };
    case 'u64':
      return { kind: 'int', ...named, ...UINT64 };
    case 'size': {
      // A size that counts the elements of an array parameter (aclrtMemSetAccess count, pidNum).
      const counted = params.find(
        (other) => (other.value.t === 'structArray' || other.value.t === 'intArray') && other.value.count === param.name,
      );
      return counted === undefined ? { kind: 'size', ...named } : { kind: 'count', ...named, of: counted.name };
    }
    case 'enum':
      return { kind: 'enum', ...named, table: table(value.enum) };
    case 'flags':
      return { kind: 'flags', ...named, table: table(value.enum) };
    case 'ptr':
    case 'handle':
      return { kind: 'pointer', ...named, picks: picksFor(fn, param) };
    case 'string':
      return { kind: 'string', ...named };
    case 'intArray':
      return { kind: 'intArray', ...named, countParam: value.count };
    case 'struct':
      if (value.struct === 'aclrtMallocConfig') return { kind: 'mallocConfig', ...named, nullable: true };
      return { kind: 'struct', ...named, struct: value.struct, fields: STRUCT_FORMS[value.struct], nullable: true };
    case 'structArray': {
      const item: FieldSpec =
        value.struct === 'aclrtMallocConfig'
          ? { kind: 'mallocConfig', name: value.struct, ctype: value.struct, nullable: false }
          : {
              kind: 'struct',
              name: value.struct,
              ctype: value.struct,
              struct: value.struct,
              fields: STRUCT_FORMS[value.struct],
              nullable: false,
            };
      return { kind: 'structArray', ...named, struct: value.struct, item, countParam: value.count };
    }
  }
}

/** The form for `fn`: one field per input parameter, in C order. */
export function formFields(fn: AclFunctionName): FieldSpec[] {
  const params: readonly ParamSpec[] = ACL_FUNCTIONS[fn].params;
  return params.filter((param) => param.dir === 'in').map((param) => fieldOf(fn, param, params));
}

/** The out-parameters the result will show, by C name. */
export function outParams(fn: AclFunctionName): ParamSpec[] {
  const params: readonly ParamSpec[] = ACL_FUNCTIONS[fn].params;
  return params.filter((param) => param.dir === 'out');
}
