import { describe, expect, it } from 'vitest';
import { type AclEnum, defineEnum, flagNames, shortName } from './enum-table.ts';
import * as exported from './enums.ts';
import {
  ACL_CONSTANTS,
  ACL_ENUM_TYPES,
  ACL_HOST_REG,
  ACL_MACRO_FAMILIES,
  ACL_RT_MEM_ATTACH_GLOBAL,
  ACL_RT_VMM_EXPORT_FLAG,
  ALL_ENUMS,
  aclrtDevAttr,
  aclrtHostMemMapCapability,
  aclrtHostRegisterType,
  aclrtMallocAttrType,
  aclrtMemAccessFlags,
  aclrtMemAllocationType,
  aclrtMemAttr,
  aclrtMemcpyKind,
  aclrtMemGranularityOptions,
  aclrtMemHandleType,
  aclrtMemLocationType,
  aclrtMemMallocPolicy,
  aclrtMemManagedLocationType,
  aclrtMemSharedHandleType,
  collectConstants,
  enumByCName,
  MEM_POLICY_MASK,
  MEM_TYPE_MASK,
} from './enums.ts';

// Expected values are typed in again from acl-api.md §3 rather than read from the tables.
describe('enum values (acl-api.md §3)', () => {
  const cases: [string, Readonly<Record<string, number>>, [string, number][]][] = [
    [
      'aclrtMemMallocPolicy',
      aclrtMemMallocPolicy.byName,
      [
        ['ACL_MEM_MALLOC_HUGE_FIRST', 0],
        ['ACL_MEM_MALLOC_HUGE_ONLY', 1],
        ['ACL_MEM_MALLOC_NORMAL_ONLY', 2],
        ['ACL_MEM_MALLOC_HUGE_FIRST_P2P', 3],
        ['ACL_MEM_MALLOC_HUGE_ONLY_P2P', 4],
        ['ACL_MEM_MALLOC_NORMAL_ONLY_P2P', 5],
        ['ACL_MEM_MALLOC_HUGE1G_ONLY', 6],
        ['ACL_MEM_MALLOC_HUGE1G_ONLY_P2P', 7],
        ['ACL_MEM_TYPE_LOW_BAND_WIDTH', 256],
        ['ACL_MEM_TYPE_HIGH_BAND_WIDTH', 4096],
        ['ACL_MEM_ACCESS_USER_SPACE_READONLY', 1048576],
      ],
    ],
    [
      'aclrtMemAttr',
      aclrtMemAttr.byName,
      [
        ['ACL_DDR_MEM', 0],
        ['ACL_HBM_MEM', 1],
        ['ACL_DDR_MEM_HUGE', 2],
        ['ACL_DDR_MEM_NORMAL', 3],
        ['ACL_HBM_MEM_HUGE', 4],
        ['ACL_HBM_MEM_NORMAL', 5],
        ['ACL_DDR_MEM_P2P_HUGE', 6],
        ['ACL_DDR_MEM_P2P_NORMAL', 7],
        ['ACL_HBM_MEM_P2P_HUGE', 8],
        ['ACL_HBM_MEM_P2P_NORMAL', 9],
        ['ACL_HBM_MEM_HUGE1G', 10],
        ['ACL_HBM_MEM_P2P_HUGE1G', 11],
        ['ACL_MEM_NORMAL', 12],
        ['ACL_MEM_HUGE', 13],
        ['ACL_MEM_HUGE1G', 14],
        ['ACL_MEM_P2P_NORMAL', 15],
        ['ACL_MEM_P2P_HUGE', 16],
        ['ACL_MEM_P2P_HUGE1G', 17],
      ],
    ],
    [
      'aclrtMemcpyKind',
      aclrtMemcpyKind.byName,
      [
        ['ACL_MEMCPY_HOST_TO_HOST', 0],
        ['ACL_MEMCPY_HOST_TO_DEVICE', 1],
        ['ACL_MEMCPY_DEVICE_TO_HOST', 2],
        ['ACL_MEMCPY_DEVICE_TO_DEVICE', 3],
        ['ACL_MEMCPY_DEFAULT', 4],
        ['ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE', 5],
        ['ACL_MEMCPY_INNER_DEVICE_TO_DEVICE', 6],
        ['ACL_MEMCPY_INTER_DEVICE_TO_DEVICE', 7],
      ],
    ],
    [
      'aclrtMemHandleType',
      aclrtMemHandleType.byName,
      [
        ['ACL_MEM_HANDLE_TYPE_NONE', 0],
        ['ACL_MEM_HANDLE_TYPE_POSIX', 2],
      ],
    ],
    ['aclrtMemAllocationType', aclrtMemAllocationType.byName, [['ACL_MEM_ALLOCATION_TYPE_PINNED', 0]]],
    [
      'aclrtMemLocationType',
      aclrtMemLocationType.byName,
      [
        ['ACL_MEM_LOCATION_TYPE_HOST', 0],
        ['ACL_MEM_LOCATION_TYPE_DEVICE', 1],
        ['ACL_MEM_LOCATION_TYPE_UNREGISTERED', 2],
        ['ACL_MEM_LOCATION_TYPE_MANAGED', 3],
        ['ACL_MEM_LOCATION_TYPE_HOST_NUMA', 4],
      ],
    ],
    [
      'aclrtMemAccessFlags',
      aclrtMemAccessFlags.byName,
      [
        ['ACL_RT_MEM_ACCESS_FLAGS_NONE', 0],
        ['ACL_RT_MEM_ACCESS_FLAGS_READ', 1],
        ['ACL_RT_MEM_ACCESS_FLAGS_READWRITE', 3],
      ],
    ],
    [
      'aclrtMemGranularityOptions',
      aclrtMemGranularityOptions.byName,
      [
        ['ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM', 0],
        ['ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED', 1],
        ['ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF', 0xffff],
      ],
    ],
    [
      'aclrtHostRegisterType',
      aclrtHostRegisterType.byName,
      [
        ['ACL_HOST_REGISTER_MAPPED', 0],
        ['ACL_HOST_REGISTER_IOMEMORY', 4],
        ['ACL_HOST_REGISTER_READONLY', 8],
      ],
    ],
    [
      'ACL_HOST_REG',
      ACL_HOST_REG.byName,
      [
        ['ACL_HOST_REG_MAPPED', 0x2],
        ['ACL_HOST_REG_IOMEMORY', 0x4],
        ['ACL_HOST_REG_READONLY', 0x8],
        ['ACL_HOST_REG_PINNED', 0x10000000],
      ],
    ],
    [
      'aclrtMallocAttrType',
      aclrtMallocAttrType.byName,
      [
        ['ACL_RT_MEM_ATTR_RSV', 0],
        ['ACL_RT_MEM_ATTR_MODULE_ID', 1],
        ['ACL_RT_MEM_ATTR_DEVICE_ID', 2],
        ['ACL_RT_MEM_ATTR_VA_FLAG', 3],
      ],
    ],
    [
      'aclrtMemSharedHandleType',
      aclrtMemSharedHandleType.byName,
      [
        ['ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT', 1],
        ['ACL_MEM_SHARE_HANDLE_TYPE_FABRIC', 2],
      ],
    ],
    [
      'aclrtMemManagedLocationType',
      aclrtMemManagedLocationType.byName,
      [
        ['ACL_MEM_LOCATIONTYPE_INVALID', 0],
        ['ACL_MEM_LOCATIONTYPE_DEVICE', 1],
        ['ACL_MEM_LOCATIONTYPE_HOST', 2],
        ['ACL_MEM_LOCATIONTYPE_HOST_NUMA', 3],
        ['ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT', 4],
      ],
    ],
    [
      'aclrtHostMemMapCapability',
      aclrtHostMemMapCapability.byName,
      [
        ['ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED', 0],
        ['ACL_RT_HOST_MEM_MAP_SUPPORTED', 1],
      ],
    ],
    [
      'ACL_RT_VMM_EXPORT_FLAG',
      ACL_RT_VMM_EXPORT_FLAG.byName,
      [
        ['ACL_RT_VMM_EXPORT_FLAG_DEFAULT', 0],
        ['ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION', 1],
      ],
    ],
  ];

  it.each(cases)('%s has exactly the documented members', (_cName, byName, expected) => {
    expect(Object.entries(byName)).toEqual(expected);
  });

  it.each([
    ['ACL_DEV_ATTR_AICPU_CORE_NUM', 1],
    ['ACL_DEV_ATTR_WARP_SIZE', 202],
    ['ACL_DEV_ATTR_MAX_GRID_DIM_Z', 207],
    ['ACL_DEV_ATTR_MAX_BLOCK_DIM_Z', 212],
    ['ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE', 301],
    ['ACL_DEV_ATTR_HD_CONNECT_TYPE', 408],
    ['ACL_DEV_ATTR_IS_VIRTUAL', 501],
    ['ACL_DEV_ATTR_NPU_ARCH', 601],
  ])('aclrtDevAttr %s = %i', (name, value) => {
    expect(aclrtDevAttr.valueOf(name)).toBe(value);
  });

  it('aclrtDevAttr aliases resolve to the canonical name', () => {
    expect(aclrtDevAttr.valueOf('ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE')).toBe(204);
    expect(aclrtDevAttr.nameOf(204)).toBe('ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE');
    expect(aclrtDevAttr.nameOf(403)).toBe('ACL_DEV_ATTR_SUPER_POD_DEVICE_ID');
  });

  it('keeps the policy and type masks of DevMalloc', () => {
    expect(MEM_POLICY_MASK).toBe(0xff);
    expect(MEM_TYPE_MASK).toBe(0x1100);
    const combined = aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_NORMAL_ONLY | aclrtMemMallocPolicy.byName.ACL_MEM_TYPE_HIGH_BAND_WIDTH;
    expect(combined & MEM_POLICY_MASK).toBe(2);
    expect(combined & MEM_TYPE_MASK).toBe(0x1000);
    expect(ACL_RT_MEM_ATTACH_GLOBAL).toBe(1);
  });
});

describe('name ↔ value', () => {
  it.each([
    [aclrtMemMallocPolicy, 'ACL_MEM_MALLOC_HUGE_FIRST', 0],
    [aclrtMemMallocPolicy, 'ACL_MEM_MALLOC_HUGE1G_ONLY_P2P', 7],
    [aclrtMemAttr, 'ACL_HBM_MEM_HUGE', 4],
    [aclrtMemcpyKind, 'ACL_MEMCPY_DEVICE_TO_HOST', 2],
    [ACL_HOST_REG, 'ACL_HOST_REG_PINNED', 0x10000000],
  ])('%# %s ↔ %i', (table, name, value) => {
    expect(table.valueOf(name)).toBe(value);
    expect(table.nameOf(value)).toBe(name);
    expect(table.has(name)).toBe(true);
  });

  it('answers undefined for names and values it does not have', () => {
    expect(aclrtMemMallocPolicy.nameOf(8)).toBeUndefined();
    expect(aclrtMemMallocPolicy.valueOf('ACL_MEM_MALLOC_HUGE_LAST')).toBeUndefined();
    expect(aclrtMemMallocPolicy.has('toString')).toBe(false);
    expect(aclrtMemAttr.valueOf('constructor')).toBeUndefined();
  });

  it('MAPPED is 2 as a macro but 0 in aclrtHostRegisterType', () => {
    expect(ACL_HOST_REG.byName.ACL_HOST_REG_MAPPED).toBe(2);
    expect(aclrtHostRegisterType.byName.ACL_HOST_REGISTER_MAPPED).toBe(0);
    expect(ACL_CONSTANTS.get('ACL_HOST_REG_MAPPED')).toBe(2);
    expect(ACL_CONSTANTS.get('ACL_HOST_REGISTER_MAPPED')).toBe(0);
  });

  it('lists names in declaration order', () => {
    expect(aclrtMemLocationType.names).toEqual([
      'ACL_MEM_LOCATION_TYPE_HOST',
      'ACL_MEM_LOCATION_TYPE_DEVICE',
      'ACL_MEM_LOCATION_TYPE_UNREGISTERED',
      'ACL_MEM_LOCATION_TYPE_MANAGED',
      'ACL_MEM_LOCATION_TYPE_HOST_NUMA',
    ]);
  });
});

describe('defineEnum', () => {
  it('rejects values that do not fit a 4-byte enum', () => {
    expect(() => defineEnum('bad', { NEGATIVE: -1 })).toThrow(/NEGATIVE/);
    expect(() => defineEnum('bad', { HUGE: 2 ** 32 })).toThrow(/HUGE/);
    expect(() => defineEnum('bad', { HALF: 0.5 })).toThrow(/HALF/);
  });

  it('defaults to kind enum', () => {
    expect(aclrtMemMallocPolicy.kind).toBe('enum');
    expect(ACL_HOST_REG.kind).toBe('flags');
  });
});

describe('the lists of tables', () => {
  it('name every table enums.ts exports, so a new one cannot be left out of lookups and ACL_CONSTANTS', () => {
    const values: readonly unknown[] = Object.values(exported);
    const tables = values.filter(
      (value): value is AclEnum<string> => typeof value === 'object' && value !== null && 'cName' in value && 'byName' in value,
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const table of tables) expect(ALL_ENUMS, table.cName).toContain(table);
  });
});

describe('enumByCName', () => {
  it('finds C enum types and macro families by their C name, and nothing else', () => {
    expect(enumByCName('aclrtMemcpyKind')).toBe(aclrtMemcpyKind);
    expect(enumByCName('ACL_HOST_REG')).toBe(ACL_HOST_REG);
    for (const table of ALL_ENUMS) expect(enumByCName(table.cName)).toBe(table);
    expect(enumByCName('aclrtMemLocation')).toBeUndefined();
    expect(enumByCName('constructor')).toBeUndefined();
  });
});

describe('shortName', () => {
  it.each([
    [aclrtMemcpyKind, 'ACL_MEMCPY_HOST_TO_DEVICE', 'HOST_TO_DEVICE'],
    [aclrtMemcpyKind, 1, 'HOST_TO_DEVICE'],
    [aclrtMallocAttrType, 'ACL_RT_MEM_ATTR_VA_FLAG', 'VA_FLAG'],
    [aclrtMemMallocPolicy, 'ACL_MEM_MALLOC_HUGE1G_ONLY_P2P', 'HUGE1G_ONLY_P2P'],
    [aclrtMemMallocPolicy, 0, 'HUGE_FIRST'],
    // The bandwidth bits do not carry the base policies' prefix, so they keep their whole name.
    [aclrtMemMallocPolicy, 'ACL_MEM_TYPE_HIGH_BAND_WIDTH', 'ACL_MEM_TYPE_HIGH_BAND_WIDTH'],
    [aclrtMemAllocationType, 'ACL_MEM_ALLOCATION_TYPE_PINNED', 'PINNED'],
    [ACL_HOST_REG, 'ACL_HOST_REG_PINNED', 'PINNED'],
    [aclrtMemcpyKind, 99, '99'],
  ] as const)('%# (%s, %s) → %s', (table, member, expected) => {
    expect(shortName(table, member)).toBe(expected);
  });

  it('takes the prefix every member shares, up to an underscore', () => {
    expect(aclrtMemcpyKind.prefix).toBe('ACL_MEMCPY_');
    expect(aclrtMemLocationType.prefix).toBe('ACL_MEM_LOCATION_TYPE_');
    expect(defineEnum('t', { ACL_AB_X: 0, ACL_AC_Y: 1 }).prefix).toBe('ACL_');
    expect(defineEnum('t', {}).prefix).toBe('');
  });
});

describe('flagNames', () => {
  it.each([
    [ACL_HOST_REG, 0x10000002, ['ACL_HOST_REG_MAPPED', 'ACL_HOST_REG_PINNED']],
    [ACL_HOST_REG, 0x2 | 0x8, ['ACL_HOST_REG_MAPPED', 'ACL_HOST_REG_READONLY']],
    [ACL_HOST_REG, 0x10000003, ['ACL_HOST_REG_MAPPED', 'ACL_HOST_REG_PINNED', '0x1']],
    [ACL_HOST_REG, 0x80000000, ['0x80000000']],
    [ACL_HOST_REG, 0, []],
    [ACL_RT_VMM_EXPORT_FLAG, 0, ['ACL_RT_VMM_EXPORT_FLAG_DEFAULT']],
    [ACL_RT_VMM_EXPORT_FLAG, 1, ['ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION']],
    [aclrtMemAccessFlags, 0x3, ['ACL_RT_MEM_ACCESS_FLAGS_READWRITE']],
    [aclrtMemAccessFlags, 0x1, ['ACL_RT_MEM_ACCESS_FLAGS_READ']],
  ])('%# flagNames(%s, %i)', (table, value, expected) => {
    expect(flagNames(table, value)).toEqual(expected);
  });
});

describe('ACL_CONSTANTS', () => {
  it('holds every member of every table with its value', () => {
    for (const table of ALL_ENUMS) {
      for (const [name, value] of Object.entries(table.byName)) expect(ACL_CONSTANTS.get(name), name).toBe(value);
    }
  });

  it('resolves success spellings and error names', () => {
    expect(ACL_CONSTANTS.get('ACL_SUCCESS')).toBe(0);
    expect(ACL_CONSTANTS.get('ACL_ERROR_NONE')).toBe(0);
    expect(ACL_CONSTANTS.get('ACL_RT_SUCCESS')).toBe(0);
    expect(ACL_CONSTANTS.get('ACL_ERROR_RT_MEMORY_ALLOCATION')).toBe(207001);
    expect(ACL_CONSTANTS.get('ACL_ERROR_INVALID_PARAM')).toBe(100000);
    expect(ACL_CONSTANTS.get('ACL_ERROR_RT_DEVIDE_OOM')).toBe(207018);
  });

  it('evaluates an OR of macros the way C does', () => {
    const value = (ACL_CONSTANTS.get('ACL_HOST_REG_PINNED') ?? 0) | (ACL_CONSTANTS.get('ACL_HOST_REG_MAPPED') ?? 0);
    expect(value).toBe(0x10000002);
  });

  it('refuses one name with two values', () => {
    const first = defineEnum('first', { ACL_X: 1 });
    const second = defineEnum('second', { ACL_X: 2 });
    expect(() => collectConstants([first, second], [])).toThrow(/ACL_X is 1 and also 2/);
    expect(() => collectConstants([first], [['ACL_X', 3]])).toThrow(/ACL_X/);
    expect(collectConstants([first, first], [['ACL_X', 1]]).get('ACL_X')).toBe(1);
  });

  it('does not contain PageLens-only names', () => {
    expect(ACL_CONSTANTS.has('MEM_POLICY_MASK')).toBe(false);
    expect(ACL_CONSTANTS.has('aclrtMemAttr')).toBe(false);
  });

  it('counts every table member once', () => {
    const tableMembers = ALL_ENUMS.reduce((sum, table) => sum + table.names.length, 0);
    // 213 error codes + 3 success spellings + 1 alias (DEVIDE).
    expect(ACL_CONSTANTS.size).toBe(tableMembers + 213 + 3 + 1);
    expect(ALL_ENUMS.length).toBe(ACL_ENUM_TYPES.length + ACL_MACRO_FAMILIES.length);
    expect(ACL_ENUM_TYPES.length).toBe(18);
  });
});
