/**
 * The catalogue of every ACL function PageLens speaks, with the exact C parameter names and types
 * of acl-api.md §5. It is the one source of truth for the `AclRuntime` interface (its types are
 * derived from this table), the wire `call` validation, the koffi declarations, the C interpreter
 * and the action forms in the web app.
 */

/** How one C value is represented in PageLens (and on the wire). */
export type ValueType =
  | { readonly t: 'int' } // int32_t: a safe integer in [-2^31, 2^31)
  | { readonly t: 'uint' } // uint32_t
  | { readonly t: 'size' } // size_t or uint64_t counting bytes: a safe integer ≥ 0
  | { readonly t: 'u64' } // uint64_t flags or reserved values: a safe integer ≥ 0
  | { readonly t: 'ptr' } // void*: "0x…", NULL is "0x0"
  | { readonly t: 'handle'; readonly of: HandleTypeName } // opaque handle or uint64 share token: "0x…"
  | { readonly t: 'enum'; readonly enum: string } // a C enum: the number (identifiers accepted on the wire)
  | { readonly t: 'flags'; readonly enum: string } // OR-able macro bits: the number
  | { readonly t: 'struct'; readonly struct: StructName }
  | { readonly t: 'structArray'; readonly struct: StructName; readonly count: string }
  /** A C array the caller passes (`int32_t* pid`, `void** dsts`, `size_t* sizes`); `count` names the parameter that counts it. */
  | { readonly t: 'list'; readonly item: ListItem; readonly count: string }
  | { readonly t: 'float' } // a float out-value (aclrtEventElapsedTime's ms)
  | { readonly t: 'index' } // a size_t index out-value where SIZE_MAX means none (aclrtMemcpyBatch's failIndex): -1 on the wire
  | { readonly t: 'charBuffer'; readonly length: string } // a char* the function writes text into; `length` names its size parameter
  | { readonly t: 'string' }; // const char*: text or null

/** What a `list` holds: int32_t values, size_t values, or pointers ("0x…"). */
export type ListItem = 'int' | 'size' | 'ptr';

/** The value types of C integers (int32_t, uint32_t, size_t, uint64_t, enums, flag bits): a safe integer on the wire. */
const INTEGER_VALUE_TYPES = ['int', 'uint', 'size', 'u64', 'enum', 'flags'] as const;
export type IntegerValueType = Extract<ValueType, { readonly t: (typeof INTEGER_VALUE_TYPES)[number] }>;
const INTEGER_TAGS: ReadonlySet<ValueType['t']> = new Set(INTEGER_VALUE_TYPES);

export function isIntegerValueType(type: ValueType): type is IntegerValueType {
  return INTEGER_TAGS.has(type.t);
}

export type HandleTypeName = 'aclrtStream' | 'aclrtContext' | 'aclrtEvent' | 'aclrtDrvMemHandle' | 'shareableHandle';
export type StructName =
  | 'aclrtPhysicalMemProp'
  | 'aclrtMemAccessDesc'
  | 'aclrtMallocConfig'
  | 'aclrtMemLocation'
  | 'aclrtPtrAttributes'
  | 'aclrtMemUsageInfo'
  | 'aclrtMemcpyBatchAttr';

/**
 * What a pointer argument must point into, as PageLens names live objects: a device allocation,
 * a VMM mapping or reservation, host memory (pinned from aclrtMallocHost, pageable from malloc),
 * host memory registered with aclrtHostRegister.
 */
export type PointerTarget = 'allocation' | 'mapping' | 'reservation' | 'host' | 'pinnedHost' | 'pageableHost' | 'registered';

export interface ParamSpec {
  readonly name: string;
  /** The C type exactly as the header writes it. */
  readonly ctype: string;
  readonly dir: 'in' | 'out';
  readonly value: ValueType;
  /** For a pointer input, what it must point into (the action forms offer these); absent: any allocation, mapping or host buffer. */
  readonly into?: readonly PointerTarget[];
}

export type FunctionCategory =
  | 'process'
  | 'device'
  | 'context'
  | 'stream'
  | 'event'
  | 'device-memory'
  | 'host-memory'
  | 'copy'
  | 'info'
  | 'vmm'
  | 'share'
  | 'peer'
  | 'error';

export interface FunctionSpec {
  readonly params: readonly ParamSpec[];
  /** `aclError` for almost everything; two functions return `const char*`, given as an out-field. */
  readonly returns: 'aclError' | 'const char*' | 'void*' | 'void';
  readonly category: FunctionCategory;
  /** Changes device or host state (refused by the ACL backend without --allow-mutations). */
  readonly mutates: boolean;
  /** May block for long on real hardware (the ACL backend runs it off the event loop). */
  readonly mayBlock: boolean;
  /** RULES.md IDs that govern it. */
  readonly rules: readonly string[];
  /** False for the C library calls `malloc` and `free`, which are not part of ACL. */
  readonly acl: boolean;
  /** For a call that creates something, the call that gives it back (read with `releaseCallOf`). */
  readonly releasedBy?: Release;
  /** Takes or gives back device pages, so the device's page pools change (DM-15). */
  readonly changesPools: boolean;
}

/**
 * The call that releases what a creating call made: the releasing function, and for each of its
 * inputs the name of the creating call's parameter (out or in) whose value it takes.
 * `{ fn: 'aclrtFree', args: { devPtr: 'devPtr' } }` for aclrtMalloc.
 */
export interface Release {
  readonly fn: string;
  readonly args: Readonly<Record<string, string>>;
}

const INT = { t: 'int' } as const;
const UINT = { t: 'uint' } as const;
const SIZE = { t: 'size' } as const;
const U64 = { t: 'u64' } as const;
const PTR = { t: 'ptr' } as const;
const STRING = { t: 'string' } as const;
const STREAM = { t: 'handle', of: 'aclrtStream' } as const;
const CONTEXT = { t: 'handle', of: 'aclrtContext' } as const;
const EVENT = { t: 'handle', of: 'aclrtEvent' } as const;
const FLOAT = { t: 'float' } as const;
const INDEX = { t: 'index' } as const;
const DRV_HANDLE = { t: 'handle', of: 'aclrtDrvMemHandle' } as const;
const SHAREABLE = { t: 'handle', of: 'shareableHandle' } as const;
const enumOf = <const E extends string>(name: E) => ({ t: 'enum', enum: name }) as const;
const flagsOf = <const E extends string>(name: E) => ({ t: 'flags', enum: name }) as const;
const structOf = <const S extends StructName>(name: S) => ({ t: 'struct', struct: name }) as const;
const listOf = <const I extends ListItem, const C extends string>(item: I, count: C) => ({ t: 'list', item, count }) as const;

const input = <const N extends string, const V extends ValueType>(name: N, ctype: string, value: V) =>
  ({ name, ctype, dir: 'in', value }) as const;
const output = <const N extends string, const V extends ValueType>(name: N, ctype: string, value: V) =>
  ({ name, ctype, dir: 'out', value }) as const;
/** A `void*` input that must point into one of `into` ([] for an address that names no object, such as a hint). */
const pointer = <const N extends string>(name: N, ctype: string, into: readonly PointerTarget[]) =>
  ({ name, ctype, dir: 'in', value: PTR, into }) as const;

interface Options {
  readonly returns?: FunctionSpec['returns'];
  readonly mutates?: boolean;
  readonly mayBlock?: boolean;
  readonly acl?: boolean;
  readonly releasedBy?: Release;
  readonly changesPools?: boolean;
}

function fn<const P extends readonly ParamSpec[]>(category: FunctionCategory, rules: readonly string[], params: P, options: Options = {}) {
  return {
    params,
    returns: options.returns ?? 'aclError',
    category,
    mutates: options.mutates ?? false,
    mayBlock: options.mayBlock ?? false,
    rules,
    acl: options.acl ?? true,
    changesPools: options.changesPools ?? false,
    ...(options.releasedBy === undefined ? {} : { releasedBy: options.releasedBy }),
  } as const;
}

/** `releasedBy` for a release call taking one argument: `releases('aclrtFree', 'devPtr')`, or `releases('aclrtFreeHost', 'hostPtr', 'ptr')` when the names differ. */
const releases = (fn: string, param: string, from = param): Release => ({ fn, args: { [param]: from } });

const MALLOC_PARAMS = [
  output('devPtr', 'void**', PTR),
  input('size', 'size_t', SIZE),
  input('policy', 'aclrtMemMallocPolicy', enumOf('aclrtMemMallocPolicy')),
] as const;
const MEMCPY_PARAMS = [
  input('dst', 'void*', PTR),
  input('destMax', 'size_t', SIZE),
  input('src', 'const void*', PTR),
  input('count', 'size_t', SIZE),
  input('kind', 'aclrtMemcpyKind', enumOf('aclrtMemcpyKind')),
] as const;
/** aclrtMemcpyBatch and aclrtMemcpyBatchAsync share these; the async form adds its stream after failIndex. */
const MEMCPY_BATCH_PARAMS = [
  input('dsts', 'void**', listOf('ptr', 'numBatches')),
  input('destMaxs', 'size_t*', listOf('size', 'numBatches')),
  input('srcs', 'void**', listOf('ptr', 'numBatches')),
  input('sizes', 'size_t*', listOf('size', 'numBatches')),
  input('numBatches', 'size_t', SIZE),
  input('attrs', 'aclrtMemcpyBatchAttr*', { t: 'structArray', struct: 'aclrtMemcpyBatchAttr', count: 'numAttrs' } as const),
  input('attrsIndexes', 'size_t*', listOf('size', 'numAttrs')),
  input('numAttrs', 'size_t', SIZE),
] as const;
const M = { mutates: true } as const;
/** An aclrtMalloc-family call: it takes device pages, and aclrtFree gives them back. */
const MALLOC = { mutates: true, changesPools: true, releasedBy: releases('aclrtFree', 'devPtr') } as const;

export const ACL_FUNCTIONS = {
  aclInit: fn('process', ['LT-1', 'LT-5'], [input('configPath', 'const char*', STRING)], M),
  aclFinalize: fn('process', ['LT-1', 'LT-3', 'LT-5'], [], { mutates: true, mayBlock: true }),
  aclrtSetDevice: fn('device', ['LT-2', 'LT-5', 'CX-1'], [input('deviceId', 'int32_t', INT)], M),
  aclrtResetDevice: fn('device', ['LT-2', 'LT-3'], [input('deviceId', 'int32_t', INT)], { mutates: true, mayBlock: true }),
  aclrtResetDeviceForce: fn('device', ['LT-2'], [input('deviceId', 'int32_t', INT)], { mutates: true, mayBlock: true }),
  aclrtGetDevice: fn('device', ['LT-2'], [output('deviceId', 'int32_t*', INT)]),
  aclrtGetDeviceCount: fn('device', [], [output('count', 'uint32_t*', UINT)]),
  aclrtGetRunMode: fn('device', [], [output('runMode', 'aclrtRunMode*', enumOf('aclrtRunMode'))]),
  aclrtGetSocName: fn('device', [], [output('socName', 'const char*', STRING)], { returns: 'const char*' }),
  aclrtCreateContext: fn('context', ['CX-1'], [output('context', 'aclrtContext*', CONTEXT), input('deviceId', 'int32_t', INT)], {
    mutates: true,
    releasedBy: releases('aclrtDestroyContext', 'context'),
  }),
  aclrtDestroyContext: fn('context', ['CX-2'], [input('context', 'aclrtContext', CONTEXT)], M),
  aclrtSetCurrentContext: fn('context', ['CX-1'], [input('context', 'aclrtContext', CONTEXT)], M),
  aclrtGetCurrentContext: fn('context', ['CX-1'], [output('context', 'aclrtContext*', CONTEXT)]),
  aclrtCtxGetCurrentDefaultStream: fn('context', ['CX-1'], [output('stream', 'aclrtStream*', STREAM)]),
  aclrtCreateStream: fn('stream', ['CP-4', 'CX-3'], [output('stream', 'aclrtStream*', STREAM)], {
    mutates: true,
    releasedBy: releases('aclrtDestroyStream', 'stream'),
  }),
  aclrtCreateStreamWithConfig: fn(
    'stream',
    ['CP-4', 'CX-3'],
    [output('stream', 'aclrtStream*', STREAM), input('priority', 'uint32_t', UINT), input('flag', 'uint32_t', flagsOf('ACL_STREAM'))],
    { mutates: true, releasedBy: releases('aclrtDestroyStream', 'stream') },
  ),
  aclrtDestroyStream: fn('stream', ['CP-4', 'CX-3'], [input('stream', 'aclrtStream', STREAM)], { mutates: true, mayBlock: true }),
  aclrtDestroyStreamForce: fn('stream', ['CP-4', 'CX-3'], [input('stream', 'aclrtStream', STREAM)], M),
  aclrtSetStreamFailureMode: fn(
    'stream',
    ['CP-7'],
    [input('stream', 'aclrtStream', STREAM), input('mode', 'uint64_t', enumOf('ACL_FAILURE_MODE'))],
    M,
  ),
  aclrtStreamQuery: fn(
    'stream',
    ['CP-6'],
    [input('stream', 'aclrtStream', STREAM), output('status', 'aclrtStreamStatus*', enumOf('aclrtStreamStatus'))],
  ),
  aclrtSynchronizeStream: fn('stream', ['CP-4', 'HM-3'], [input('stream', 'aclrtStream', STREAM)], { mayBlock: true }),
  aclrtSynchronizeStreamWithTimeout: fn(
    'stream',
    ['CP-4', 'CP-5'],
    [input('stream', 'aclrtStream', STREAM), input('timeout', 'int32_t', INT)],
    { mayBlock: true },
  ),
  aclrtSynchronizeDevice: fn('stream', ['CP-4'], [], { mayBlock: true }),
  aclrtSynchronizeDeviceWithTimeout: fn('stream', ['CP-4', 'CP-5'], [input('timeout', 'int32_t', INT)], { mayBlock: true }),
  aclrtCreateEvent: fn('event', ['EV-1', 'CX-3'], [output('event', 'aclrtEvent*', EVENT)], {
    mutates: true,
    releasedBy: releases('aclrtDestroyEvent', 'event'),
  }),
  aclrtCreateEventWithFlag: fn(
    'event',
    ['EV-1', 'CX-3'],
    [output('event', 'aclrtEvent*', EVENT), input('flag', 'uint32_t', flagsOf('ACL_EVENT'))],
    {
      mutates: true,
      releasedBy: releases('aclrtDestroyEvent', 'event'),
    },
  ),
  aclrtCreateEventExWithFlag: fn(
    'event',
    ['EV-1', 'CX-3'],
    [output('event', 'aclrtEvent*', EVENT), input('flag', 'uint32_t', flagsOf('ACL_EVENT'))],
    { mutates: true, releasedBy: releases('aclrtDestroyEvent', 'event') },
  ),
  aclrtRecordEvent: fn('event', ['EV-2', 'CX-3'], [input('event', 'aclrtEvent', EVENT), input('stream', 'aclrtStream', STREAM)], M),
  aclrtStreamWaitEvent: fn('event', ['EV-3', 'CX-3'], [input('stream', 'aclrtStream', STREAM), input('event', 'aclrtEvent', EVENT)], M),
  aclrtSynchronizeEvent: fn('event', ['EV-4'], [input('event', 'aclrtEvent', EVENT)], { mayBlock: true }),
  aclrtSynchronizeEventWithTimeout: fn('event', ['EV-4', 'CP-5'], [input('event', 'aclrtEvent', EVENT), input('timeout', 'int32_t', INT)], {
    mayBlock: true,
  }),
  aclrtQueryEventStatus: fn(
    'event',
    ['EV-4'],
    [input('event', 'aclrtEvent', EVENT), output('status', 'aclrtEventRecordedStatus*', enumOf('aclrtEventRecordedStatus'))],
  ),
  aclrtResetEvent: fn('event', ['EV-5'], [input('event', 'aclrtEvent', EVENT), input('stream', 'aclrtStream', STREAM)], M),
  aclrtDestroyEvent: fn('event', ['EV-1'], [input('event', 'aclrtEvent', EVENT)], M),
  aclrtEventElapsedTime: fn(
    'event',
    ['EV-6'],
    [output('ms', 'float*', FLOAT), input('startEvent', 'aclrtEvent', EVENT), input('endEvent', 'aclrtEvent', EVENT)],
  ),
  aclrtEventGetTimestamp: fn('event', ['EV-6'], [input('event', 'aclrtEvent', EVENT), output('timestamp', 'uint64_t*', U64)]),
  aclrtMalloc: fn(
    'device-memory',
    ['DM-2', 'DM-3', 'DM-4', 'DM-5', 'DM-6', 'DM-7', 'DM-8', 'DM-10', 'DM-11', 'DM-12'],
    MALLOC_PARAMS,
    MALLOC,
  ),
  aclrtMallocAlign32: fn('device-memory', ['DM-3', 'DM-4'], MALLOC_PARAMS, MALLOC),
  aclrtMallocCached: fn('device-memory', ['DM-3'], MALLOC_PARAMS, MALLOC),
  aclrtMallocWithCfg: fn(
    'device-memory',
    ['DM-3', 'DM-8', 'DM-9'],
    [...MALLOC_PARAMS, input('cfg', 'aclrtMallocConfig*', structOf('aclrtMallocConfig'))],
    MALLOC,
  ),
  aclrtFree: fn('device-memory', ['DM-13'], [pointer('devPtr', 'void*', ['allocation'])], { mutates: true, changesPools: true }),
  aclrtMallocHost: fn('host-memory', ['HM-2'], [output('hostPtr', 'void**', PTR), input('size', 'size_t', SIZE)], {
    mutates: true,
    mayBlock: true,
    releasedBy: releases('aclrtFreeHost', 'hostPtr'),
  }),
  aclrtMallocHostWithCfg: fn(
    'host-memory',
    ['HM-4', 'HM-6'],
    [output('ptr', 'void**', PTR), input('size', 'uint64_t', SIZE), input('cfg', 'aclrtMallocConfig*', structOf('aclrtMallocConfig'))],
    { mutates: true, mayBlock: true, releasedBy: releases('aclrtFreeHost', 'hostPtr', 'ptr') },
  ),
  aclrtFreeHost: fn('host-memory', ['HM-2'], [pointer('hostPtr', 'void*', ['pinnedHost'])], M),
  aclrtMemcpy: fn('copy', ['CP-1', 'CP-2', 'CP-3', 'HM-1'], MEMCPY_PARAMS, { mutates: true, mayBlock: true }),
  aclrtMemcpyAsync: fn('copy', ['CP-1', 'CP-2', 'CP-3', 'CP-4', 'HM-3'], [...MEMCPY_PARAMS, input('stream', 'aclrtStream', STREAM)], {
    mutates: true,
    mayBlock: true,
  }),
  aclrtMemset: fn(
    'copy',
    ['CP-2'],
    [
      pointer('devPtr', 'void*', ['allocation', 'mapping']),
      input('maxCount', 'size_t', SIZE),
      input('value', 'int32_t', INT),
      input('count', 'size_t', SIZE),
    ],
    { mutates: true, mayBlock: true },
  ),
  aclrtMemsetAsync: fn(
    'copy',
    ['CP-2', 'CP-8'],
    [
      pointer('devPtr', 'void*', ['allocation', 'mapping', 'pinnedHost']),
      input('maxCount', 'size_t', SIZE),
      input('value', 'int32_t', INT),
      input('count', 'size_t', SIZE),
      input('stream', 'aclrtStream', STREAM),
    ],
    M,
  ),
  aclrtMemcpy2d: fn(
    'copy',
    ['CP-2', 'CP-3', 'CP-9'],
    [
      input('dst', 'void*', PTR),
      input('dpitch', 'size_t', SIZE),
      input('src', 'const void*', PTR),
      input('spitch', 'size_t', SIZE),
      input('width', 'size_t', SIZE),
      input('height', 'size_t', SIZE),
      input('kind', 'aclrtMemcpyKind', enumOf('aclrtMemcpyKind')),
    ],
    { mutates: true, mayBlock: true },
  ),
  aclrtMemcpy2dAsync: fn(
    'copy',
    ['CP-2', 'CP-3', 'CP-4', 'CP-9', 'HM-3'],
    [
      input('dst', 'void*', PTR),
      input('dpitch', 'size_t', SIZE),
      input('src', 'const void*', PTR),
      input('spitch', 'size_t', SIZE),
      input('width', 'size_t', SIZE),
      input('height', 'size_t', SIZE),
      input('kind', 'aclrtMemcpyKind', enumOf('aclrtMemcpyKind')),
      input('stream', 'aclrtStream', STREAM),
    ],
    { mutates: true, mayBlock: true },
  ),
  aclrtMemcpyBatch: fn('copy', ['CP-11', 'CP-2'], [...MEMCPY_BATCH_PARAMS, output('failIndex', 'size_t*', INDEX)], {
    mutates: true,
    mayBlock: true,
  }),
  aclrtMemcpyBatchAsync: fn(
    'copy',
    ['CP-11', 'CP-2', 'CP-4', 'HM-3'],
    [...MEMCPY_BATCH_PARAMS, output('failIndex', 'size_t*', INDEX), input('stream', 'aclrtStream', STREAM)],
    { mutates: true, mayBlock: true },
  ),
  aclrtValueWrite: fn(
    'copy',
    ['CP-12'],
    [
      pointer('devAddr', 'void*', ['allocation', 'mapping']),
      input('value', 'uint64_t', U64),
      input('flag', 'uint32_t', UINT),
      input('stream', 'aclrtStream', STREAM),
    ],
    M,
  ),
  aclrtValueWait: fn(
    'copy',
    ['CP-12'],
    [
      pointer('devAddr', 'void*', ['allocation', 'mapping']),
      input('value', 'uint64_t', U64),
      input('flag', 'uint32_t', enumOf('ACL_STREAM_WAIT_VALUE')),
      input('stream', 'aclrtStream', STREAM),
    ],
    M,
  ),
  aclrtMemFlush: fn(
    'copy',
    ['CP-10'],
    [pointer('devPtr', 'void*', ['allocation', 'mapping', 'pinnedHost']), input('size', 'size_t', SIZE)],
  ),
  aclrtMemInvalidate: fn(
    'copy',
    ['CP-10'],
    [pointer('devPtr', 'void*', ['allocation', 'mapping', 'pinnedHost']), input('size', 'size_t', SIZE)],
  ),
  aclrtGetMemInfo: fn(
    'info',
    ['DM-15'],
    [input('attr', 'aclrtMemAttr', enumOf('aclrtMemAttr')), output('free', 'size_t*', SIZE), output('total', 'size_t*', SIZE)],
  ),
  aclrtHostRegister: fn(
    'host-memory',
    ['HM-5', 'HM-6'],
    [
      pointer('ptr', 'void*', ['pageableHost', 'pinnedHost']),
      input('size', 'uint64_t', SIZE),
      input('type', 'aclrtHostRegisterType', enumOf('aclrtHostRegisterType')),
      output('devPtr', 'void**', PTR),
    ],
    { mutates: true, releasedBy: releases('aclrtHostUnregister', 'ptr') },
  ),
  aclrtHostRegisterV2: fn(
    'host-memory',
    ['HM-5'],
    [
      pointer('ptr', 'void*', ['pageableHost', 'pinnedHost']),
      input('size', 'uint64_t', SIZE),
      input('flag', 'uint32_t', flagsOf('ACL_HOST_REG')),
    ],
    { mutates: true, releasedBy: releases('aclrtHostUnregister', 'ptr') },
  ),
  aclrtHostUnregister: fn('host-memory', ['HM-5'], [pointer('ptr', 'void*', ['registered'])], M),
  aclrtHostGetDevicePointer: fn(
    'host-memory',
    ['HM-5', 'HM-6', 'HM-7'],
    [pointer('pHost', 'void*', ['registered']), output('pDevice', 'void**', PTR), input('flag', 'uint32_t', UINT)],
  ),
  aclrtPointerGetAttributes: fn(
    'info',
    ['HM-7', 'DM-11'],
    [input('ptr', 'const void*', PTR), output('attributes', 'aclrtPtrAttributes*', structOf('aclrtPtrAttributes'))],
  ),
  aclrtCheckMemType: fn(
    'info',
    ['DM-17'],
    [
      input('addrList', 'void**', listOf('ptr', 'size')),
      input('size', 'uint32_t', UINT),
      input('memType', 'uint32_t', flagsOf('ACL_RT_MEM_TYPE')),
      output('checkResult', 'uint32_t*', UINT),
      input('reserve', 'uint32_t', UINT),
    ],
  ),
  aclrtGetMemUsageInfo: fn(
    'info',
    ['DM-18'],
    [
      input('deviceId', 'int32_t', INT),
      output('memUsageInfo', 'aclrtMemUsageInfo*', { t: 'structArray', struct: 'aclrtMemUsageInfo', count: 'inputNum' } as const),
      input('inputNum', 'size_t', SIZE),
      output('outputNum', 'size_t*', SIZE),
    ],
  ),
  aclrtMemGetAddressRange: fn(
    'info',
    ['DM-16'],
    [input('ptr', 'void*', PTR), output('pbase', 'void**', PTR), output('psize', 'size_t*', SIZE)],
  ),
  aclrtMemGetAllocationGranularity: fn(
    'vmm',
    ['VM-2', 'VM-3'],
    [
      input('prop', 'aclrtPhysicalMemProp*', structOf('aclrtPhysicalMemProp')),
      input('option', 'aclrtMemGranularityOptions', enumOf('aclrtMemGranularityOptions')),
      output('granularity', 'size_t*', SIZE),
    ],
  ),
  aclrtMallocPhysical: fn(
    'vmm',
    ['VM-2', 'VM-3', 'VM-4', 'VM-10'],
    [
      output('handle', 'aclrtDrvMemHandle*', DRV_HANDLE),
      input('size', 'size_t', SIZE),
      input('prop', 'const aclrtPhysicalMemProp*', structOf('aclrtPhysicalMemProp')),
      input('flags', 'uint64_t', U64),
    ],
    { mutates: true, changesPools: true, releasedBy: releases('aclrtFreePhysical', 'handle') },
  ),
  aclrtFreePhysical: fn('vmm', ['VM-8'], [input('handle', 'aclrtDrvMemHandle', DRV_HANDLE)], { mutates: true, changesPools: true }),
  aclrtReserveMemAddress: fn(
    'vmm',
    ['VM-5', 'VM-10'],
    [
      output('virPtr', 'void**', PTR),
      input('size', 'size_t', SIZE),
      input('alignment', 'size_t', SIZE),
      pointer('expectPtr', 'void*', []),
      input('flags', 'uint64_t', U64),
    ],
    { mutates: true, releasedBy: releases('aclrtReleaseMemAddress', 'virPtr') },
  ),
  aclrtReleaseMemAddress: fn('vmm', ['VM-8'], [pointer('virPtr', 'void*', ['reservation'])], M),
  aclrtMapMem: fn(
    'vmm',
    ['VM-6', 'VM-2'],
    [
      pointer('virPtr', 'void*', ['reservation']),
      input('size', 'size_t', SIZE),
      input('offset', 'size_t', SIZE),
      input('handle', 'aclrtDrvMemHandle', DRV_HANDLE),
      input('flags', 'uint64_t', U64),
    ],
    M,
  ),
  // Unmapping frees the pages of a handle already freed while mapped (VM-8).
  aclrtUnmapMem: fn('vmm', ['VM-8'], [pointer('virPtr', 'void*', ['mapping'])], { mutates: true, changesPools: true }),
  aclrtMemSetAccess: fn(
    'vmm',
    ['VM-7'],
    [
      pointer('virPtr', 'void*', ['mapping']),
      input('size', 'size_t', SIZE),
      input('desc', 'aclrtMemAccessDesc*', { t: 'structArray', struct: 'aclrtMemAccessDesc', count: 'count' } as const),
      input('count', 'size_t', SIZE),
    ],
    M,
  ),
  aclrtMemRetainAllocationHandle: fn(
    'vmm',
    ['VM-12'],
    [pointer('virPtr', 'void*', ['mapping']), output('handle', 'aclrtDrvMemHandle*', DRV_HANDLE)],
    { mutates: true, releasedBy: releases('aclrtFreePhysical', 'handle') },
  ),
  aclrtMemGetAllocationPropertiesFromHandle: fn(
    'vmm',
    ['VM-12'],
    [input('handle', 'aclrtDrvMemHandle', DRV_HANDLE), output('prop', 'aclrtPhysicalMemProp*', structOf('aclrtPhysicalMemProp'))],
  ),
  aclrtMemGetAccess: fn(
    'vmm',
    ['VM-7'],
    [
      pointer('virPtr', 'void*', ['mapping']),
      input('location', 'aclrtMemLocation*', structOf('aclrtMemLocation')),
      output('flag', 'uint64_t*', U64),
    ],
  ),
  aclrtMemExportToShareableHandle: fn(
    'share',
    ['VM-9'],
    [
      input('handle', 'aclrtDrvMemHandle', DRV_HANDLE),
      input('handleType', 'aclrtMemHandleType', enumOf('aclrtMemHandleType')),
      input('flags', 'uint64_t', flagsOf('ACL_RT_VMM_EXPORT_FLAG')),
      output('shareableHandle', 'uint64_t*', SHAREABLE),
    ],
    M,
  ),
  aclrtMemImportFromShareableHandle: fn(
    'share',
    ['VM-9'],
    [
      input('shareableHandle', 'uint64_t', SHAREABLE),
      input('deviceId', 'int32_t', INT),
      output('handle', 'aclrtDrvMemHandle*', DRV_HANDLE),
    ],
    { mutates: true, releasedBy: releases('aclrtFreePhysical', 'handle') },
  ),
  aclrtMemSetPidToShareableHandle: fn(
    'share',
    ['VM-9'],
    [input('shareableHandle', 'uint64_t', SHAREABLE), input('pid', 'int32_t*', listOf('int', 'pidNum')), input('pidNum', 'size_t', SIZE)],
    M,
  ),
  aclrtIpcMemGetExportKey: fn(
    'share',
    ['IP-1'],
    [
      pointer('devPtr', 'void*', ['allocation']),
      input('size', 'size_t', SIZE),
      output('key', 'char*', { t: 'charBuffer', length: 'len' } as const),
      input('len', 'size_t', SIZE),
      input('flags', 'uint64_t', flagsOf('ACL_RT_IPC_MEM_EXPORT_FLAG')),
    ],
    { mutates: true, releasedBy: releases('aclrtIpcMemClose', 'key') },
  ),
  aclrtIpcMemSetImportPid: fn(
    'share',
    ['IP-2'],
    [input('key', 'const char*', STRING), input('pid', 'int32_t*', listOf('int', 'num')), input('num', 'size_t', SIZE)],
    M,
  ),
  aclrtIpcMemImportByKey: fn(
    'share',
    ['IP-3'],
    [
      output('devPtr', 'void**', PTR),
      input('key', 'const char*', STRING),
      input('flags', 'uint64_t', flagsOf('ACL_RT_IPC_MEM_IMPORT_FLAG')),
    ],
    { mutates: true, releasedBy: releases('aclrtIpcMemClose', 'key') },
  ),
  aclrtIpcMemClose: fn('share', ['IP-4'], [input('key', 'const char*', STRING)], M),
  aclrtDeviceCanAccessPeer: fn(
    'peer',
    ['DM-8'],
    [output('canAccessPeer', 'int32_t*', INT), input('deviceId', 'int32_t', INT), input('peerDeviceId', 'int32_t', INT)],
  ),
  aclrtDeviceEnablePeerAccess: fn('peer', ['DM-8'], [input('peerDeviceId', 'int32_t', INT), input('flags', 'uint32_t', UINT)], M),
  aclrtDeviceDisablePeerAccess: fn('peer', ['DM-8'], [input('peerDeviceId', 'int32_t', INT)], M),
  aclGetRecentErrMsg: fn('error', [], [output('errMsg', 'const char*', STRING)], { returns: 'const char*' }),
  malloc: fn('host-memory', ['HM-1'], [input('size', 'size_t', SIZE), output('ptr', 'void*', PTR)], {
    returns: 'void*',
    mutates: true,
    acl: false,
    releasedBy: releases('free', 'ptr'),
  }),
  free: fn('host-memory', ['HM-1'], [pointer('ptr', 'void*', ['pageableHost'])], { returns: 'void', mutates: true, acl: false }),
} as const satisfies Record<string, FunctionSpec>;

export type AclFunctionName = keyof typeof ACL_FUNCTIONS;

export function isAclFunctionName(name: string): name is AclFunctionName {
  return Object.hasOwn(ACL_FUNCTIONS, name);
}

export const ACL_FUNCTION_NAMES: readonly AclFunctionName[] = Object.keys(ACL_FUNCTIONS).filter(isAclFunctionName);

export function functionSpec(name: AclFunctionName): FunctionSpec {
  return ACL_FUNCTIONS[name];
}

/**
 * The call that gives back what `fn` created, its arguments read from the creating call's inputs
 * and out-values; undefined for a call that creates nothing, or when a value it needs is missing.
 */
export function releaseCallOf(
  fn: AclFunctionName,
  args: Readonly<Record<string, unknown>>,
  out: Readonly<Record<string, unknown>>,
): { readonly fn: AclFunctionName; readonly args: Readonly<Record<string, unknown>> } | undefined {
  const release = functionSpec(fn).releasedBy;
  if (release === undefined || !isAclFunctionName(release.fn)) return undefined;
  const values: Record<string, unknown> = {};
  for (const [param, from] of Object.entries(release.args)) {
    const value = Object.hasOwn(out, from) ? out[from] : args[from];
    if (value === undefined) return undefined;
    values[param] = value;
  }
  return { fn: release.fn, args: values };
}
