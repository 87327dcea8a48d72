/**
 * `AclRuntime`: one async method per ACL function, named as in C, taking its input parameters by
 * their C names and answering `{ ret, <out-parameters by their C names> }`. The types are derived
 * from the catalogue in functions.ts, so the interface cannot drift from it.
 *
 * Conventions: pointers and handles are "0x…" strings (NULL is "0x0"); enum values are numbers
 * (the wire layer accepts C identifiers and converts them); sizes are safe integers in bytes;
 * a struct pointer argument is the struct object, or null for a NULL pointer.
 */
import type { CodedText } from '../model/events.ts';
import type { Hex } from '../units/hex.ts';
import { ACL_FUNCTION_NAMES, type ACL_FUNCTIONS, type AclFunctionName } from './functions.ts';
import type {
  aclrtMallocConfig,
  aclrtMemAccessDesc,
  aclrtMemcpyBatchAttr,
  aclrtMemLocation,
  aclrtMemUsageInfo,
  aclrtPhysicalMemProp,
  aclrtPtrAttributes,
} from './structs.ts';

interface StructTypes {
  aclrtPhysicalMemProp: aclrtPhysicalMemProp;
  aclrtMemAccessDesc: aclrtMemAccessDesc;
  aclrtMallocConfig: aclrtMallocConfig;
  aclrtMemLocation: aclrtMemLocation;
  aclrtPtrAttributes: aclrtPtrAttributes;
  aclrtMemUsageInfo: aclrtMemUsageInfo;
  aclrtMemcpyBatchAttr: aclrtMemcpyBatchAttr;
}

type TsValue<V> = V extends { t: 'int' | 'uint' | 'size' | 'u64' | 'enum' | 'flags' | 'float' | 'index' }
  ? number
  : V extends { t: 'ptr' | 'handle' }
    ? Hex
    : V extends { t: 'struct'; struct: infer S extends keyof StructTypes }
      ? StructTypes[S] | null
      : V extends { t: 'structArray'; struct: infer S extends keyof StructTypes }
        ? readonly StructTypes[S][]
        : V extends { t: 'list'; item: 'ptr' }
          ? readonly Hex[]
          : V extends { t: 'list' }
            ? readonly number[]
            : V extends { t: 'string' }
              ? string | null
              : V extends { t: 'charBuffer' }
                ? string
                : never;

type OutValue<V> = V extends { t: 'struct'; struct: infer S extends keyof StructTypes } ? StructTypes[S] : TsValue<V>;

type Params<F extends AclFunctionName> = (typeof ACL_FUNCTIONS)[F]['params'][number];

/** The input parameters of `F`, by their C names. */
export type AclArgs<F extends AclFunctionName> = {
  readonly [P in Params<F> as P extends { dir: 'in' } ? P['name'] : never]: TsValue<P['value']>;
};

/**
 * A value as the wire takes it: what `TsValue` allows, and also the C identifiers for an enum or
 * flags ("ACL_MEM_MALLOC_HUGE_FIRST", "ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED", or a list of names)
 * and null for a NULL pointer. The agent turns these into the runtime's form (`normalizeArgs`).
 */
type WireValue<V> = V extends { t: 'enum' }
  ? number | string
  : V extends { t: 'flags' }
    ? number | string | readonly string[]
    : V extends { t: 'ptr' | 'handle' }
      ? Hex | null
      : V extends { t: 'struct'; struct: infer S extends keyof StructTypes }
        ? WireStruct<StructTypes[S]> | null
        : V extends { t: 'structArray'; struct: infer S extends keyof StructTypes }
          ? readonly WireStruct<StructTypes[S]>[]
          : TsValue<V>;

/** A struct as the wire takes it: any number field may also be a C identifier. */
type WireStruct<T> = {
  readonly [K in keyof T]: T[K] extends number ? number | string : T[K] extends object ? WireStruct<T[K]> : T[K];
};

/**
 * The input parameters of `F` as a client sends them in a `call` message. Typed like `AclArgs`, so
 * `call('aclrtSetDevice', { deviceID: 0 })` does not compile in the web app either.
 */
export type WireArgs<F extends AclFunctionName> =
  | AclArgs<F>
  | { readonly [P in Params<F> as P extends { dir: 'in' } ? P['name'] : never]: WireValue<P['value']> };

/** The out-parameters of `F`, by their C names. */
export type AclOut<F extends AclFunctionName> = {
  readonly [P in Params<F> as P extends { dir: 'out' } ? P['name'] : never]: OutValue<P['value']>;
};

/**
 * What a call answers. `ret` is the aclError (0 = ACL_SUCCESS; functions that return a string or
 * void answer 0). Out-fields are present when the call wrote them, as C leaves them untouched on
 * failure. `message` explains a failure: the simulator's rule, or aclGetRecentErrMsg on hardware.
 */
/** `messageCode` is the message as a code of texts/table.ts, when the backend has one (the simulator does). */
export type AclResult<F extends AclFunctionName> = {
  readonly ret: number;
  readonly message?: string;
  readonly messageCode?: CodedText;
} & Partial<AclOut<F>>;

/**
 * The one entry point every backend implements: the simulator (an op table), the ACL library through
 * koffi (a marshalling table), the agent connection (the wire). Typed end to end:
 * `call('aclrtSetDevice', { deviceID: 0 })` does not compile.
 */
export interface AclCaller {
  call<F extends AclFunctionName>(fn: F, args: AclArgs<F>): Promise<AclResult<F>>;
}

/** One method per catalogue function, named as in C: `runtime.aclrtMalloc({ size, policy })`. */
export type AclMethods = {
  readonly [F in AclFunctionName]: (args: AclArgs<F>) => Promise<AclResult<F>>;
};

/** A runtime: its entry point and, derived from it, one method per function. */
export type AclRuntime = AclCaller & AclMethods;

type AclRuntimeClass = abstract new () => AclRuntime;

/**
 * The base of every runtime: a subclass writes `call`, and the methods are made from the catalogue
 * here, once, on the prototype (so no backend keeps a list of functions of its own).
 */
export const AclRuntimeBase: AclRuntimeClass = (() => {
  abstract class Base {
    abstract call<F extends AclFunctionName>(fn: F, args: AclArgs<F>): Promise<AclResult<F>>;
  }
  for (const name of ACL_FUNCTION_NAMES) {
    Object.defineProperty(Base.prototype, name, {
      value(this: Base, args: AclArgs<typeof name>) {
        return this.call(name, args);
      },
      writable: false,
      enumerable: false,
    });
  }
  // The prototype now holds every AclMethods member, which TypeScript cannot see a loop add.
  return Base as unknown as AclRuntimeClass;
})();

/** A runtime from a bare `call` function (wire clients, test doubles). */
export function runtimeFrom(call: AclCaller['call']): AclRuntime {
  return new (class extends AclRuntimeBase {
    override call<F extends AclFunctionName>(fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
      return call(fn, args);
    }
  })();
}
