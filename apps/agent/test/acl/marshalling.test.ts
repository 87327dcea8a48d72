import { ACL_FUNCTION_NAMES, type AclRuntime, type Hex, MiB } from '@pagelens/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AclBackend } from '../../src/backends/acl/acl-backend.ts';
import { freshDouble, type LoggedCall, readLog } from './support/acl-double.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/*
 * For every catalogue function, what the C double received is exactly the C arguments PageLens
 * meant: each scalar, each pointer (all bits), each struct field. The double records raw arguments
 * as C sees them (a marshalling check; its answers are not hardware behaviour).
 */

const POINTER = expect.stringMatching(/^0x[0-9a-f]+$/);
const ZERO12 = new Array<number>(12).fill(0);
const ZERO16 = new Array<number>(16).fill(0);
/** SIZE_MAX as the double logs it (a uint64 past 2^53 is written as a string). */
const SIZE_MAX = '18446744073709551615';
let backend: AclBackend;
let runtime: AclRuntime;
let log: string;
const checked = new Set<string>();

beforeAll(async () => {
  const double = freshDouble();
  log = double.log;
  process.env.ACL_DOUBLE_LOG = log;
  backend = await AclBackend.open({ aclLib: double.lib, allowMutations: true, sampleMs: 0, env: {} });
  runtime = backend.openProcess('marshalling').runtime;
});

afterAll(async () => {
  await backend.close();
  delete process.env.ACL_DOUBLE_LOG;
});

/** Runs `call` and answers its result and the one record the double kept of `fn` meanwhile. */
async function recorded<R>(fn: string, call: () => Promise<R>): Promise<{ result: R; record: LoggedCall }> {
  const mark = readLog(log).length;
  const result = await call();
  const records = readLog(log)
    .slice(mark)
    .filter((entry) => entry.fn === fn);
  expect(records, `${fn} records`).toHaveLength(1);
  const [record] = records;
  if (record === undefined) throw new Error(`${fn} left no record`);
  checked.add(fn);
  return { result, record };
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

const state: { stream?: Hex; devPtr?: Hex; hostPtr?: Hex; vaHost?: Hex; pageable?: Hex; handle?: Hex; virPtr?: Hex; shareable?: Hex } = {};

describe('marshalling: the double receives the intended C arguments', () => {
  it('aclInit: const char* as a string, and NULL', async () => {
    const { record } = await recorded('aclInit', () => runtime.aclInit({ configPath: '/etc/acl.json' }));
    expect(record.args).toEqual({ configPath: '/etc/acl.json' });
    expect((await recorded('aclInit', () => runtime.aclInit({ configPath: null }))).record.args).toEqual({ configPath: null });
  });

  it('aclrtSetDevice, aclrtGetDevice, aclrtGetDeviceCount, aclrtGetRunMode, aclrtGetSocName: int32_t in, out-pointers', async () => {
    expect((await recorded('aclrtSetDevice', () => runtime.aclrtSetDevice({ deviceId: 0 }))).record.args).toEqual({ deviceId: 0 });
    const device = await recorded('aclrtGetDevice', () => runtime.aclrtGetDevice({}));
    expect(device.record).toMatchObject({ args: { deviceId: POINTER }, out: { deviceId: 0 } });
    expect(device.result.deviceId).toBe(0);
    const count = await recorded('aclrtGetDeviceCount', () => runtime.aclrtGetDeviceCount({}));
    expect(count.record.args).toEqual({ count: POINTER });
    expect(count.result.count).toBe(2);
    const mode = await recorded('aclrtGetRunMode', () => runtime.aclrtGetRunMode({}));
    expect(mode.record).toMatchObject({ args: { runMode: POINTER }, out: { runMode: 1 } });
    expect(mode.result.runMode).toBe(1);
    const soc = await recorded('aclrtGetSocName', () => runtime.aclrtGetSocName({}));
    expect(soc.record.args).toEqual({});
    expect(soc.result.socName).toBe('Ascend910B2');
  });

  it('aclrtCreateStream: aclrtStream* out; the handle comes back with all its bits', async () => {
    const { result, record } = await recorded('aclrtCreateStream', () => runtime.aclrtCreateStream({}));
    expect(record.args).toEqual({ stream: POINTER });
    expect(result.stream).toBe(record.out.stream);
    state.stream = must(result.stream, 'stream');
  });

  it('aclrtMalloc family: size_t and the policy enum; a negative enum goes as its 32-bit pattern', async () => {
    const malloc = await recorded('aclrtMalloc', () => runtime.aclrtMalloc({ size: MiB, policy: 0 }));
    expect(malloc.record.args).toEqual({ devPtr: POINTER, size: MiB, policy: 0 });
    expect(malloc.result.devPtr).toBe(malloc.record.out.devPtr);
    state.devPtr = must(malloc.result.devPtr, 'devPtr');
    expect((await recorded('aclrtMalloc', () => runtime.aclrtMalloc({ size: 64, policy: -1 }))).record.args).toMatchObject({
      policy: 0xffffffff,
    });
    const align = await recorded('aclrtMallocAlign32', () => runtime.aclrtMallocAlign32({ size: 4096, policy: 2 }));
    expect(align.record.args).toEqual({ devPtr: POINTER, size: 4096, policy: 2 });
    const cached = await recorded('aclrtMallocCached', () => runtime.aclrtMallocCached({ size: 8192, policy: 1 }));
    expect(cached.record.args).toEqual({ devPtr: POINTER, size: 8192, policy: 1 });
  });

  it('aclrtMallocWithCfg: aclrtMallocConfig with its attribute array and the union member the attr selects', async () => {
    const cfg = {
      attrs: [
        { attr: 1, value: { moduleId: 33 } },
        { attr: 2, value: { deviceId: 0 } },
      ],
      numAttrs: 2,
    };
    const { record } = await recorded('aclrtMallocWithCfg', () => runtime.aclrtMallocWithCfg({ size: 2 * MiB, policy: 0x1000, cfg }));
    expect(record.args).toEqual({
      devPtr: POINTER,
      size: 2 * MiB,
      policy: 0x1000,
      cfg: {
        numAttrs: 2,
        attrs: [
          { attr: 1, value: { moduleId: 33, deviceId: 33, vaFlag: 33, bytes: [33, 0, 0, 0, 0, 0, 0, 0] } },
          { attr: 2, value: { moduleId: 0, deviceId: 0, vaFlag: 0, bytes: [0, 0, 0, 0, 0, 0, 0, 0] } },
        ],
      },
    });
    const none = await recorded('aclrtMallocWithCfg', () => runtime.aclrtMallocWithCfg({ size: 4096, policy: 2, cfg: null }));
    expect(none.record.args.cfg).toBeNull();
  });

  it('aclrtMallocHost, aclrtMallocHostWithCfg: size_t and uint64_t sizes, VA_FLAG in the union', async () => {
    const host = await recorded('aclrtMallocHost', () => runtime.aclrtMallocHost({ size: 4096 }));
    expect(host.record.args).toEqual({ hostPtr: POINTER, size: 4096 });
    state.hostPtr = must(host.result.hostPtr, 'hostPtr');
    const cfg = { attrs: [{ attr: 3, value: { vaFlag: 1 } }], numAttrs: 1 };
    const va = await recorded('aclrtMallocHostWithCfg', () => runtime.aclrtMallocHostWithCfg({ size: 8192, cfg }));
    expect(va.record.args).toEqual({
      ptr: POINTER,
      size: 8192,
      cfg: { numAttrs: 1, attrs: [{ attr: 3, value: { moduleId: 1, deviceId: 1, vaFlag: 1, bytes: [1, 0, 0, 0, 0, 0, 0, 0] } }] },
    });
    state.vaHost = must(va.result.ptr, 'ptr');
  });

  it('aclrtMemcpy, aclrtMemcpyAsync, aclrtMemset: pointers, size_t counts, the kind enum, a negative int32_t value', async () => {
    const dst = must(state.devPtr, 'devPtr');
    const src = must(state.hostPtr, 'hostPtr');
    const copy = await recorded('aclrtMemcpy', () => runtime.aclrtMemcpy({ dst, destMax: 4096, src, count: 4096, kind: 1 }));
    expect(copy.record.args).toEqual({ dst, destMax: 4096, src, count: 4096, kind: 1 });
    const stream = must(state.stream, 'stream');
    const async = await recorded('aclrtMemcpyAsync', () =>
      runtime.aclrtMemcpyAsync({ dst: src, destMax: 4096, src: dst, count: 2048, kind: 2, stream }),
    );
    expect(async.record.args).toEqual({ dst: src, destMax: 4096, src: dst, count: 2048, kind: 2, stream });
    const set = await recorded('aclrtMemset', () => runtime.aclrtMemset({ devPtr: dst, maxCount: 4096, value: -1, count: 16 }));
    expect(set.record.args).toEqual({ devPtr: dst, maxCount: 4096, value: -1, count: 16 });
  });

  it('aclrtMemsetAsync: pointer, two size_t counts, a negative int32_t value, the stream; count 0 passes at once (CP-8)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const stream = must(state.stream, 'stream');
    const set = await recorded('aclrtMemsetAsync', () =>
      runtime.aclrtMemsetAsync({ devPtr, maxCount: 4096, value: -2, count: 64, stream }),
    );
    expect(set.record).toMatchObject({ args: { devPtr, maxCount: 4096, value: -2, count: 64, stream }, ret: 0 });
    const none = await recorded('aclrtMemsetAsync', () =>
      runtime.aclrtMemsetAsync({ devPtr: '0x0', maxCount: 0, value: 7, count: 0, stream: '0x0' }),
    );
    expect(none.record).toMatchObject({ args: { devPtr: null, maxCount: 0, value: 7, count: 0, stream: null }, ret: 0 });
  });

  it('aclrtMemcpy2d, aclrtMemcpy2dAsync: size_t pitches, width and height (a 64-bit width too), the kind, the stream (CP-9)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const hostPtr = must(state.hostPtr, 'hostPtr');
    const stream = must(state.stream, 'stream');
    const rows = await recorded('aclrtMemcpy2d', () =>
      runtime.aclrtMemcpy2d({ dst: devPtr, dpitch: 512, src: hostPtr, spitch: 256, width: 200, height: 8, kind: 1 }),
    );
    expect(rows.record).toMatchObject({
      args: { dst: devPtr, dpitch: 512, src: hostPtr, spitch: 256, width: 200, height: 8, kind: 1 },
      ret: 0,
    });
    // width > dpitch → 100000; the width keeps all its 64 bits on the way.
    const wide = await recorded('aclrtMemcpy2d', () =>
      runtime.aclrtMemcpy2d({ dst: devPtr, dpitch: 512, src: hostPtr, spitch: 2 ** 40, width: 2 ** 33, height: 1, kind: 1 }),
    );
    expect(wide.record).toMatchObject({ args: { spitch: 2 ** 40, width: 2 ** 33, height: 1 }, ret: 100000 });
    const back = await recorded('aclrtMemcpy2dAsync', () =>
      runtime.aclrtMemcpy2dAsync({ dst: hostPtr, dpitch: 128, src: devPtr, spitch: 1024, width: 128, height: 4, kind: 2, stream }),
    );
    expect(back.record).toMatchObject({
      args: { dst: hostPtr, dpitch: 128, src: devPtr, spitch: 1024, width: 128, height: 4, kind: 2, stream },
      ret: 0,
    });
  });

  it('aclrtMemcpyBatch: void** and size_t* arrays element by element, the attribute runs field by field; failIndex SIZE_MAX → -1 (CP-11)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const hostPtr = must(state.hostPtr, 'hostPtr');
    const second = `0x${(BigInt(devPtr) + 8192n).toString(16)}` as Hex;
    const hostTail = `0x${(BigInt(hostPtr) + 1024n).toString(16)}` as Hex;
    const h2d = { dstLoc: { id: 0, type: 1 }, srcLoc: { id: 0, type: 0 } };
    const args = {
      dsts: [devPtr, second],
      // A 64-bit destMax keeps all its bits on the way.
      destMaxs: [4096, 2 ** 40],
      srcs: [hostPtr, hostTail],
      sizes: [1024, 2048],
      numBatches: 2,
      attrs: [h2d],
      attrsIndexes: [0],
      numAttrs: 1,
    };
    const good = await recorded('aclrtMemcpyBatch', () => runtime.aclrtMemcpyBatch(args));
    expect(good.record).toEqual({
      ...good.record,
      args: { ...args, attrs: [{ ...h2d, rsv: ZERO16 }], failIndex: POINTER },
      out: { failIndex: SIZE_MAX },
      ret: 0,
    });
    expect(good.result).toMatchObject({ ret: 0, failIndex: -1, message: expect.stringContaining('timed together') });
    // Two runs: copy 1 on says device → host, but it goes host → device; the runtime names copy 1.
    const d2h = { dstLoc: { id: 0, type: 0 }, srcLoc: { id: 0, type: 1 } };
    const wrong = await recorded('aclrtMemcpyBatch', () =>
      runtime.aclrtMemcpyBatch({ ...args, attrs: [h2d, d2h], attrsIndexes: [0, 1], numAttrs: 2 }),
    );
    expect(wrong.record).toMatchObject({
      args: {
        attrs: [
          { ...h2d, rsv: ZERO16 },
          { ...d2h, rsv: ZERO16 },
        ],
        attrsIndexes: [0, 1],
        numAttrs: 2,
      },
      out: { failIndex: 1 },
      ret: 107000,
    });
    expect(wrong.result).toMatchObject({ ret: 107000, failIndex: 1 });
    // The runs' own checks fail before any copy: the runtime wrote SIZE_MAX.
    const runs = await recorded('aclrtMemcpyBatch', () => runtime.aclrtMemcpyBatch({ ...args, attrsIndexes: [1] }));
    expect(runs.record).toMatchObject({ out: { failIndex: SIZE_MAX }, ret: 107000 });
    expect(runs.result).toMatchObject({ ret: 107000, failIndex: -1 });
    // The ACL layer's checks (sizes[i] > destMaxs[i], a reserved byte): 100000, failIndex untouched and not reported.
    for (const bad of [
      { ...args, destMaxs: [512, 4096] },
      { ...args, attrs: [{ ...h2d, rsv: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9] }] },
    ]) {
      const refused = await recorded('aclrtMemcpyBatch', () => runtime.aclrtMemcpyBatch(bad));
      expect(refused.record).toMatchObject({ out: {}, ret: 100000 });
      expect(refused.result.ret).toBe(100000);
      expect(refused.result).not.toHaveProperty('failIndex');
    }
    const rsv = await recorded('aclrtMemcpyBatch', () =>
      runtime.aclrtMemcpyBatch({ ...args, attrs: [{ ...h2d, rsv: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255] }] }),
    );
    expect(rsv.record.args.attrs).toEqual([{ ...h2d, rsv: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255] }]);
  });

  it('aclrtMemcpyBatchAsync: the arrays, a pointer with all 64 bits, failIndex and the stream (CP-11)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const hostPtr = must(state.hostPtr, 'hostPtr');
    const stream = must(state.stream, 'stream');
    const d2h = { dstLoc: { id: 0, type: 0 }, srcLoc: { id: 0, type: 1 } };
    const args = {
      dsts: [hostPtr],
      destMaxs: [4096],
      srcs: [devPtr],
      sizes: [4096],
      numBatches: 1,
      attrs: [d2h],
      attrsIndexes: [0],
      numAttrs: 1,
    };
    const back = await recorded('aclrtMemcpyBatchAsync', () => runtime.aclrtMemcpyBatchAsync({ ...args, stream }));
    expect(back.record).toMatchObject({
      args: { ...args, attrs: [{ ...d2h, rsv: ZERO16 }], failIndex: POINTER, stream },
      out: { failIndex: SIZE_MAX },
      ret: 0,
    });
    expect(back.result).toEqual({ ret: 0, failIndex: -1 });
    // A source no memory holds, past 2^48: it arrives whole, and the runtime names copy 1.
    const far = '0xffffffffffff0010';
    const wide = await recorded('aclrtMemcpyBatchAsync', () =>
      runtime.aclrtMemcpyBatchAsync({
        ...args,
        dsts: [hostPtr, hostPtr],
        destMaxs: [4096, 64],
        srcs: [devPtr, far],
        sizes: [64, 64],
        numBatches: 2,
        stream,
      }),
    );
    expect(wide.record).toMatchObject({ args: { srcs: [devPtr, far], sizes: [64, 64], stream }, out: { failIndex: 1 }, ret: 107000 });
    expect(wide.result).toMatchObject({ ret: 107000, failIndex: 1 });
  });

  it('aclrtValueWrite, aclrtValueWait: the device word, a 64-bit value, the uint32_t flag, the stream (CP-12)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const stream = must(state.stream, 'stream');
    const value = 2 ** 52 + 3;
    const write = await recorded('aclrtValueWrite', () => runtime.aclrtValueWrite({ devAddr: devPtr, value, flag: 0, stream }));
    expect(write.record).toEqual({ ...write.record, args: { devAddr: devPtr, value, flag: 0, stream }, out: {}, ret: 0 });
    const wait = await recorded('aclrtValueWait', () => runtime.aclrtValueWait({ devAddr: devPtr, value, flag: 1, stream }));
    expect(wait.record).toEqual({ ...wait.record, args: { devAddr: devPtr, value, flag: 1, stream }, out: {}, ret: 0 });
    // The reserved flag of ValueWrite (a negative one as its 32-bit pattern), an unknown condition, an unaligned word.
    const reserved = await recorded('aclrtValueWrite', () => runtime.aclrtValueWrite({ devAddr: devPtr, value: 1, flag: -1, stream }));
    expect(reserved.record).toMatchObject({ args: { flag: 0xffffffff }, ret: 100000 });
    const unknown = await recorded('aclrtValueWait', () => runtime.aclrtValueWait({ devAddr: devPtr, value: 1, flag: 4, stream }));
    expect(unknown.record).toMatchObject({ args: { flag: 4 }, ret: 100000 });
    const odd = `0x${(BigInt(devPtr) + 4n).toString(16)}` as Hex;
    const unaligned = await recorded('aclrtValueWait', () => runtime.aclrtValueWait({ devAddr: odd, value: 1, flag: 0, stream: '0x0' }));
    expect(unaligned.record).toMatchObject({ args: { devAddr: odd, stream: null }, ret: 107000 });
  });

  it('aclrtCheckMemType: a void** list element by element, uint32_t size, memType and reserve, the uint32_t* result (DM-17)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const hostPtr = must(state.hostPtr, 'hostPtr');
    const inside = `0x${(BigInt(devPtr) + 100n).toString(16)}` as Hex;
    const device = await recorded('aclrtCheckMemType', () =>
      runtime.aclrtCheckMemType({ addrList: [devPtr, inside], size: 2, memType: 0x2, reserve: 0 }),
    );
    expect(device.record).toEqual({
      ...device.record,
      args: { addrList: [devPtr, inside], size: 2, memType: 2, checkResult: POINTER, reserve: 0 },
      out: { checkResult: 1 },
      ret: 0,
    });
    expect(device.result).toEqual({ ret: 0, checkResult: 1 });
    const host = await recorded('aclrtCheckMemType', () =>
      runtime.aclrtCheckMemType({ addrList: [devPtr, hostPtr], size: 2, memType: 0x2, reserve: 0 }),
    );
    expect(host.result).toEqual({ ret: 0, checkResult: 0 });
    // A negative memType goes as its 32-bit pattern; the header's RSVD bit 0x10 is not the runtime's (DM-17).
    const all = await recorded('aclrtCheckMemType', () =>
      runtime.aclrtCheckMemType({ addrList: [devPtr], size: 1, memType: -1, reserve: 0 }),
    );
    expect(all.record).toMatchObject({ args: { memType: 0xffffffff }, ret: 107000 });
    const rsvd = await recorded('aclrtCheckMemType', () =>
      runtime.aclrtCheckMemType({ addrList: [devPtr], size: 1, memType: 0x10, reserve: 0 }),
    );
    expect(rsvd.record).toMatchObject({ args: { memType: 0x10 }, ret: 107000 });
    // An empty list reaches C as NULL.
    const none = await recorded('aclrtCheckMemType', () => runtime.aclrtCheckMemType({ addrList: [], size: 0, memType: 0x2, reserve: 0 }));
    expect(none.record).toMatchObject({ args: { addrList: null, size: 0 }, ret: 100000 });
  });

  it('aclrtGetMemUsageInfo: an array of inputNum aclrtMemUsageInfo filled by the runtime, outputNum of them read back (DM-18)', async () => {
    const usage = await recorded('aclrtGetMemUsageInfo', () => runtime.aclrtGetMemUsageInfo({ deviceId: 0, inputNum: 8 }));
    expect(usage.record.args).toEqual({ deviceId: 0, memUsageInfo: POINTER, inputNum: 8, outputNum: POINTER });
    expect(usage.record.ret).toBe(0);
    const written = usage.record.out.memUsageInfo;
    if (!Array.isArray(written)) throw new Error('the double wrote no entries');
    // The double's components: its pools of device 0 that hold memory, largest first (huge, then normal pages).
    expect(written.map((entry: { name: string }) => entry.name)).toEqual(['acl double: huge pages', 'acl double: normal pages']);
    expect(usage.record.out.outputNum).toBe(2);
    // Field by field as the double wrote them; the all-zero reserved words are left out, as the simulator answers.
    expect(usage.result).toEqual({
      ret: 0,
      memUsageInfo: written.map(({ reserved, ...entry }: { reserved: number[] }) => {
        expect(reserved).toEqual(new Array<number>(8).fill(0));
        return entry;
      }),
      outputNum: 2,
    });
    // A capacity of one: the largest only.
    const one = await recorded('aclrtGetMemUsageInfo', () => runtime.aclrtGetMemUsageInfo({ deviceId: 0, inputNum: 1 }));
    expect(one.result).toMatchObject({ ret: 0, outputNum: 1, memUsageInfo: [{ name: 'acl double: huge pages' }] });
    // A negative device id arrives as itself; inputNum 0 → 107000.
    expect(
      (await recorded('aclrtGetMemUsageInfo', () => runtime.aclrtGetMemUsageInfo({ deviceId: -1, inputNum: 8 }))).record,
    ).toMatchObject({
      args: { deviceId: -1 },
      ret: 107001,
    });
    expect((await recorded('aclrtGetMemUsageInfo', () => runtime.aclrtGetMemUsageInfo({ deviceId: 0, inputNum: 0 }))).record).toMatchObject(
      {
        args: { inputNum: 0 },
        ret: 107000,
      },
    );
    // A capacity above what PageLens allocates is refused before the runtime is called.
    const mark = readLog(log).length;
    expect(await runtime.aclrtGetMemUsageInfo({ deviceId: 0, inputNum: 1025 })).toMatchObject({
      ret: 100000,
      message: expect.stringContaining('at most 1024'),
    });
    expect(readLog(log).slice(mark)).toEqual([]);
  });

  it('aclrtMemFlush, aclrtMemInvalidate: pointer and size_t; size 0 and NULL → 100000 (CP-10)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const flush = await recorded('aclrtMemFlush', () => runtime.aclrtMemFlush({ devPtr, size: 4096 }));
    expect(flush.record).toMatchObject({ args: { devPtr, size: 4096 }, ret: 0 });
    const invalidate = await recorded('aclrtMemInvalidate', () => runtime.aclrtMemInvalidate({ devPtr, size: 2 ** 36 }));
    expect(invalidate.record).toMatchObject({ args: { devPtr, size: 2 ** 36 }, ret: 100000 });
    const empty = await recorded('aclrtMemFlush', () => runtime.aclrtMemFlush({ devPtr, size: 0 }));
    expect(empty.record).toMatchObject({ args: { devPtr, size: 0 }, ret: 100000 });
    const none = await recorded('aclrtMemInvalidate', () => runtime.aclrtMemInvalidate({ devPtr: '0x0', size: 64 }));
    expect(none.record).toMatchObject({ args: { devPtr: null, size: 64 }, ret: 100000 });
  });

  it('aclrtSynchronizeStream, aclrtSynchronizeDevice', async () => {
    const stream = must(state.stream, 'stream');
    expect((await recorded('aclrtSynchronizeStream', () => runtime.aclrtSynchronizeStream({ stream }))).record.args).toEqual({ stream });
    expect((await recorded('aclrtSynchronizeDevice', () => runtime.aclrtSynchronizeDevice({}))).record.args).toEqual({});
  });

  it('aclrtSynchronizeStreamWithTimeout: the stream and an int32_t timeout, -1 passed as -1', async () => {
    const stream = must(state.stream, 'stream');
    const forever = await recorded('aclrtSynchronizeStreamWithTimeout', () =>
      runtime.aclrtSynchronizeStreamWithTimeout({ stream, timeout: -1 }),
    );
    expect(forever.record.args).toEqual({ stream, timeout: -1 });
    expect(forever.result.ret).toBe(0);
    const zero = await recorded('aclrtSynchronizeStreamWithTimeout', () =>
      runtime.aclrtSynchronizeStreamWithTimeout({ stream, timeout: 0 }),
    );
    expect(zero.record.args).toEqual({ stream, timeout: 0 });
    // CP-5: the runtime refuses 0 with 107000 (runtime-api.md §10).
    expect(zero.result.ret).toBe(107000);
  });

  it('contexts: aclrtContext* out, int32_t device (a negative one too), handles back with all their bits', async () => {
    const primary = await recorded('aclrtGetCurrentContext', () => runtime.aclrtGetCurrentContext({}));
    expect(primary.record.args).toEqual({ context: POINTER });
    const primaryContext = must(primary.result.context, 'context');
    expect(primaryContext).toBe(primary.record.out.context);
    const created = await recorded('aclrtCreateContext', () => runtime.aclrtCreateContext({ deviceId: 1 }));
    expect(created.record.args).toEqual({ context: POINTER, deviceId: 1 });
    const context = must(created.result.context, 'context');
    expect(context).toBe(created.record.out.context);
    const own = await recorded('aclrtCtxGetCurrentDefaultStream', () => runtime.aclrtCtxGetCurrentDefaultStream({}));
    expect(own.record.args).toEqual({ stream: POINTER });
    expect(own.result.stream).toBe(own.record.out.stream);
    expect(own.result.stream).not.toBe('0x0');
    const negative = await recorded('aclrtCreateContext', () => runtime.aclrtCreateContext({ deviceId: -1 }));
    expect(negative.record).toMatchObject({ args: { context: POINTER, deviceId: -1 }, ret: 107001 });
    const set = await recorded('aclrtSetCurrentContext', () => runtime.aclrtSetCurrentContext({ context: primaryContext }));
    expect(set.record.args).toEqual({ context: primaryContext });
    const destroyed = await recorded('aclrtDestroyContext', () => runtime.aclrtDestroyContext({ context }));
    expect(destroyed.record).toMatchObject({ args: { context }, ret: 0 });
    // CX-2: the device's default context cannot be destroyed.
    const refused = await recorded('aclrtDestroyContext', () => runtime.aclrtDestroyContext({ context: primaryContext }));
    expect(refused.record).toMatchObject({ args: { context: primaryContext }, ret: 107002 });
  });

  it('streams: uint32_t priority and flag (a negative flag as its 32-bit pattern), the uint64_t mode (-1 as 2^64-1)', async () => {
    const made = await recorded('aclrtCreateStreamWithConfig', () => runtime.aclrtCreateStreamWithConfig({ priority: 7, flag: -1 }));
    expect(made.record.args).toEqual({ stream: POINTER, priority: 7, flag: 0xffffffff });
    const stream = must(made.result.stream, 'stream');
    expect(stream).toBe(made.record.out.stream);
    const mode = await recorded('aclrtSetStreamFailureMode', () => runtime.aclrtSetStreamFailureMode({ stream, mode: -1 }));
    expect(mode.record).toMatchObject({ args: { stream, mode: '18446744073709551615' }, ret: 0 });
    // CP-7: stop on failure cannot go back to continue.
    const back = await recorded('aclrtSetStreamFailureMode', () => runtime.aclrtSetStreamFailureMode({ stream, mode: 0 }));
    expect(back.record).toMatchObject({ args: { stream, mode: 0 }, ret: 207000 });
    const query = await recorded('aclrtStreamQuery', () => runtime.aclrtStreamQuery({ stream }));
    expect(query.record.args).toEqual({ stream, status: POINTER });
    expect(query.result.status).toBe(0);
    const force = await recorded('aclrtDestroyStreamForce', () => runtime.aclrtDestroyStreamForce({ stream }));
    expect(force.record).toMatchObject({ args: { stream }, ret: 0 });
    const forever = await recorded('aclrtSynchronizeDeviceWithTimeout', () => runtime.aclrtSynchronizeDeviceWithTimeout({ timeout: -1 }));
    expect(forever.record).toMatchObject({ args: { timeout: -1 }, ret: 0 });
    const below = await recorded('aclrtSynchronizeDeviceWithTimeout', () => runtime.aclrtSynchronizeDeviceWithTimeout({ timeout: -2 }));
    expect(below.record).toMatchObject({ args: { timeout: -2 }, ret: 107000 });
  });

  it('events: aclrtEvent* outs, uint32_t flags, a negative int32_t timeout, the float* ms out, 64-bit handles', async () => {
    const stream = must(state.stream, 'stream');
    const plain = await recorded('aclrtCreateEvent', () => runtime.aclrtCreateEvent({}));
    expect(plain.record.args).toEqual({ event: POINTER });
    const start = must(plain.result.event, 'event');
    expect(start).toBe(plain.record.out.event);
    const flagged = await recorded('aclrtCreateEventWithFlag', () => runtime.aclrtCreateEventWithFlag({ flag: 0x09 }));
    expect(flagged.record.args).toEqual({ event: POINTER, flag: 0x09 });
    const end = must(flagged.result.event, 'event');
    const ex = await recorded('aclrtCreateEventExWithFlag', () => runtime.aclrtCreateEventExWithFlag({ flag: 0x01 }));
    expect(ex.record.args).toEqual({ event: POINTER, flag: 1 });
    const exEvent = must(ex.result.event, 'event');
    const record = await recorded('aclrtRecordEvent', () => runtime.aclrtRecordEvent({ event: start, stream }));
    expect(record.record).toMatchObject({ args: { event: start, stream }, ret: 0 });
    const wait = await recorded('aclrtStreamWaitEvent', () => runtime.aclrtStreamWaitEvent({ stream, event: start }));
    expect(wait.record).toMatchObject({ args: { stream, event: start }, ret: 0 });
    await runtime.aclrtRecordEvent({ event: end, stream });
    const sync = await recorded('aclrtSynchronizeEvent', () => runtime.aclrtSynchronizeEvent({ event: end }));
    expect(sync.record).toMatchObject({ args: { event: end }, ret: 0 });
    const timed = await recorded('aclrtSynchronizeEventWithTimeout', () =>
      runtime.aclrtSynchronizeEventWithTimeout({ event: end, timeout: -5 }),
    );
    expect(timed.record).toMatchObject({ args: { event: end, timeout: -5 }, ret: 107000 });
    const status = await recorded('aclrtQueryEventStatus', () => runtime.aclrtQueryEventStatus({ event: start }));
    expect(status.record.args).toEqual({ event: start, status: POINTER });
    expect(status.result.status).toBe(1);
    const elapsed = await recorded('aclrtEventElapsedTime', () => runtime.aclrtEventElapsedTime({ startEvent: start, endEvent: end }));
    expect(elapsed.record.args).toEqual({ ms: POINTER, startEvent: start, endEvent: end });
    const ms = must(elapsed.result.ms, 'ms');
    expect(ms).toBeGreaterThanOrEqual(0);
    // The double logged the float with 9 significant digits: read back as a float, the same value.
    expect(Math.fround(Number(elapsed.record.out.ms))).toBe(ms);
    // EV-6: an event never recorded has no time (507000).
    expect(await runtime.aclrtEventElapsedTime({ startEvent: exEvent, endEvent: end })).toMatchObject({ ret: 507000 });
    const stamp = await recorded('aclrtEventGetTimestamp', () => runtime.aclrtEventGetTimestamp({ event: start }));
    expect(stamp.record.args).toEqual({ event: start, timestamp: POINTER });
    expect(stamp.result.timestamp).toBe(stamp.record.out.timestamp);
    const reset = await recorded('aclrtResetEvent', () => runtime.aclrtResetEvent({ event: end, stream }));
    expect(reset.record).toMatchObject({ args: { event: end, stream }, ret: 0 });
    for (const event of [start, end, exEvent]) {
      expect((await recorded('aclrtDestroyEvent', () => runtime.aclrtDestroyEvent({ event }))).record).toMatchObject({
        args: { event },
        ret: 0,
      });
    }
    const wide = await recorded('aclrtDestroyEvent', () => runtime.aclrtDestroyEvent({ event: '0xffffffffffff0010' }));
    expect(wide.record).toMatchObject({ args: { event: '0xffffffffffff0010' }, ret: 100000 });
  });

  it('aclrtGetMemInfo: the aclrtMemAttr enum and two size_t* outs', async () => {
    const { result, record } = await recorded('aclrtGetMemInfo', () => runtime.aclrtGetMemInfo({ attr: 4 }));
    expect(record.args).toEqual({ attr: 4, free: POINTER, total: POINTER });
    expect(result).toMatchObject({ free: record.out.free, total: record.out.total });
  });

  it('malloc (libc): pageable memory from one host page up is page-aligned, so it can be registered (HM-5)', async () => {
    const { ptr } = await runtime.malloc({ size: 8192 });
    state.pageable = must(ptr, 'ptr');
    expect(BigInt(state.pageable) % 4096n).toBe(0n);
    checked.add('malloc');
  });

  it('aclrtHostRegister, aclrtHostRegisterV2 (flag 0x10000002), aclrtHostGetDevicePointer, aclrtHostUnregister', async () => {
    const ptr = must(state.vaHost, 'vaHost');
    const v1 = await recorded('aclrtHostRegister', () => runtime.aclrtHostRegister({ ptr, size: 8192, type: 0 }));
    expect(v1.record.args).toEqual({ ptr, size: 8192, type: 0, devPtr: POINTER });
    const pageable = must(state.pageable, 'pageable');
    const v2 = await recorded('aclrtHostRegisterV2', () => runtime.aclrtHostRegisterV2({ ptr: pageable, size: 8192, flag: 0x10000002 }));
    expect(v2.record.args).toEqual({ ptr: pageable, size: 8192, flag: 0x10000002 });
    const device = await recorded('aclrtHostGetDevicePointer', () => runtime.aclrtHostGetDevicePointer({ pHost: pageable, flag: 0 }));
    expect(device.record.args).toEqual({ pHost: pageable, pDevice: POINTER, flag: 0 });
    for (const registered of [pageable, ptr]) {
      expect((await recorded('aclrtHostUnregister', () => runtime.aclrtHostUnregister({ ptr: registered }))).record.args).toEqual({
        ptr: registered,
      });
    }
  });

  it('aclrtPointerGetAttributes: const void* in, aclrtPtrAttributes* out read back field by field', async () => {
    const ptr = must(state.devPtr, 'devPtr');
    const { result, record } = await recorded('aclrtPointerGetAttributes', () => runtime.aclrtPointerGetAttributes({ ptr }));
    expect(record.args).toEqual({ ptr, attributes: POINTER });
    expect(result.attributes).toEqual(record.out.attributes);
  });

  it('aclrtMemGetAddressRange: a pointer inside, the void** and size_t* outs read back (DM-16: the padded size)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const inside = `0x${(BigInt(devPtr) + 100n).toString(16)}` as Hex;
    const { result, record } = await recorded('aclrtMemGetAddressRange', () => runtime.aclrtMemGetAddressRange({ ptr: inside }));
    expect(record.args).toEqual({ ptr: inside, pbase: POINTER, psize: POINTER });
    expect(record.out).toEqual({ pbase: devPtr, psize: MiB + 32 });
    expect(result).toMatchObject({ ret: 0, pbase: devPtr, psize: MiB + 32 });
    const none = await recorded('aclrtMemGetAddressRange', () => runtime.aclrtMemGetAddressRange({ ptr: '0x0' }));
    expect(none.record).toMatchObject({ args: { ptr: null }, ret: 100000 });
  });

  it('aclrtMemGetAllocationGranularity: aclrtPhysicalMemProp* with every field, the options enum', async () => {
    const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { id: 0, type: 1 }, reserve: 0 };
    const { record } = await recorded('aclrtMemGetAllocationGranularity', () =>
      runtime.aclrtMemGetAllocationGranularity({ prop, option: 1 }),
    );
    expect(record.args).toEqual({ prop, option: 1, granularity: POINTER });
  });

  it('aclrtMallocPhysical receives prop.memAttr = 5, prop.location = {id: 0, type: 1}, reserve = 0, flags = 0', async () => {
    const prop = { handleType: 0, allocationType: 0, memAttr: 5, location: { id: 0, type: 1 }, reserve: 0 };
    const { result, record } = await recorded('aclrtMallocPhysical', () => runtime.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 }));
    expect(record.args).toEqual({
      handle: POINTER,
      size: 2 * MiB,
      prop: { handleType: 0, allocationType: 0, memAttr: 5, location: { id: 0, type: 1 }, reserve: 0 },
      flags: 0,
    });
    state.handle = must(result.handle, 'handle');
  });

  it('aclrtReserveMemAddress (NULL expectPtr, flags 1), aclrtMapMem, aclrtMemSetAccess, aclrtMemGetAccess', async () => {
    const reserve = await recorded('aclrtReserveMemAddress', () =>
      runtime.aclrtReserveMemAddress({ size: 4 * MiB, alignment: 0, expectPtr: '0x0', flags: 1 }),
    );
    expect(reserve.record.args).toEqual({ virPtr: POINTER, size: 4 * MiB, alignment: 0, expectPtr: null, flags: 1 });
    const virPtr = must(reserve.result.virPtr, 'virPtr');
    state.virPtr = virPtr;
    const handle = must(state.handle, 'handle');
    const map = await recorded('aclrtMapMem', () => runtime.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 }));
    expect(map.record.args).toEqual({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
    const desc = [{ flags: 3, location: { id: 0, type: 1 } }];
    const access = await recorded('aclrtMemSetAccess', () => runtime.aclrtMemSetAccess({ virPtr, size: 2 * MiB, desc, count: 1 }));
    expect(access.record.args).toEqual({
      virPtr,
      size: 2 * MiB,
      desc: [{ flags: 3, location: { id: 0, type: 1 }, rsv: ZERO12 }],
      count: 1,
    });
    const get = await recorded('aclrtMemGetAccess', () => runtime.aclrtMemGetAccess({ virPtr, location: { id: 1, type: 1 } }));
    expect(get.record.args).toEqual({ virPtr, location: { id: 1, type: 1 }, flag: POINTER });
  });

  it('aclrtMemRetainAllocationHandle: void* in, the handle out; aclrtMemGetAllocationPropertiesFromHandle: the prop read back (VM-12)', async () => {
    const virPtr = must(state.virPtr, 'virPtr');
    const handle = must(state.handle, 'handle');
    const retain = await recorded('aclrtMemRetainAllocationHandle', () => runtime.aclrtMemRetainAllocationHandle({ virPtr }));
    expect(retain.record).toMatchObject({ args: { virPtr, handle: POINTER }, out: { handle }, ret: 0 });
    expect(retain.result.handle).toBe(handle);
    // Not the start of a mapping → 100000.
    const inside = `0x${(BigInt(virPtr) + 4096n).toString(16)}` as Hex;
    const off = await recorded('aclrtMemRetainAllocationHandle', () => runtime.aclrtMemRetainAllocationHandle({ virPtr: inside }));
    expect(off.record).toMatchObject({ args: { virPtr: inside }, ret: 100000 });
    const props = await recorded('aclrtMemGetAllocationPropertiesFromHandle', () =>
      runtime.aclrtMemGetAllocationPropertiesFromHandle({ handle }),
    );
    expect(props.record.args).toEqual({ handle, prop: POINTER });
    const prop = { handleType: 0, allocationType: 0, memAttr: 5, location: { id: 0, type: 1 }, reserve: 0 };
    expect(props.record.out).toEqual({ prop });
    expect(props.result.prop).toEqual(prop);
    // The reference is given back with one aclrtFreePhysical: the handle stays live.
    expect(await runtime.aclrtFreePhysical({ handle })).toEqual({ ret: 0 });
    expect(await runtime.aclrtMemGetAllocationPropertiesFromHandle({ handle })).toMatchObject({ ret: 0, prop });
  });

  it('sharing: uint64_t shareable handles, int32_t* pid arrays, the export flags', async () => {
    const handle = must(state.handle, 'handle');
    const exported = await recorded('aclrtMemExportToShareableHandle', () =>
      runtime.aclrtMemExportToShareableHandle({ handle, handleType: 0, flags: 1 }),
    );
    expect(exported.record.args).toEqual({ handle, handleType: 0, flags: 1, shareableHandle: POINTER });
    const shareableHandle = must(exported.result.shareableHandle, 'shareableHandle');
    expect(BigInt(shareableHandle)).toBe(BigInt(String(exported.record.out.shareableHandle)));
    const pids = await recorded('aclrtMemSetPidToShareableHandle', () =>
      runtime.aclrtMemSetPidToShareableHandle({ shareableHandle, pid: [4242, 17], pidNum: 2 }),
    );
    expect(pids.record.args).toEqual({ shareableHandle: Number(BigInt(shareableHandle)), pid: [4242, 17], pidNum: 2 });
    const imported = await recorded('aclrtMemImportFromShareableHandle', () =>
      runtime.aclrtMemImportFromShareableHandle({ shareableHandle, deviceId: 1 }),
    );
    expect(imported.record.args).toEqual({ shareableHandle: Number(BigInt(shareableHandle)), deviceId: 1, handle: POINTER });
  });

  it('IPC: a char* key buffer of len bytes, its text read back; const char* keys, int32_t* pids, uint64_t flags (IP-1 … IP-4)', async () => {
    const devPtr = must(state.devPtr, 'devPtr');
    const exported = await recorded('aclrtIpcMemGetExportKey', () =>
      runtime.aclrtIpcMemGetExportKey({ devPtr, size: 4096, len: 65, flags: 1 }),
    );
    expect(exported.record).toMatchObject({ args: { devPtr, size: 4096, key: POINTER, len: 65, flags: 1 }, ret: 0 });
    const key = must(exported.result.key, 'key');
    // The text up to its NUL: 64 characters, exactly what the double wrote.
    expect(key).toHaveLength(64);
    expect(key).toBe(exported.record.out.key);
    // A longer buffer passes its length; the text is still the key alone.
    const longer = await recorded('aclrtIpcMemGetExportKey', () =>
      runtime.aclrtIpcMemGetExportKey({ devPtr, size: 64, len: 200, flags: 0 }),
    );
    expect(longer.record.args).toMatchObject({ len: 200, flags: 0 });
    expect(longer.result.key).toHaveLength(64);
    // len below 65 → 107000 (IP-1); above 4096 PageLens allocates no buffer and calls nothing.
    const short = await recorded('aclrtIpcMemGetExportKey', () => runtime.aclrtIpcMemGetExportKey({ devPtr, size: 64, len: 64, flags: 0 }));
    expect(short.record).toMatchObject({ args: { len: 64 }, ret: 107000 });
    const mark = readLog(log).length;
    expect(await runtime.aclrtIpcMemGetExportKey({ devPtr, size: 64, len: 4097, flags: 0 })).toMatchObject({
      ret: 100000,
      message: expect.stringContaining('at most 4096 bytes'),
    });
    expect(readLog(log).slice(mark)).toEqual([]);
    const pids = await recorded('aclrtIpcMemSetImportPid', () => runtime.aclrtIpcMemSetImportPid({ key, pid: [-7, 4242], num: 2 }));
    expect(pids.record).toMatchObject({ args: { key, pid: [-7, 4242], num: 2 }, ret: 0 });
    // One process: importing its own key is refused (IP-3, as VM-9).
    const imported = await recorded('aclrtIpcMemImportByKey', () => runtime.aclrtIpcMemImportByKey({ key, flags: 1 }));
    expect(imported.record).toMatchObject({ args: { devPtr: POINTER, key, flags: 1 }, ret: 100000 });
    const closed = await recorded('aclrtIpcMemClose', () => runtime.aclrtIpcMemClose({ key }));
    expect(closed.record).toMatchObject({ args: { key }, ret: 0 });
    expect(await runtime.aclrtIpcMemClose({ key })).toMatchObject({ ret: 100000 });
    expect(await runtime.aclrtIpcMemClose({ key: must(longer.result.key, 'key') })).toEqual({ ret: 0 });
  });

  it('peers: int32_t* out and two ids; the peer id and uint32_t flags', async () => {
    const can = await recorded('aclrtDeviceCanAccessPeer', () => runtime.aclrtDeviceCanAccessPeer({ deviceId: 0, peerDeviceId: 1 }));
    expect(can.record.args).toEqual({ canAccessPeer: POINTER, deviceId: 0, peerDeviceId: 1 });
    const enable = await recorded('aclrtDeviceEnablePeerAccess', () => runtime.aclrtDeviceEnablePeerAccess({ peerDeviceId: 1, flags: 0 }));
    expect(enable.record.args).toEqual({ peerDeviceId: 1, flags: 0 });
    const disable = await recorded('aclrtDeviceDisablePeerAccess', () => runtime.aclrtDeviceDisablePeerAccess({ peerDeviceId: 1 }));
    expect(disable.record).toMatchObject({ args: { peerDeviceId: 1 }, ret: 0 });
    // Enabled again: later calls of this file copy between the devices.
    await runtime.aclrtDeviceEnablePeerAccess({ peerDeviceId: 1, flags: 0 });
  });

  it('the releasing calls receive exactly the pointers and handles they were given', async () => {
    const virPtr = must(state.virPtr, 'virPtr');
    const handle = must(state.handle, 'handle');
    expect((await recorded('aclrtUnmapMem', () => runtime.aclrtUnmapMem({ virPtr }))).record.args).toEqual({ virPtr });
    expect((await recorded('aclrtReleaseMemAddress', () => runtime.aclrtReleaseMemAddress({ virPtr }))).record.args).toEqual({ virPtr });
    expect((await recorded('aclrtFreePhysical', () => runtime.aclrtFreePhysical({ handle }))).record.args).toEqual({ handle });
    const devPtr = must(state.devPtr, 'devPtr');
    expect((await recorded('aclrtFree', () => runtime.aclrtFree({ devPtr }))).record.args).toEqual({ devPtr });
    const hostPtr = must(state.hostPtr, 'hostPtr');
    expect((await recorded('aclrtFreeHost', () => runtime.aclrtFreeHost({ hostPtr }))).record.args).toEqual({ hostPtr });
    const stream = must(state.stream, 'stream');
    expect((await recorded('aclrtDestroyStream', () => runtime.aclrtDestroyStream({ stream }))).record.args).toEqual({ stream });
    expect(await runtime.free({ ptr: must(state.pageable, 'pageable') })).toEqual({ ret: 0 });
    checked.add('free');
  });

  it('aclGetRecentErrMsg: a failure’s text comes back, read on the thread that failed', async () => {
    const failed = await runtime.aclrtFree({ devPtr: must(state.devPtr, 'devPtr') });
    expect(failed).toMatchObject({ ret: 100000, message: expect.stringContaining('[acl double] aclrtFree') });
    const { result } = await recorded('aclGetRecentErrMsg', () => runtime.aclGetRecentErrMsg({}));
    expect(result.errMsg).toContain('[acl double] aclrtFree');
  });

  it('aclrtResetDevice, aclrtResetDeviceForce, aclFinalize', async () => {
    await runtime.aclrtSetDevice({ deviceId: 1 });
    expect((await recorded('aclrtResetDevice', () => runtime.aclrtResetDevice({ deviceId: 1 }))).record.args).toEqual({ deviceId: 1 });
    expect((await recorded('aclrtResetDeviceForce', () => runtime.aclrtResetDeviceForce({ deviceId: 0 }))).record.args).toEqual({
      deviceId: 0,
    });
    expect((await recorded('aclFinalize', () => runtime.aclFinalize({}))).record.args).toEqual({});
  });

  it('covered every function of the catalogue', () => {
    expect(ACL_FUNCTION_NAMES.filter((fn) => !checked.has(fn))).toEqual([]);
  });
});
