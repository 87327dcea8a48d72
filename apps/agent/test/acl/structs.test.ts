import { STRUCT_LAYOUTS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { type AclStructName, isAclStructName, koffiLayout } from '../../src/backends/acl/ctypes.ts';
import { gccLayouts } from './support/acl-double.ts';

/*
 * koffi must put every struct in memory exactly as the C header does (acl-api.md §4). Three
 * sources are compared: the numbers the issue states, core's STRUCT_LAYOUTS, and what gcc makes
 * of the double's header; koffi's sizeof/offsetof must match all of them.
 */

const NAMES = Object.keys(STRUCT_LAYOUTS).filter(isAclStructName);

describe('koffi struct layouts', () => {
  it.each(NAMES)('%s: koffi size, alignment and every field offset equal STRUCT_LAYOUTS', (name: AclStructName) => {
    const layout = STRUCT_LAYOUTS[name];
    const koffi = koffiLayout(name);
    expect(koffi.size).toBe(layout.size);
    expect(koffi.align).toBe(layout.align);
    expect(koffi.offsets).toEqual(Object.fromEntries(layout.fields.map((field) => [field.name, field.offset])));
  });

  it('matches the sizes the issue names', () => {
    expect(koffiLayout('aclrtPhysicalMemProp').size).toBe(32);
    expect(koffiLayout('aclrtMemAccessDesc').size).toBe(24);
    expect(koffiLayout('aclrtPtrAttributes').size).toBe(28);
    expect(koffiLayout('aclrtMallocAttribute').size).toBe(12);
    expect(koffiLayout('aclrtMallocAttrValue').size).toBe(8);
    expect(koffiLayout('aclrtMallocConfig').size).toBe(16);
    expect(koffiLayout('aclrtMemLocation').size).toBe(8);
    expect(koffiLayout('aclrtMemcpyBatchAttr').size).toBe(32);
    expect(koffiLayout('aclrtMemUsageInfo').size).toBe(112);
  });

  it('aclrtPhysicalMemProp has 4 bytes of padding at offset 20, before the uint64 reserve', () => {
    const { offsets, size } = koffiLayout('aclrtPhysicalMemProp');
    // location (8 bytes) starts at 12 and ends at 20; reserve is 8-aligned at 24.
    expect(offsets.location).toBe(12);
    expect((offsets.location ?? 0) + koffiLayout('aclrtMemLocation').size).toBe(20);
    expect(offsets.reserve).toBe(24);
    expect(size).toBe(32);
  });

  it('aclrtMallocAttribute holds its 8-byte union at offset 4, every union member at 0', () => {
    expect(koffiLayout('aclrtMallocAttribute').offsets).toEqual({ attr: 0, value: 4 });
    expect(koffiLayout('aclrtMallocAttrValue').offsets).toEqual({ moduleId: 0, deviceId: 0, vaFlag: 0, rsv: 0 });
  });

  it('agrees with gcc compiling the double’s header', () => {
    const gcc = gccLayouts();
    if (gcc === null || typeof gcc !== 'object') throw new Error('the layout program printed no object');
    const compared = Object.keys(gcc);
    expect(compared).toHaveLength(9);
    for (const name of compared) {
      if (!isAclStructName(name)) throw new Error(`${name} is not a STRUCT_LAYOUTS name`);
      const koffi = koffiLayout(name);
      expect(Reflect.get(gcc, name), name).toEqual({ size: koffi.size, align: koffi.align, fields: koffi.offsets });
    }
  });
});
