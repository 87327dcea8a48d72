import { describe, expect, it } from 'vitest';
import { ACL_ENUM_TYPES } from './enums.ts';
import {
  type AclStructName,
  alignOfCType,
  C_SCALAR_SIZES,
  type CStructLayout,
  isAclStructName,
  STRUCT_LAYOUTS,
  sizeOfCType,
} from './structs.ts';

const layouts = Object.entries(STRUCT_LAYOUTS);

function roundUp(value: number, align: number): number {
  return Math.ceil(value / align) * align;
}

/** Lays the fields out again with the C rules (natural alignment, tail padding) from their ctypes. */
function recompute(layout: CStructLayout): { offsets: number[]; size: number; align: number } {
  let end = 0;
  let align = 1;
  const offsets: number[] = [];
  for (const field of layout.fields) {
    const fieldAlign = alignOfCType(field.ctype) ?? Number.NaN;
    const fieldSize = (sizeOfCType(field.ctype) ?? Number.NaN) * (field.count ?? 1);
    align = Math.max(align, fieldAlign);
    const offset = layout.kind === 'union' ? 0 : roundUp(end, fieldAlign);
    offsets.push(offset);
    end = layout.kind === 'union' ? Math.max(end, fieldSize) : offset + fieldSize;
  }
  return { offsets, size: roundUp(end, align), align };
}

describe('STRUCT_LAYOUTS (acl-api.md §4)', () => {
  it.each([
    ['aclrtMemLocation', 8, 4],
    ['aclrtPhysicalMemProp', 32, 8],
    ['aclrtMemAccessDesc', 24, 4],
    ['aclrtPtrAttributes', 28, 4],
    ['aclrtMallocAttrValue', 8, 4],
    ['aclrtMallocAttribute', 12, 4],
    ['aclrtMallocConfig', 16, 8],
    ['aclrtMemUsageInfo', 112, 8],
    ['aclrtMemcpyBatchAttr', 32, 4],
    ['aclrtMemFabricHandle', 128, 1],
    ['aclrtMemManagedLocation', 8, 4],
    ['aclrtUtilizationInfo', 24, 8],
    ['aclCANNPackageVersion', 512, 1],
  ] satisfies [AclStructName, number, number][])('%s is %i bytes aligned to %i', (name, size, align) => {
    expect(STRUCT_LAYOUTS[name].size).toBe(size);
    expect(STRUCT_LAYOUTS[name].align).toBe(align);
    expect(sizeOfCType(name)).toBe(size);
    expect(alignOfCType(name)).toBe(align);
  });

  it('covers the twelve structs of §4 and aclrtMemcpyBatchAttr of runtime-api.md §6', () => {
    expect(layouts).toHaveLength(13);
  });

  it.each([
    ['aclrtPhysicalMemProp', ['handleType', 0], ['allocationType', 4], ['memAttr', 8], ['location', 12], ['reserve', 24]],
    ['aclrtMemAccessDesc', ['flags', 0], ['location', 4], ['rsv', 12]],
    ['aclrtPtrAttributes', ['location', 0], ['pageSize', 8], ['rsv', 12]],
    ['aclrtMemLocation', ['id', 0], ['type', 4]],
    ['aclrtMemManagedLocation', ['type', 0], ['id', 4]],
    ['aclrtMallocConfig', ['attrs', 0], ['numAttrs', 8]],
    ['aclrtMemUsageInfo', ['name', 0], ['curMemSize', 32], ['memPeakSize', 40], ['reserved', 48]],
    ['aclrtMemcpyBatchAttr', ['dstLoc', 0], ['srcLoc', 8], ['rsv', 16]],
    [
      'aclrtUtilizationInfo',
      ['cubeUtilization', 0],
      ['vectorUtilization', 4],
      ['aicpuUtilization', 8],
      ['memoryUtilization', 12],
      ['utilizationExtend', 16],
    ],
  ] satisfies [AclStructName, ...[string, number][]][])('%s field offsets', (name, ...expected) => {
    expect(STRUCT_LAYOUTS[name].fields.map((f) => [f.name, f.offset])).toEqual(expected);
  });

  it.each(layouts)('%s: offsets increase, fields fit, size is a multiple of align', (_name, layout) => {
    expect(layout.size % layout.align).toBe(0);
    let previousEnd = 0;
    for (const field of layout.fields) {
      const fieldSize = (sizeOfCType(field.ctype) ?? Number.NaN) * (field.count ?? 1);
      expect(fieldSize, field.ctype).toBeGreaterThan(0);
      expect(field.offset + fieldSize, field.name).toBeLessThanOrEqual(layout.size);
      if (layout.kind === 'union') {
        expect(field.offset, field.name).toBe(0);
      } else {
        expect(field.offset, field.name).toBeGreaterThanOrEqual(previousEnd);
        previousEnd = field.offset + fieldSize;
      }
    }
  });

  it.each(layouts)('%s matches a layout recomputed from the field types', (_name, layout) => {
    const again = recompute(layout);
    expect(again.offsets).toEqual(layout.fields.map((f) => f.offset));
    expect(again.size).toBe(layout.size);
    expect(again.align).toBe(layout.align);
  });

  it('marks the padding hole of aclrtPhysicalMemProp: location ends at 20, reserve starts at 24', () => {
    const location = STRUCT_LAYOUTS.aclrtPhysicalMemProp.fields[3];
    expect(location?.offset).toBe(12);
    expect((location?.offset ?? 0) + (sizeOfCType('aclrtMemLocation') ?? 0)).toBe(20);
  });
});

describe('sizeOfCType', () => {
  it.each([
    ['char', 1],
    ['uint8_t', 1],
    ['int16_t', 2],
    ['aclFloat16', 2],
    ['int', 4],
    ['uint32_t', 4],
    ['float', 4],
    ['aclError', 4],
    ['long', 8],
    ['size_t', 8],
    ['uint64_t', 8],
    ['double', 8],
    ['aclrtStream', 8],
    ['aclrtContext', 8],
    ['aclrtEvent', 8],
    ['aclrtDrvMemHandle', 8],
    ['void*', 8],
    ['void **', 8],
    ['void**', 8],
    ['const char *', 8],
    ['aclrtPhysicalMemProp*', 8],
    ['aclrtDrvMemHandle *', 8],
    ['aclrtMemMallocPolicy', 4],
    ['enum aclrtMemAttr', 4],
    ['aclrtPhysicalMemProp', 32],
    ['const struct aclrtMemLocation', 8],
    ['uint8_t[12]', 12],
    ['char [32]', 32],
    ['aclrtMemAccessDesc[2]', 48],
  ])('%s → %i', (name, size) => {
    expect(sizeOfCType(name)).toBe(size);
  });

  it.each(['', 'aclrtHacType', 'ACL_HOST_REG', 'constructor', 'toString', 'struct', 'int128_t'])('does not guess %j', (name) => {
    expect(sizeOfCType(name)).toBeUndefined();
  });

  it('gives every enum type of enums.ts 4 bytes', () => {
    for (const table of ACL_ENUM_TYPES) {
      expect(C_SCALAR_SIZES[table.cName], table.cName).toBe(4);
      expect(sizeOfCType(table.cName), table.cName).toBe(4);
    }
  });

  it('aligns 8-byte scalars to 8 and arrays to their element', () => {
    expect(alignOfCType('uint64_t')).toBe(8);
    expect(alignOfCType('char[128]')).toBe(1);
    expect(alignOfCType('size_t[8]')).toBe(8);
  });

  it('recognises struct names only', () => {
    expect(isAclStructName('aclrtMallocConfig')).toBe(true);
    expect(isAclStructName('aclrtMemMallocPolicy')).toBe(false);
    expect(isAclStructName('hasOwnProperty')).toBe(false);
  });
});
