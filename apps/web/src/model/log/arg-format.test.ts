import type { CallEvent } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { callSignature, renderCallArgs, sizeText, valueText } from './arg-format.ts';

const HEX = { units: 'binary', addresses: 'hex' } as const;
const DEC = { units: 'decimal', addresses: 'dec' } as const;

function call(
  fn: string,
  args: Record<string, unknown>,
  out?: Record<string, unknown>,
  ret = 0,
): Pick<CallEvent, 'fn' | 'args' | 'out' | 'ret'> {
  return { fn, args, ret, ...(out === undefined ? {} : { out }) };
}

describe('sizeText', () => {
  it.each([
    [0, HEX, '0 B'],
    [1000, HEX, '1000 B'],
    [3 * 1024 * 1024, HEX, '3 MiB'],
    [1_048_608, HEX, '1,048,608 B ≈ 1 MiB'],
    [1_500_000, DEC, '1.5 MB'],
    [1_048_576, DEC, '1,048,576 B ≈ 1.05 MB'],
  ] as const)('%d in %s units → %s', (value, prefs, expected) => {
    expect(sizeText(value, prefs)).toBe(expected);
  });
});

describe('renderCallArgs', () => {
  it('CP-9: a 2D copy’s pitches and width are sizes, its height a row count; CP-8, CP-10, DM-16: counts and sizes with units', () => {
    const rows = call('aclrtMemcpy2d', { dst: '0x1000', dpitch: 4096, src: '0x2000', spitch: 1536, width: 1000, height: 16, kind: 1 });
    expect(callSignature(rows, HEX)).toBe(
      'aclrtMemcpy2d(dst = 0x1000, dpitch = 4 KiB, src = 0x2000, spitch = 1.5 KiB, width = 1000 B, height = 16, kind = ACL_MEMCPY_HOST_TO_DEVICE)',
    );
    const set = call('aclrtMemsetAsync', { devPtr: '0x1000', maxCount: 2 * 1024 * 1024, value: -1, count: 64, stream: '0x0' });
    expect(callSignature(set, HEX)).toBe('aclrtMemsetAsync(devPtr = 0x1000, maxCount = 2 MiB, value = -1, count = 64 B, stream = NULL)');
    expect(callSignature(call('aclrtMemFlush', { devPtr: '0x1000', size: 4096 }), HEX)).toBe(
      'aclrtMemFlush(devPtr = 0x1000, size = 4 KiB)',
    );
    const range = call('aclrtMemGetAddressRange', { ptr: '0x1010' }, { pbase: '0x1000', psize: 1_048_608 });
    expect(callSignature(range, HEX)).toBe('aclrtMemGetAddressRange(ptr = 0x1010) → pbase = 0x1000, psize = 1,048,608 B ≈ 1 MiB');
    // An array's element count is a plain number too (aclrtMemSetAccess count).
    const access = call('aclrtMemSetAccess', { virPtr: '0x1000', size: 4096, desc: [], count: 1 });
    expect(renderCallArgs(access, HEX).find((arg) => arg.name === 'count')?.text).toBe('1');
  });

  it('names enum values, gives sizes units and shows the output pointer in the address preference', () => {
    const malloc = call('aclrtMalloc', { size: 3 * 1024 * 1024, policy: 0 }, { devPtr: '0x100000000000' });
    expect(renderCallArgs(malloc, HEX)).toEqual([
      { name: 'devPtr', text: '0x100000000000', dir: 'out' },
      { name: 'size', text: '3 MiB', dir: 'in' },
      { name: 'policy', text: 'ACL_MEM_MALLOC_HUGE_FIRST', dir: 'in' },
    ]);
    expect(renderCallArgs(malloc, DEC)[0]?.text).toBe('17,592,186,044,416');
    expect(callSignature(malloc, HEX)).toBe('aclrtMalloc(size = 3 MiB, policy = ACL_MEM_MALLOC_HUGE_FIRST) → devPtr = 0x100000000000');
  });

  it('leaves out the outputs of a failed call and says NULL for null pointers', () => {
    const failed = call('aclrtMalloc', { size: 0, policy: 1 }, undefined, 100000);
    expect(callSignature(failed, HEX)).toBe('aclrtMalloc(size = 0 B, policy = ACL_MEM_MALLOC_HUGE_ONLY)');
    expect(callSignature(call('aclrtFree', { devPtr: '0x0' }), HEX)).toBe('aclrtFree(devPtr = NULL)');
  });

  it('splits flag words into their names and renders struct fields by name', () => {
    const register = call('aclrtHostRegisterV2', { ptr: '0x1000', size: 8192, flag: 0x10000002 });
    expect(renderCallArgs(register, HEX).find((arg) => arg.name === 'flag')?.text).toBe('ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED');
    const physical = call('aclrtMallocPhysical', {
      size: 2 * 1024 * 1024,
      prop: { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 },
      flags: 0,
    });
    expect(renderCallArgs(physical, HEX).find((arg) => arg.name === 'prop')?.text).toBe(
      '{handleType: ACL_MEM_HANDLE_TYPE_NONE, allocationType: ACL_MEM_ALLOCATION_TYPE_PINNED, memAttr: ACL_HBM_MEM_HUGE, location: {type: ACL_MEM_LOCATION_TYPE_DEVICE, id: 0}, reserve: 0}',
    );
  });

  it('names enum members by each struct’s own fields: access descriptors, malloc attributes, returned attributes', () => {
    const access = call('aclrtMemSetAccess', {
      virPtr: '0x1000',
      size: 2 * 1024 * 1024,
      desc: [{ flags: 3, location: { id: 0, type: 1 } }],
      count: 1,
    });
    expect(renderCallArgs(access, HEX).find((arg) => arg.name === 'desc')?.text).toBe(
      '[{flags: ACL_RT_MEM_ACCESS_FLAGS_READWRITE, location: {id: 0, type: ACL_MEM_LOCATION_TYPE_DEVICE}}]',
    );
    const cfg = call('aclrtMallocWithCfg', { size: 4096, policy: 0, cfg: { attrs: [{ attr: 3, value: { vaFlag: 1 } }], numAttrs: 1 } });
    expect(renderCallArgs(cfg, HEX).find((arg) => arg.name === 'cfg')?.text).toBe(
      '{attrs: [{attr: ACL_RT_MEM_ATTR_VA_FLAG, value: {vaFlag: 1}}], numAttrs: 1}',
    );
    const attributes = call(
      'aclrtPointerGetAttributes',
      { ptr: '0x1000' },
      { attributes: { location: { id: 0, type: 1 }, pageSize: 4096 } },
    );
    expect(renderCallArgs(attributes, HEX).find((arg) => arg.name === 'attributes')?.text).toBe(
      '{location: {id: 0, type: ACL_MEM_LOCATION_TYPE_DEVICE}, pageSize: 4096}',
    );
  });

  it('renders an unknown enum value and functions outside the catalogue plainly', () => {
    expect(valueText({ t: 'enum', enum: 'aclrtMemMallocPolicy' }, 99, HEX)).toBe('99 (?)');
    expect(callSignature(call('notAnAclFunction', { a: 1, b: 'x' }), HEX)).toBe('notAnAclFunction(a = 1, b = "x")');
  });
});

describe('contexts and events', () => {
  it('shows aclrtContext and aclrtEvent handles as the values the program holds, NULL for none', () => {
    expect(callSignature(call('aclrtCreateContext', { deviceId: 0 }, { context: '0x7f0000001000' }), HEX)).toBe(
      'aclrtCreateContext(deviceId = 0) → context = 0x7f0000001000',
    );
    expect(callSignature(call('aclrtRecordEvent', { event: '0x7f0000002000', stream: '0x0' }), HEX)).toBe(
      'aclrtRecordEvent(event = 0x7f0000002000, stream = NULL)',
    );
    expect(callSignature(call('aclrtSetCurrentContext', { context: '0x0' }, undefined, 100000), HEX)).toBe(
      'aclrtSetCurrentContext(context = NULL)',
    );
  });

  it('names the ACL_EVENT flag bits, leaving unnamed bits in hex', () => {
    const created = call('aclrtCreateEventWithFlag', { flag: 0x09 }, { event: '0x10' });
    expect(renderCallArgs(created, HEX).find((arg) => arg.name === 'flag')?.text).toBe('ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE');
  });

  it('gives the elapsed time as a float in ms and the status outputs by their enum names', () => {
    const elapsed = call('aclrtEventElapsedTime', { startEvent: '0x10', endEvent: '0x20' }, { ms: 0.012500000186264515 });
    expect(renderCallArgs(elapsed, HEX).find((arg) => arg.name === 'ms')).toEqual({ name: 'ms', text: '0.0125 ms', dir: 'out' });
    expect(valueText({ t: 'float' }, 1.5, HEX)).toBe('1.5');
    expect(valueText({ t: 'float' }, 0, HEX)).toBe('0');
    const stream = call('aclrtStreamQuery', { stream: '0x0' }, { status: 1 });
    expect(renderCallArgs(stream, HEX).find((arg) => arg.name === 'status')?.text).toBe('ACL_STREAM_STATUS_NOT_READY');
    const event = call('aclrtQueryEventStatus', { event: '0x10' }, { status: 1 });
    expect(renderCallArgs(event, HEX).find((arg) => arg.name === 'status')?.text).toBe('ACL_EVENT_RECORDED_STATUS_COMPLETE');
  });

  it('IP-1: the key buffer is shown as the text the runtime wrote, quoted; len is a plain count; flags by name', () => {
    const key = `pagelens-ipc-1-2-3${'0'.repeat(46)}`;
    const exported = call('aclrtIpcMemGetExportKey', { devPtr: '0x100000000000', size: 4096, len: 65, flags: 1 }, { key });
    expect(renderCallArgs(exported, HEX)).toEqual([
      { name: 'devPtr', text: '0x100000000000', dir: 'in' },
      { name: 'size', text: '4 KiB', dir: 'in' },
      { name: 'key', text: JSON.stringify(key), dir: 'out' },
      { name: 'len', text: '65', dir: 'in' },
      { name: 'flags', text: 'ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION', dir: 'in' },
    ]);
    expect(valueText({ t: 'charBuffer', length: 'len' }, '0x12', HEX)).toBe('"0x12"');
    const close = call('aclrtIpcMemClose', { key });
    expect(callSignature(close, HEX)).toBe(`aclrtIpcMemClose(key = "${key}")`);
  });
});
