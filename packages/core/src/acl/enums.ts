import { type AclEnum, defineEnum } from './enum-table.ts';
import { ACL_ERROR_CONSTANTS } from './errors.ts';

// Every table below copies acl-api.md §3 (runtime master, ACL API 1.17.0): names and values exact.

/**
 * §3 aclrtMemMallocPolicy. Typed as one enum, but the runtime splits a value: the low byte
 * (MEM_POLICY_MASK) is the base policy 0..7 and bits 0x100/0x1000 (MEM_TYPE_MASK) the bandwidth
 * type. Only aclrtMallocWithCfg accepts an OR of the two; aclrtMalloc, aclrtMallocAlign32 and
 * aclrtMallocCached take one member as is.
 */
export const aclrtMemMallocPolicy = defineEnum(
  'aclrtMemMallocPolicy',
  {
    ACL_MEM_MALLOC_HUGE_FIRST: 0,
    ACL_MEM_MALLOC_HUGE_ONLY: 1,
    ACL_MEM_MALLOC_NORMAL_ONLY: 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P: 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P: 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P: 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY: 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P: 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH: 0x100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH: 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY: 0x100000,
  },
  'enum',
  'ACL_MEM_MALLOC_',
);
/** Base-policy bits of an aclrtMemMallocPolicy value (runtime DevMalloc). Not a C identifier. */
export const MEM_POLICY_MASK = 0xff;
/** Bandwidth-type bits of an aclrtMemMallocPolicy value (runtime DevMalloc). Not a C identifier. */
export const MEM_TYPE_MASK = 0x1100;

/** §3 aclrtMemcpyKind. aclrtMemcpy(Async) accept 0..5 only; 6 and 7 return 100000. */
export const aclrtMemcpyKind = defineEnum('aclrtMemcpyKind', {
  ACL_MEMCPY_HOST_TO_HOST: 0,
  ACL_MEMCPY_HOST_TO_DEVICE: 1,
  ACL_MEMCPY_DEVICE_TO_HOST: 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE: 3,
  ACL_MEMCPY_DEFAULT: 4,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: 5,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: 6,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: 7,
});

/** §3 aclrtMemAttr: the pool aclrtGetMemInfo reports on, and aclrtPhysicalMemProp.memAttr. 12..17 are 8.5-era. */
export const aclrtMemAttr = defineEnum('aclrtMemAttr', {
  ACL_DDR_MEM: 0,
  ACL_HBM_MEM: 1,
  ACL_DDR_MEM_HUGE: 2,
  ACL_DDR_MEM_NORMAL: 3,
  ACL_HBM_MEM_HUGE: 4,
  ACL_HBM_MEM_NORMAL: 5,
  ACL_DDR_MEM_P2P_HUGE: 6,
  ACL_DDR_MEM_P2P_NORMAL: 7,
  ACL_HBM_MEM_P2P_HUGE: 8,
  ACL_HBM_MEM_P2P_NORMAL: 9,
  ACL_HBM_MEM_HUGE1G: 10,
  ACL_HBM_MEM_P2P_HUGE1G: 11,
  ACL_MEM_NORMAL: 12,
  ACL_MEM_HUGE: 13,
  ACL_MEM_HUGE1G: 14,
  ACL_MEM_P2P_NORMAL: 15,
  ACL_MEM_P2P_HUGE: 16,
  ACL_MEM_P2P_HUGE1G: 17,
});

/** §3 aclrtMemHandleType. The VMM APIs currently require NONE; POSIX appeared at v9.1.0. */
export const aclrtMemHandleType = defineEnum('aclrtMemHandleType', {
  ACL_MEM_HANDLE_TYPE_NONE: 0,
  ACL_MEM_HANDLE_TYPE_POSIX: 2,
});

/** §3 aclrtMemAllocationType. */
export const aclrtMemAllocationType = defineEnum('aclrtMemAllocationType', {
  ACL_MEM_ALLOCATION_TYPE_PINNED: 0,
});

/** §3 aclrtMemLocationType. MANAGED (3) came after HOST_NUMA (4), which the header pins explicitly. */
export const aclrtMemLocationType = defineEnum('aclrtMemLocationType', {
  ACL_MEM_LOCATION_TYPE_HOST: 0,
  ACL_MEM_LOCATION_TYPE_DEVICE: 1,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED: 2,
  ACL_MEM_LOCATION_TYPE_MANAGED: 3,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA: 4,
});

/** §3 aclrtMemAccessFlags. A C enum, so kind 'enum'; READWRITE (0x3) is the only value the docs support. */
export const aclrtMemAccessFlags = defineEnum('aclrtMemAccessFlags', {
  ACL_RT_MEM_ACCESS_FLAGS_NONE: 0x0,
  ACL_RT_MEM_ACCESS_FLAGS_READ: 0x1,
  ACL_RT_MEM_ACCESS_FLAGS_READWRITE: 0x3,
});

/** §3 aclrtMemGranularityOptions. */
export const aclrtMemGranularityOptions = defineEnum('aclrtMemGranularityOptions', {
  ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM: 0,
  ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED: 1,
  ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF: 0xffff,
});

/** §3 aclrtHostRegisterType, for aclrtHostRegister. MAPPED is 0 here but 0x2 in ACL_HOST_REG. */
export const aclrtHostRegisterType = defineEnum('aclrtHostRegisterType', {
  ACL_HOST_REGISTER_MAPPED: 0,
  ACL_HOST_REGISTER_IOMEMORY: 0x04,
  ACL_HOST_REGISTER_READONLY: 0x08,
});

/** §3 host-register macros, the `uint32_t flag` of aclrtHostRegisterV2; e.g. MAPPED | PINNED. */
export const ACL_HOST_REG = defineEnum(
  'ACL_HOST_REG',
  {
    ACL_HOST_REG_MAPPED: 0x2,
    ACL_HOST_REG_IOMEMORY: 0x4,
    ACL_HOST_REG_READONLY: 0x8,
    ACL_HOST_REG_PINNED: 0x1000_0000,
  },
  'flags',
);

/**
 * The memType bits of aclrtCheckMemType, as acl_rt.h defines them (runtime-api.md §6). The open
 * runtime's own mask differs for the reserved bit: it accepts 0x2, 0x8 and 0x20 and reads 0x20 as
 * reserved VA (RT_MEM_MASK_RSVD_TYPE), so ACL_RT_MEM_TYPE_RSVD (0x10) is refused (DM-17).
 */
export const ACL_RT_MEM_TYPE = defineEnum(
  'ACL_RT_MEM_TYPE',
  {
    ACL_RT_MEM_TYPE_DEV: 0x2,
    ACL_RT_MEM_TYPE_DVPP: 0x8,
    ACL_RT_MEM_TYPE_RSVD: 0x10,
  },
  'flags',
);

/** The `flag` of aclrtValueWait: the condition on the 64-bit word (acl_rt.h; runtime-api.md §6). */
export const ACL_STREAM_WAIT_VALUE = defineEnum('ACL_STREAM_WAIT_VALUE', {
  ACL_STREAM_WAIT_VALUE_GEQ: 0x0,
  ACL_STREAM_WAIT_VALUE_EQ: 0x1,
  ACL_STREAM_WAIT_VALUE_AND: 0x2,
  ACL_STREAM_WAIT_VALUE_NOR: 0x3,
});

/** §3 aclrtMallocAttrType: which member of aclrtMallocAttrValue an aclrtMallocAttribute carries. */
export const aclrtMallocAttrType = defineEnum('aclrtMallocAttrType', {
  ACL_RT_MEM_ATTR_RSV: 0,
  ACL_RT_MEM_ATTR_MODULE_ID: 1,
  ACL_RT_MEM_ATTR_DEVICE_ID: 2,
  ACL_RT_MEM_ATTR_VA_FLAG: 3,
});

/** §3 aclrtMemSharedHandleType, for the V2 export/import calls. FABRIC is A3 only. */
export const aclrtMemSharedHandleType = defineEnum('aclrtMemSharedHandleType', {
  ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT: 0x1,
  ACL_MEM_SHARE_HANDLE_TYPE_FABRIC: 0x2,
});

/** §3 aclrtMemManagedLocationType. Note LOCATIONTYPE without the underscore of aclrtMemLocationType. */
export const aclrtMemManagedLocationType = defineEnum('aclrtMemManagedLocationType', {
  ACL_MEM_LOCATIONTYPE_INVALID: 0,
  ACL_MEM_LOCATIONTYPE_DEVICE: 1,
  ACL_MEM_LOCATIONTYPE_HOST: 2,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA: 3,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT: 4,
});

/** §3 aclrtHostMemMapCapability. §3 gives only the suffixes; the ACL_RT_HOST_MEM_MAP_ prefix is from acl_rt.h. */
export const aclrtHostMemMapCapability = defineEnum('aclrtHostMemMapCapability', {
  ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED: 0,
  ACL_RT_HOST_MEM_MAP_SUPPORTED: 1,
});

/** §3 aclrtLastErrLevel. */
export const aclrtLastErrLevel = defineEnum('aclrtLastErrLevel', {
  ACL_RT_THREAD_LEVEL: 0,
});

/** §3 aclrtRunMode. */
export const aclrtRunMode = defineEnum('aclrtRunMode', {
  ACL_DEVICE: 0,
  ACL_HOST: 1,
});

/**
 * §3 aclrtDevAttr, for aclrtGetDeviceInfo. Two values have a second, deprecated spelling in
 * some headers; the canonical name is declared first so nameOf returns it.
 */
export const aclrtDevAttr = defineEnum('aclrtDevAttr', {
  ACL_DEV_ATTR_AICPU_CORE_NUM: 1,
  ACL_DEV_ATTR_AICORE_CORE_NUM: 101,
  ACL_DEV_ATTR_CUBE_CORE_NUM: 102,
  ACL_DEV_ATTR_VECTOR_CORE_NUM: 201,
  ACL_DEV_ATTR_WARP_SIZE: 202,
  ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE: 203,
  ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE: 204,
  ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE: 204,
  ACL_DEV_ATTR_MAX_GRID_DIM_X: 205,
  ACL_DEV_ATTR_MAX_GRID_DIM_Y: 206,
  ACL_DEV_ATTR_MAX_GRID_DIM_Z: 207,
  ACL_DEV_ATTR_MAX_BLOCK_PER_GRID: 208,
  ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK: 209,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_X: 210,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Y: 211,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Z: 212,
  /** Bytes of device global memory. */
  ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: 301,
  ACL_DEV_ATTR_L2_CACHE_SIZE: 302,
  ACL_DEV_ATTR_SMP_ID: 401,
  ACL_DEV_ATTR_PHY_CHIP_ID: 402,
  ACL_DEV_ATTR_SUPER_POD_DEVICE_ID: 403,
  // Older headers and the enum docs spell 403 this way.
  ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID: 403,
  ACL_DEV_ATTR_SUPER_POD_SERVER_ID: 404,
  ACL_DEV_ATTR_SUPER_POD_ID: 405,
  ACL_DEV_ATTR_CUST_OP_PRIVILEGE: 406,
  ACL_DEV_ATTR_MAINBOARD_ID: 407,
  ACL_DEV_ATTR_HD_CONNECT_TYPE: 408,
  ACL_DEV_ATTR_DEVICE_FORM_FACTOR: 409,
  ACL_DEV_ATTR_IS_VIRTUAL: 501,
  ACL_DEV_ATTR_NPU_ARCH: 601,
});

/** §3 export-flag macros for aclrtMemExportToShareableHandle(V2). DEFAULT turns on the PID whitelist. */
export const ACL_RT_VMM_EXPORT_FLAG = defineEnum(
  'ACL_RT_VMM_EXPORT_FLAG',
  {
    ACL_RT_VMM_EXPORT_FLAG_DEFAULT: 0x0,
    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION: 0x1,
  },
  'flags',
);

/** §3 managed-allocation flag macro for aclrtMemAllocManaged. */
export const ACL_RT_MEM_ATTACH = defineEnum('ACL_RT_MEM_ATTACH', { ACL_RT_MEM_ATTACH_GLOBAL: 0x01 }, 'flags');
export const ACL_RT_MEM_ATTACH_GLOBAL = ACL_RT_MEM_ATTACH.byName.ACL_RT_MEM_ATTACH_GLOBAL;

/** aclrtStreamStatus, what aclrtStreamQuery writes (runtime-api.md §4). */
export const aclrtStreamStatus = defineEnum('aclrtStreamStatus', {
  ACL_STREAM_STATUS_COMPLETE: 0,
  ACL_STREAM_STATUS_NOT_READY: 1,
  ACL_STREAM_STATUS_RESERVED: 0xffff,
});

/** aclrtEventRecordedStatus, what aclrtQueryEventStatus writes: note COMPLETE is 1 here (runtime-api.md §5). */
export const aclrtEventRecordedStatus = defineEnum('aclrtEventRecordedStatus', {
  ACL_EVENT_RECORDED_STATUS_NOT_READY: 0,
  ACL_EVENT_RECORDED_STATUS_COMPLETE: 1,
});

/** Stream creation flag macros, the `uint32_t flag` of aclrtCreateStreamWithConfig (runtime-api.md §4). */
export const ACL_STREAM = defineEnum(
  'ACL_STREAM',
  {
    ACL_STREAM_FAST_LAUNCH: 0x01,
    ACL_STREAM_FAST_SYNC: 0x02,
    ACL_STREAM_PERSISTENT: 0x04,
    ACL_STREAM_HUGE: 0x08,
    ACL_STREAM_CPU_SCHEDULE: 0x10,
    ACL_STREAM_DEVICE_USE_ONLY: 0x20,
  },
  'flags',
);

/** Stream failure-mode macros, the `uint64_t mode` of aclrtSetStreamFailureMode (runtime-api.md §4, CP-7). */
export const ACL_FAILURE_MODE = defineEnum('ACL_FAILURE_MODE', { ACL_CONTINUE_ON_FAILURE: 0x0, ACL_STOP_ON_FAILURE: 0x1 }, 'enum', 'ACL_');

/** Event creation flag macros, the `uint32_t flag` of aclrtCreateEvent(Ex)WithFlag (runtime-api.md §5). */
export const ACL_EVENT = defineEnum(
  'ACL_EVENT',
  {
    ACL_EVENT_SYNC: 0x01,
    ACL_EVENT_CAPTURE_STREAM_PROGRESS: 0x02,
    ACL_EVENT_TIME_LINE: 0x08,
    ACL_EVENT_DEVICE_USE_ONLY: 0x10,
    ACL_EVENT_EXTERNAL: 0x20,
    ACL_EVENT_IPC: 0x40,
  },
  'flags',
);

/** IPC export flags, the `uint64_t flags` of aclrtIpcMemGetExportKey; DEFAULT turns on the PID allow-list (runtime-api.md §7). */
export const ACL_RT_IPC_MEM_EXPORT_FLAG = defineEnum(
  'ACL_RT_IPC_MEM_EXPORT_FLAG',
  { ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT: 0x0, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION: 0x1 },
  'flags',
);

/** IPC import flags, the `uint64_t flags` of aclrtIpcMemImportByKey (runtime-api.md §7). */
export const ACL_RT_IPC_MEM_IMPORT_FLAG = defineEnum(
  'ACL_RT_IPC_MEM_IMPORT_FLAG',
  { ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT: 0x0, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS: 0x1 },
  'flags',
);

/** The tables that are C enum types: each is a 4-byte scalar in a struct or an argument list. */
export const ACL_ENUM_TYPES: readonly AclEnum<string>[] = [
  aclrtMemMallocPolicy,
  aclrtMemcpyKind,
  aclrtMemAttr,
  aclrtMemHandleType,
  aclrtMemAllocationType,
  aclrtMemLocationType,
  aclrtMemAccessFlags,
  aclrtMemGranularityOptions,
  aclrtHostRegisterType,
  aclrtMallocAttrType,
  aclrtMemSharedHandleType,
  aclrtMemManagedLocationType,
  aclrtHostMemMapCapability,
  aclrtLastErrLevel,
  aclrtRunMode,
  aclrtDevAttr,
  aclrtStreamStatus,
  aclrtEventRecordedStatus,
];

/** `#define` families: names for integer literals, not types. */
export const ACL_MACRO_FAMILIES: readonly AclEnum<string>[] = [
  ACL_HOST_REG,
  ACL_RT_VMM_EXPORT_FLAG,
  ACL_RT_MEM_ATTACH,
  ACL_STREAM,
  ACL_FAILURE_MODE,
  ACL_EVENT,
  ACL_RT_IPC_MEM_EXPORT_FLAG,
  ACL_RT_IPC_MEM_IMPORT_FLAG,
  ACL_RT_MEM_TYPE,
  ACL_STREAM_WAIT_VALUE,
];

export const ALL_ENUMS: readonly AclEnum<string>[] = [...ACL_ENUM_TYPES, ...ACL_MACRO_FAMILIES];

const BY_C_NAME: ReadonlyMap<string, AclEnum<string>> = new Map(ALL_ENUMS.map((table) => [table.cName, table]));

/**
 * The table a catalogue type names, `{ t: 'enum', enum: 'aclrtMemcpyKind' }` → aclrtMemcpyKind (C
 * enum types and macro families alike); undefined for a name core does not define.
 */
export function enumByCName(cName: string): AclEnum<string> | undefined {
  return BY_C_NAME.get(cName);
}

/**
 * Merges table members and extra name → value pairs into one map. Throws when one name would
 * get two values, since a C identifier can only mean one thing.
 */
export function collectConstants(tables: readonly AclEnum<string>[], extra: Iterable<readonly [string, number]>): Map<string, number> {
  const constants = new Map<string, number>();
  const register = (name: string, value: number, source: string) => {
    const previous = constants.get(name);
    if (previous !== undefined && previous !== value) {
      throw new Error(`${name} is ${previous} and also ${value} (${source}); one identifier cannot have two values`);
    }
    constants.set(name, value);
  };
  for (const table of tables) {
    for (const [name, value] of Object.entries(table.byName)) register(name, value, table.cName);
  }
  for (const [name, value] of extra) register(name, value, 'extra');
  return constants;
}

/**
 * Every identifier of §3 and §6 → its value, for resolving names in C source such as
 * `ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED`. Throws at module load if one name has two values.
 */
export const ACL_CONSTANTS: ReadonlyMap<string, number> = collectConstants(ALL_ENUMS, ACL_ERROR_CONSTANTS);
