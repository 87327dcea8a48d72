import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, type AclFunctionName, type FunctionSpec, type ParamSpec } from '@pagelens/core';
import koffi, { type IKoffiLib } from 'koffi';
import { koffiType, type TypeSpec } from './ctypes.ts';

/*
 * The koffi declaration of every function the binding calls, generated from the catalogue's exact
 * C types (packages/core/src/acl/functions.ts), plus the few calls the binding needs for itself.
 */

export type KoffiLibrary = IKoffiLib;
export type KoffiFunction = ReturnType<IKoffiLib['func']>;

/** What the binding needs to call one C function: its parameters and what it returns. */
export interface CallSpec {
  readonly params: readonly ParamSpec[];
  readonly returns: FunctionSpec['returns'];
}

const PTR = { t: 'ptr' } as const;
const INT = { t: 'int' } as const;

/**
 * Not in the catalogue, because sessions never call them: the version for doctor, and libc's
 * posix_memalign. (aclrtGetCurrentContext/aclrtSetCurrentContext, which the worker thread needs
 * (V14), are catalogue functions now and declared from their entries.)
 */
export const EXTRA_FUNCTIONS = {
  aclrtGetVersion: {
    returns: 'aclError',
    params: [
      { name: 'major', ctype: 'int32_t*', dir: 'out', value: INT },
      { name: 'minor', ctype: 'int32_t*', dir: 'out', value: INT },
      { name: 'patch', ctype: 'int32_t*', dir: 'out', value: INT },
    ],
  },
  /** Only for `malloc` from one host page up: pageable memory aligned so that it can be registered (HM-5). */
  posix_memalign: {
    returns: 'int',
    params: [
      { name: 'memptr', ctype: 'void**', dir: 'out', value: PTR },
      { name: 'alignment', ctype: 'size_t', dir: 'in', value: { t: 'size' } },
      { name: 'size', ctype: 'size_t', dir: 'in', value: { t: 'size' } },
    ],
  },
} as const satisfies Record<string, { readonly returns: string; readonly params: readonly ParamSpec[] }>;

export type ExtraFunctionName = keyof typeof EXTRA_FUNCTIONS;
export type NativeName = AclFunctionName | ExtraFunctionName;

/** The C library's functions among them (the rest come from the ACL library). */
const LIBC_FUNCTIONS: ReadonlySet<NativeName> = new Set<NativeName>(['malloc', 'free', 'posix_memalign']);

export function isExtraFunctionName(name: string): name is ExtraFunctionName {
  return Object.hasOwn(EXTRA_FUNCTIONS, name);
}

const EXTRA_FUNCTION_NAMES: readonly ExtraFunctionName[] = Object.keys(EXTRA_FUNCTIONS).filter(isExtraFunctionName);

export function callSpec(name: NativeName): CallSpec {
  if (isExtraFunctionName(name)) {
    const extra = EXTRA_FUNCTIONS[name];
    return { params: extra.params, returns: extra.returns === 'int' ? 'aclError' : extra.returns };
  }
  return ACL_FUNCTIONS[name];
}

/**
 * True for an out-parameter that C gives as the return value (`const char *aclrtGetSocName(void)`,
 * `void *malloc(size_t)`): the catalogue lists it as an out-field, the prototype has no such parameter.
 */
export function isReturnedValue(spec: CallSpec, param: ParamSpec): boolean {
  return param.dir === 'out' && spec.returns !== 'aclError' && spec.returns !== 'void';
}

function resultType(returns: CallSpec['returns']): TypeSpec {
  switch (returns) {
    case 'aclError':
      return 'int32_t';
    case 'const char*':
      return 'const char *';
    case 'void*':
      return koffi.pointer('void');
    case 'void':
      return 'void';
  }
}

/** The koffi parameter types of one function: `_Out_` for out-parameters, as in acl-api.md §2. */
export function parameterTypes(spec: CallSpec): TypeSpec[] {
  return spec.params
    .filter((param) => !isReturnedValue(spec, param))
    .map((param) => {
      // A char* the runtime writes text into: marshal.ts passes a byte buffer of its length (transient pointer).
      if (param.value.t === 'charBuffer') return koffi.pointer('void');
      // An array of structs the runtime fills: marshal.ts passes a byte buffer of its capacity and decodes what was written.
      if (param.dir === 'out' && param.value.t === 'structArray') return koffi.pointer('void');
      const type = koffiType(param.ctype);
      // An index the runtime writes (size_t*): marshal.ts passes a one-word BigUint64Array, written in place, so it can be
      // read after a failed call too and told apart from a word the runtime never wrote.
      if (param.dir === 'out' && param.value.t === 'index') return type;
      return param.dir === 'out' ? koffi.out(type) : type;
    });
}

export interface Declarations {
  readonly functions: ReadonlyMap<NativeName, KoffiFunction>;
  /** Catalogue and extra functions the ACL library does not export, in catalogue order. */
  readonly missing: readonly NativeName[];
}

function declareOne(lib: KoffiLibrary, name: NativeName): KoffiFunction | undefined {
  const spec = callSpec(name);
  try {
    return lib.func(name, resultType(spec.returns), parameterTypes(spec));
  } catch {
    // koffi throws when the symbol is not exported: an older CANN without this API (§9).
    return undefined;
  }
}

/** Declares every function against the ACL library, and malloc/free/posix_memalign against libc. */
export function declareAll(acl: KoffiLibrary, libc: KoffiLibrary): Declarations {
  const functions = new Map<NativeName, KoffiFunction>();
  const missing: NativeName[] = [];
  const names: NativeName[] = [...ACL_FUNCTION_NAMES, ...EXTRA_FUNCTION_NAMES];
  for (const name of names) {
    const declared = declareOne(LIBC_FUNCTIONS.has(name) ? libc : acl, name);
    if (declared === undefined) missing.push(name);
    else functions.set(name, declared);
  }
  return { functions, missing };
}
