/**
 * `AclRuntime`: one async method per ACL function, named as in C, taking its input parameters by
 * their C names and answering `{ ret, <out-parameters by their C names> }`. The types are derived
 * from the catalogue in functions.ts, so the interface cannot drift from it.
 *
 * Conventions: pointers and handles are "0x…" strings (NULL is "0x0"); enum values are numbers
 * (the wire layer accepts C identifiers and converts them); sizes are safe integers in bytes;
 * a struct pointer argument is the struct object, or null for a NULL pointer.
 */
import type { Hex } from '../units/hex.ts';
import type { ACL_FUNCTIONS, AclFunctionName } from './functions.ts';
import type { aclrtMallocConfig, aclrtMemAccessDesc, aclrtMemLocation, aclrtPhysicalMemProp, aclrtPtrAttributes } from './structs.ts';

interface StructTypes {
  aclrtPhysicalMemProp: aclrtPhysicalMemProp;
  aclrtMemAccessDesc: aclrtMemAccessDesc;
  aclrtMallocConfig: aclrtMallocConfig;
  aclrtMemLocation: aclrtMemLocation;
  aclrtPtrAttributes: aclrtPtrAttributes;
}

type TsValue<V> = V extends { t: 'int' | 'uint' | 'size' | 'u64' | 'enum' | 'flags' }
  ? number
  : V extends { t: 'ptr' | 'handle' }
    ? Hex
    : V extends { t: 'struct'; struct: infer S extends keyof StructTypes }
      ? StructTypes[S] | null
      : V extends { t: 'structArray'; struct: infer S extends keyof StructTypes }
        ? readonly StructTypes[S][]
        : V extends { t: 'intArray' }
          ? readonly number[]
          : V extends { t: 'string' }
            ? string | null
            : never;

type OutValue<V> = V extends { t: 'struct'; struct: infer S extends keyof StructTypes } ? StructTypes[S] : TsValue<V>;

type Params<F extends AclFunctionName> = (typeof ACL_FUNCTIONS)[F]['params'][number];

/** The input parameters of `F`, by their C names. */
export type AclArgs<F extends AclFunctionName> = {
  readonly [P in Params<F> as P extends { dir: 'in' } ? P['name'] : never]: TsValue<P['value']>;
};

/** The out-parameters of `F`, by their C names. */
export type AclOut<F extends AclFunctionName> = {
  readonly [P in Params<F> as P extends { dir: 'out' } ? P['name'] : never]: OutValue<P['value']>;
};

/**
 * What a call answers. `ret` is the aclError (0 = ACL_SUCCESS; functions that return a string or
 * void answer 0). Out-fields are present when the call wrote them, as C leaves them untouched on
 * failure. `message` explains a failure: the simulator's rule, or aclGetRecentErrMsg on hardware.
 */
export type AclResult<F extends AclFunctionName> = { readonly ret: number; readonly message?: string } & Partial<AclOut<F>>;

export type AclRuntime = {
  readonly [F in AclFunctionName]: (args: AclArgs<F>) => Promise<AclResult<F>>;
};
