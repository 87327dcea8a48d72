import { ACL_ENUM_TYPES, aclrtMallocAttrType } from './enums.ts';

/*
 * The structs of acl-api.md §4 as values (interfaces) and as memory (STRUCT_LAYOUTS).
 * Interfaces keep the C type and field names. Enum fields are plain numbers, since C lets any
 * int through and the simulator must be able to hold (and reject) out-of-range values.
 * uint64/size_t byte counts are numbers: exact up to 2^53 bytes, far past any device.
 */

export interface aclrtMemLocation {
  /** Device id for DEVICE, NUMA node for HOST_NUMA, ignored (0) for HOST. */
  readonly id: number;
  /** aclrtMemLocationType. */
  readonly type: number;
}

export interface aclrtPhysicalMemProp {
  /** aclrtMemHandleType; must be NONE. */
  readonly handleType: number;
  /** aclrtMemAllocationType; must be PINNED. */
  readonly allocationType: number;
  /** aclrtMemAttr: the page kind and pool of the physical memory. */
  readonly memAttr: number;
  readonly location: aclrtMemLocation;
  /** Must be 0. */
  readonly reserve: number;
}

export interface aclrtMemAccessDesc {
  /** aclrtMemAccessFlags. */
  readonly flags: number;
  readonly location: aclrtMemLocation;
  /** 12 bytes in C that must all be 0; absent means zeros. */
  readonly rsv?: readonly number[];
}

export interface aclrtMemUsageInfo {
  /** The component's name (at most 31 characters). */
  readonly name: string;
  /** Bytes. */
  readonly curMemSize: number;
  /** Bytes. */
  readonly memPeakSize: number;
}

/** One run of an aclrtMemcpyBatch: where its copies' destinations and sources are. */
export interface aclrtMemcpyBatchAttr {
  readonly dstLoc: aclrtMemLocation;
  readonly srcLoc: aclrtMemLocation;
  /** 16 bytes in C that must all be 0; absent means zeros. */
  readonly rsv?: readonly number[];
}

export interface aclrtPtrAttributes {
  readonly location: aclrtMemLocation;
  /** Bytes. */
  readonly pageSize: number;
  /** 4 × uint32 in C; absent means zeros. */
  readonly rsv?: readonly number[];
}

/**
 * A C union: all members share the same 8 bytes and the runtime reads only the one that the
 * enclosing aclrtMallocAttribute.attr selects (MODULE_ID → moduleId, DEVICE_ID → deviceId,
 * VA_FLAG → vaFlag). Here a value sets just that member; the rsv[8] member is left out because
 * ACL_RT_MEM_ATTR_RSV carries no value.
 */
export interface aclrtMallocAttrValue {
  /** uint16; the docs recommend 33 ("APP"). */
  readonly moduleId?: number;
  /** Must equal the current device. */
  readonly deviceId?: number;
  /** 0 or 1; with 1, aclrtHostRegister returns a device VA equal to the host VA (A2/A3 only). */
  readonly vaFlag?: number;
}

/** The member of aclrtMallocAttrValue that an attribute type selects; undefined for RSV and unknown types. */
export function mallocAttrMember(attr: number): keyof aclrtMallocAttrValue | undefined {
  switch (attr) {
    case aclrtMallocAttrType.byName.ACL_RT_MEM_ATTR_MODULE_ID:
      return 'moduleId';
    case aclrtMallocAttrType.byName.ACL_RT_MEM_ATTR_DEVICE_ID:
      return 'deviceId';
    case aclrtMallocAttrType.byName.ACL_RT_MEM_ATTR_VA_FLAG:
      return 'vaFlag';
    default:
      return undefined;
  }
}

export interface aclrtMallocAttribute {
  /** aclrtMallocAttrType. */
  readonly attr: number;
  readonly value: aclrtMallocAttrValue;
}

/**
 * In C, `attrs` is a pointer and `numAttrs` how many elements the runtime reads from it. Both
 * are kept because they can disagree in a caller's code (numAttrs 0 with attrs set, or a count
 * past the array), and the simulator has to see that to answer as the runtime would.
 */
export interface aclrtMallocConfig {
  readonly attrs: readonly aclrtMallocAttribute[];
  readonly numAttrs: number;
}

export interface aclrtMemUsageInfo {
  /** char[32] in C, NUL-terminated. */
  readonly name: string;
  /** Bytes. */
  readonly curMemSize: number;
  /** Bytes. */
  readonly memPeakSize: number;
  /** 8 × size_t in C; absent means zeros. */
  readonly reserved?: readonly number[];
}

/** Field order is type then id: the reverse of aclrtMemLocation. */
export interface aclrtMemManagedLocation {
  /** aclrtMemManagedLocationType. */
  readonly type: number;
  readonly id: number;
}

/** The header gives no unit for the four utilisation figures. */
export interface aclrtUtilizationInfo {
  readonly cubeUtilization: number;
  readonly vectorUtilization: number;
  readonly aicpuUtilization: number;
  readonly memoryUtilization: number;
  /** A pointer that must be NULL. */
  readonly utilizationExtend?: null;
}

export interface CFieldLayout {
  readonly name: string;
  /** Bytes from the start of the struct. */
  readonly offset: number;
  /** A C scalar, enum, struct or pointer type that sizeOfCType understands. */
  readonly ctype: string;
  /** Element count for a fixed array such as `uint8_t rsv[12]`; absent for a single value. */
  readonly count?: number;
}

export interface CStructLayout {
  readonly kind: 'struct' | 'union';
  /** Bytes, including tail padding. */
  readonly size: number;
  /** Bytes. */
  readonly align: number;
  /** In declaration order. */
  readonly fields: readonly CFieldLayout[];
}

export type AclStructName =
  | 'aclrtMemLocation'
  | 'aclrtPhysicalMemProp'
  | 'aclrtMemAccessDesc'
  | 'aclrtPtrAttributes'
  | 'aclrtMallocAttrValue'
  | 'aclrtMallocAttribute'
  | 'aclrtMallocConfig'
  | 'aclrtMemUsageInfo'
  | 'aclrtMemcpyBatchAttr'
  | 'aclrtMemFabricHandle'
  | 'aclrtMemManagedLocation'
  | 'aclrtUtilizationInfo'
  | 'aclCANNPackageVersion';

/** §4, LP64 Linux (gcc on x86_64; aarch64 uses the same natural alignment). */
export const STRUCT_LAYOUTS: Readonly<Record<AclStructName, CStructLayout>> = {
  aclrtMemLocation: {
    kind: 'struct',
    size: 8,
    align: 4,
    fields: [
      { name: 'id', offset: 0, ctype: 'uint32_t' },
      { name: 'type', offset: 4, ctype: 'aclrtMemLocationType' },
    ],
  },
  // 4 bytes of padding at 20 so that the uint64 `reserve` sits on an 8-byte boundary.
  aclrtPhysicalMemProp: {
    kind: 'struct',
    size: 32,
    align: 8,
    fields: [
      { name: 'handleType', offset: 0, ctype: 'aclrtMemHandleType' },
      { name: 'allocationType', offset: 4, ctype: 'aclrtMemAllocationType' },
      { name: 'memAttr', offset: 8, ctype: 'aclrtMemAttr' },
      { name: 'location', offset: 12, ctype: 'aclrtMemLocation' },
      { name: 'reserve', offset: 24, ctype: 'uint64_t' },
    ],
  },
  aclrtMemAccessDesc: {
    kind: 'struct',
    size: 24,
    align: 4,
    fields: [
      { name: 'flags', offset: 0, ctype: 'aclrtMemAccessFlags' },
      { name: 'location', offset: 4, ctype: 'aclrtMemLocation' },
      { name: 'rsv', offset: 12, ctype: 'uint8_t', count: 12 },
    ],
  },
  aclrtPtrAttributes: {
    kind: 'struct',
    size: 28,
    align: 4,
    fields: [
      { name: 'location', offset: 0, ctype: 'aclrtMemLocation' },
      { name: 'pageSize', offset: 8, ctype: 'uint32_t' },
      { name: 'rsv', offset: 12, ctype: 'uint32_t', count: 4 },
    ],
  },
  aclrtMallocAttrValue: {
    kind: 'union',
    size: 8,
    align: 4,
    fields: [
      { name: 'moduleId', offset: 0, ctype: 'uint16_t' },
      { name: 'deviceId', offset: 0, ctype: 'uint32_t' },
      { name: 'vaFlag', offset: 0, ctype: 'uint32_t' },
      { name: 'rsv', offset: 0, ctype: 'uint8_t', count: 8 },
    ],
  },
  aclrtMallocAttribute: {
    kind: 'struct',
    size: 12,
    align: 4,
    fields: [
      { name: 'attr', offset: 0, ctype: 'aclrtMallocAttrType' },
      { name: 'value', offset: 4, ctype: 'aclrtMallocAttrValue' },
    ],
  },
  aclrtMallocConfig: {
    kind: 'struct',
    size: 16,
    align: 8,
    fields: [
      { name: 'attrs', offset: 0, ctype: 'aclrtMallocAttribute *' },
      { name: 'numAttrs', offset: 8, ctype: 'size_t' },
    ],
  },
  aclrtMemUsageInfo: {
    kind: 'struct',
    size: 112,
    align: 8,
    fields: [
      { name: 'name', offset: 0, ctype: 'char', count: 32 },
      { name: 'curMemSize', offset: 32, ctype: 'uint64_t' },
      { name: 'memPeakSize', offset: 40, ctype: 'uint64_t' },
      { name: 'reserved', offset: 48, ctype: 'size_t', count: 8 },
    ],
  },
  // runtime-api.md §6: two aclrtMemLocation then uint8_t rsv[16], 32 bytes, 4-aligned.
  aclrtMemcpyBatchAttr: {
    kind: 'struct',
    size: 32,
    align: 4,
    fields: [
      { name: 'dstLoc', offset: 0, ctype: 'aclrtMemLocation' },
      { name: 'srcLoc', offset: 8, ctype: 'aclrtMemLocation' },
      { name: 'rsv', offset: 16, ctype: 'uint8_t', count: 16 },
    ],
  },
  aclrtMemFabricHandle: {
    kind: 'struct',
    size: 128,
    align: 1,
    fields: [{ name: 'data', offset: 0, ctype: 'uint8_t', count: 128 }],
  },
  aclrtMemManagedLocation: {
    kind: 'struct',
    size: 8,
    align: 4,
    fields: [
      { name: 'type', offset: 0, ctype: 'aclrtMemManagedLocationType' },
      { name: 'id', offset: 4, ctype: 'int32_t' },
    ],
  },
  aclrtUtilizationInfo: {
    kind: 'struct',
    size: 24,
    align: 8,
    fields: [
      { name: 'cubeUtilization', offset: 0, ctype: 'int32_t' },
      { name: 'vectorUtilization', offset: 4, ctype: 'int32_t' },
      { name: 'aicpuUtilization', offset: 8, ctype: 'int32_t' },
      { name: 'memoryUtilization', offset: 12, ctype: 'int32_t' },
      { name: 'utilizationExtend', offset: 16, ctype: 'aclrtUtilizationExtendInfo *' },
    ],
  },
  aclCANNPackageVersion: {
    kind: 'struct',
    size: 512,
    align: 1,
    fields: [
      { name: 'version', offset: 0, ctype: 'char', count: 128 },
      { name: 'majorVersion', offset: 128, ctype: 'char', count: 64 },
      { name: 'minorVersion', offset: 192, ctype: 'char', count: 64 },
      { name: 'releaseVersion', offset: 256, ctype: 'char', count: 64 },
      { name: 'patchVersion', offset: 320, ctype: 'char', count: 64 },
      { name: 'reserved', offset: 384, ctype: 'char', count: 128 },
    ],
  },
};

const POINTER_SIZE = 8;

/** LP64 Linux (§2). Enum types are added from enums.ts; every pointer is 8 whatever it points to. */
export const C_SCALAR_SIZES: Readonly<Record<string, number>> = Object.freeze({
  char: 1,
  'signed char': 1,
  'unsigned char': 1,
  int8_t: 1,
  uint8_t: 1,
  bool: 1,
  short: 2,
  'unsigned short': 2,
  int16_t: 2,
  uint16_t: 2,
  aclFloat16: 2,
  int: 4,
  'unsigned int': 4,
  unsigned: 4,
  int32_t: 4,
  uint32_t: 4,
  float: 4,
  aclError: 4,
  ...Object.fromEntries(ACL_ENUM_TYPES.map((e) => [e.cName, 4])),
  long: 8,
  'unsigned long': 8,
  'long long': 8,
  'unsigned long long': 8,
  size_t: 8,
  ssize_t: 8,
  intptr_t: 8,
  uintptr_t: 8,
  int64_t: 8,
  uint64_t: 8,
  double: 8,
  'void*': POINTER_SIZE,
  aclrtStream: POINTER_SIZE,
  aclrtContext: POINTER_SIZE,
  aclrtEvent: POINTER_SIZE,
  aclrtDrvMemHandle: POINTER_SIZE,
});

export function isAclStructName(name: string): name is AclStructName {
  return Object.hasOwn(STRUCT_LAYOUTS, name);
}

/** `const  struct X *` → `X*`: drops qualifiers and tag keywords, and the spaces around `*`. */
function normalizeCType(name: string): string {
  return name
    .replace(/\b(const|volatile|struct|union|enum)\b/g, ' ')
    .replace(/\s*\*\s*/g, '*')
    .replace(/\s+/g, ' ')
    .trim();
}

interface SizeAlign {
  readonly size: number;
  readonly align: number;
}

function sizeAndAlign(name: string): SizeAlign | undefined {
  const type = normalizeCType(name);
  const array = /^(.+?)\s*\[(\d+)\]$/.exec(type);
  if (array !== null) {
    const element = sizeAndAlign(array[1] ?? '');
    return element && { size: element.size * Number(array[2]), align: element.align };
  }
  if (type.endsWith('*')) return { size: POINTER_SIZE, align: POINTER_SIZE };
  if (Object.hasOwn(C_SCALAR_SIZES, type)) {
    const size = C_SCALAR_SIZES[type];
    return size === undefined ? undefined : { size, align: size };
  }
  if (isAclStructName(type)) {
    const { size, align } = STRUCT_LAYOUTS[type];
    return { size, align };
  }
  return undefined;
}

/**
 * Bytes of a C type on LP64 Linux: scalar and handle typedefs, enum types from enums.ts, structs
 * from STRUCT_LAYOUTS, any pointer (`T*`, `void **`) and fixed arrays (`char[32]`). Undefined
 * for a name it does not know, so a caller can report it rather than guess.
 */
export function sizeOfCType(name: string): number | undefined {
  return sizeAndAlign(name)?.size;
}

/** Alignment in bytes of the same types; scalars and pointers align to their size. */
export function alignOfCType(name: string): number | undefined {
  return sizeAndAlign(name)?.align;
}
