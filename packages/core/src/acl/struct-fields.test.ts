import { describe, expect, it } from 'vitest';
import { checkArgs } from './check-args.ts';
import { type FieldType, structField, structFields } from './struct-fields.ts';
import { isAclStructName, STRUCT_LAYOUTS } from './structs.ts';

const LOCATION = { t: 'struct', struct: 'aclrtMemLocation' } as const;

describe('struct fields, derived from STRUCT_LAYOUTS (acl-api.md §4)', () => {
  it.each([
    [
      'aclrtMemLocation',
      [
        ['id', { t: 'uint' }],
        ['type', { t: 'enum', enum: 'aclrtMemLocationType' }],
      ],
    ],
    [
      'aclrtPhysicalMemProp',
      [
        ['handleType', { t: 'enum', enum: 'aclrtMemHandleType' }],
        ['allocationType', { t: 'enum', enum: 'aclrtMemAllocationType' }],
        ['memAttr', { t: 'enum', enum: 'aclrtMemAttr' }],
        ['location', LOCATION],
        ['reserve', { t: 'u64' }],
      ],
    ],
    [
      'aclrtMemAccessDesc',
      [
        ['flags', { t: 'enum', enum: 'aclrtMemAccessFlags' }],
        ['location', LOCATION],
        ['rsv', { t: 'array', element: 'uint8_t', count: 12 }],
      ],
    ],
    [
      'aclrtMallocConfig',
      [
        ['attrs', { t: 'structArray', struct: 'aclrtMallocAttribute' }],
        ['numAttrs', { t: 'size' }],
      ],
    ],
    [
      'aclrtMallocAttribute',
      [
        ['attr', { t: 'enum', enum: 'aclrtMallocAttrType' }],
        ['value', { t: 'struct', struct: 'aclrtMallocAttrValue' }],
      ],
    ],
    [
      'aclrtMemManagedLocation',
      [
        ['type', { t: 'enum', enum: 'aclrtMemManagedLocationType' }],
        ['id', { t: 'int' }],
      ],
    ],
  ] as const)('%s', (struct, expected: readonly (readonly [string, FieldType])[]) => {
    expect(structFields(struct).map((field) => [field.name, field.type])).toEqual(expected);
  });

  it('has every field of every layout, in declaration order', () => {
    for (const name of Object.keys(STRUCT_LAYOUTS).filter(isAclStructName)) {
      expect(structFields(name).map((field) => field.name)).toEqual(STRUCT_LAYOUTS[name].fields.map((field) => field.name));
    }
  });

  it('reads char arrays as text and other pointers as addresses', () => {
    expect(structField('aclrtMemUsageInfo', 'name')?.type).toEqual({ t: 'string' });
    expect(structField('aclrtUtilizationInfo', 'utilizationExtend')?.type).toEqual({ t: 'ptr' });
    expect(structField('aclrtMemLocation', 'hasOwnProperty')).toBeUndefined();
  });

  it('the argument check follows the derived types: an enum field takes a number, a nested struct its own fields', () => {
    const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { id: 0, type: 1 }, reserve: 0 };
    expect(checkArgs('aclrtMallocPhysical', { size: 2 ** 21, prop, flags: 0 })).toEqual({ ok: true });
    expect(checkArgs('aclrtMallocPhysical', { size: 2 ** 21, prop: { ...prop, memAttr: 'HBM' }, flags: 0 })).toMatchObject({
      ok: false,
      field: 'prop.memAttr',
    });
    expect(checkArgs('aclrtMallocPhysical', { size: 2 ** 21, prop: { ...prop, location: { id: 0, kind: 1 } }, flags: 0 })).toMatchObject({
      ok: false,
      field: 'prop.location.type',
    });
  });
});
