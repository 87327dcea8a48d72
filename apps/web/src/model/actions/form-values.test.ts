import { ACL_FUNCTION_NAMES, checkArgs, MiB } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { type FieldSpec, formFields } from './form-spec.ts';
import { buildArgs, defaultValues, readInt, readPointer, setField, sizesFromPick, sizeText } from './form-values.ts';

describe('generic form → call arguments', () => {
  it.each(ACL_FUNCTION_NAMES)('%s: the default form builds arguments core accepts', (fn) => {
    const built = buildArgs(fn, defaultValues(fn, { device: 0 }));
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(checkArgs(fn, built.args)).toEqual({ ok: true });
  });

  it('types every value as the runtime wants it: numbers, 0x pointers, structs', () => {
    const built = buildArgs('aclrtMallocPhysical', defaultValues('aclrtMallocPhysical', { device: 1 }));
    expect(built).toEqual({
      ok: true,
      args: {
        size: 2 * MiB,
        prop: { handleType: 0, allocationType: 0, memAttr: 4, location: { id: 1, type: 1 }, reserve: 0 },
        flags: 0,
      },
    });
  });

  it('aclrtMemSetAccess: one READWRITE descriptor for the device, count filled in from the array (VM-7)', () => {
    const built = buildArgs('aclrtMemSetAccess', defaultValues('aclrtMemSetAccess', { device: 0 }));
    expect(built.ok && built.args).toEqual({ virPtr: '0x0', size: 2 * MiB, desc: [{ flags: 3, location: { id: 0, type: 1 } }], count: 1 });
  });

  it('aclrtHostRegisterV2 defaults to PINNED | MAPPED (HM-5)', () => {
    const built = buildArgs('aclrtHostRegisterV2', defaultValues('aclrtHostRegisterV2', { device: 0 }));
    expect(built.ok && built.args.flag).toBe(0x1000_0002);
  });

  it('a malloc config with VA_FLAG builds attrs and numAttrs (HM-4)', () => {
    const values = setField(defaultValues('aclrtMallocHostWithCfg', { device: 0 }), ['cfg'], { attrs: [{ attr: '3', value: '1' }] });
    const built = buildArgs('aclrtMallocHostWithCfg', values);
    expect(built.ok && built.args.cfg).toEqual({ attrs: [{ attr: 3, value: { vaFlag: 1 } }], numAttrs: 1 });
    if (built.ok) expect(checkArgs('aclrtMallocHostWithCfg', built.args).ok).toBe(true);
  });

  it('names the first field at fault, with a path into structs', () => {
    const base = defaultValues('aclrtMallocPhysical', { device: 0 });
    const badSize = buildArgs('aclrtMallocPhysical', { ...base, size: '2 mb' });
    expect(badSize).toMatchObject({ ok: false, error: { path: 'size', problem: { code: 'size', size: { code: 'unit' } } } });
    const badId = setField(base, ['prop', 'location', 'id'], '-1');
    expect(buildArgs('aclrtMallocPhysical', badId)).toMatchObject({
      ok: false,
      error: { path: 'prop.location.id', problem: { code: 'int' } },
    });
    expect(buildArgs('aclrtFree', { devPtr: 'abc' })).toMatchObject({ ok: false, error: { path: 'devPtr', problem: { code: 'pointer' } } });
  });

  it('reads integers in decimal and hex within C ranges, and pointers as 0x or NULL', () => {
    expect(readInt('0x10', 0, 2 ** 32)).toBe(16);
    expect(readInt('-5', -(2 ** 31), 2 ** 31)).toBe(-5);
    expect(readInt('-5', 0, 2 ** 32)).toBeUndefined();
    expect(readInt('4294967296', 0, 2 ** 32)).toBeUndefined();
    expect(readPointer('NULL')).toBe('0x0');
    expect(readPointer('0x1000DEADBEEF')).toBe('0x1000deadbeef');
    expect(readPointer('12345')).toBeUndefined();
  });

  it('builds struct sub-forms from core’s struct fields: enums as dropdowns, nested location, no rsv (acl-api.md §4)', () => {
    const prop = formFields('aclrtMallocPhysical').find((field) => field.name === 'prop');
    if (prop?.kind !== 'struct') throw new Error('prop is a struct field');
    const shape = (fields: readonly FieldSpec[]): unknown[] =>
      fields.map((field) =>
        field.kind === 'enum'
          ? [field.name, field.table.cName]
          : field.kind === 'struct'
            ? [field.name, shape(field.fields)]
            : [field.name, field.kind],
      );
    expect(shape(prop.fields)).toEqual([
      ['handleType', 'aclrtMemHandleType'],
      ['allocationType', 'aclrtMemAllocationType'],
      ['memAttr', 'aclrtMemAttr'],
      [
        'location',
        [
          ['id', 'int'],
          ['type', 'aclrtMemLocationType'],
        ],
      ],
      ['reserve', 'int'],
    ]);
    const desc = formFields('aclrtMemSetAccess').find((field) => field.name === 'desc');
    if (desc?.kind !== 'structArray' || desc.item.kind !== 'struct') throw new Error('desc is an array of structs');
    expect(shape(desc.item.fields)).toEqual([
      ['flags', 'aclrtMemAccessFlags'],
      [
        'location',
        [
          ['id', 'int'],
          ['type', 'aclrtMemLocationType'],
        ],
      ],
    ]);
  });

  it('shows a pointer picker for pointers and handles, of the right kind', () => {
    const kinds = (fn: Parameters<typeof formFields>[0]) =>
      formFields(fn).flatMap((field) => (field.kind === 'pointer' ? [[field.name, field.picks] as const] : []));
    expect(kinds('aclrtFree')).toEqual([['devPtr', ['allocation']]]);
    expect(kinds('aclrtMapMem')).toEqual([
      ['virPtr', ['reservation']],
      ['handle', ['handle']],
    ]);
    expect(kinds('aclrtMemcpyAsync').at(-1)).toEqual(['stream', ['stream']]);
  });
});

describe('picking an object fills the sizes that must match it', () => {
  it('a mapping for aclrtMemSetAccess fills size (VM-7); a handle for aclrtMapMem fills size (VM-6)', () => {
    expect(sizesFromPick('aclrtMemSetAccess', 'virPtr', 4 * MiB)).toEqual({ size: '4 MiB' });
    expect(sizesFromPick('aclrtMapMem', 'handle', 2 * MiB)).toEqual({ size: '2 MiB' });
    expect(sizesFromPick('aclrtMapMem', 'virPtr', 2 * MiB)).toEqual({});
    expect(sizesFromPick('aclrtMemcpy', 'dst', 1000)).toEqual({ destMax: '1000' });
  });

  it('CP-8, CP-10: the async memset’s bounds and the cache calls’ size follow the picked buffer; a 2D copy’s do not', () => {
    expect(sizesFromPick('aclrtMemsetAsync', 'devPtr', 3 * MiB)).toEqual({ maxCount: '3 MiB', count: '3 MiB' });
    expect(sizesFromPick('aclrtMemsetAsync', 'stream', 3 * MiB)).toEqual({});
    expect(sizesFromPick('aclrtMemFlush', 'devPtr', 4096)).toEqual({ size: '4 KiB' });
    expect(sizesFromPick('aclrtMemInvalidate', 'devPtr', 1000)).toEqual({ size: '1000' });
    // Pitches and width are the person's layout, not the buffer's size.
    expect(sizesFromPick('aclrtMemcpy2d', 'dst', 4096)).toEqual({});
  });

  it('CP-9: a 2D copy’s default height is one row, not a byte size', () => {
    const values = defaultValues('aclrtMemcpy2d', { device: 0 });
    expect(values).toMatchObject({ dpitch: '4 KiB', spitch: '4 KiB', width: '4 KiB', height: '1' });
  });

  it('writes sizes the way a person types them', () => {
    expect(sizeText(3 * MiB)).toBe('3 MiB');
    expect(sizeText(1536)).toBe('1536');
    expect(sizeText(65536)).toBe('64 KiB');
  });

  it('IP-1: the key buffer is no field, len defaults to 65, picking the allocation fills the size', () => {
    expect(formFields('aclrtIpcMemGetExportKey').map((field) => field.name)).toEqual(['devPtr', 'size', 'len', 'flags']);
    expect(defaultValues('aclrtIpcMemGetExportKey', { device: 0 })).toMatchObject({ len: '65', flags: '0' });
    expect(sizesFromPick('aclrtIpcMemGetExportKey', 'devPtr', 4 * MiB)).toEqual({ size: '4 MiB' });
    const built = buildArgs('aclrtIpcMemGetExportKey', defaultValues('aclrtIpcMemGetExportKey', { device: 0 }));
    expect(built.ok && built.args).toMatchObject({ len: 65 });
  });
});
