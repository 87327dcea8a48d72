import { ASCEND_310P3, type CallAnswer, type MemoryEvent, MiB, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { cCallText, cSignature } from './c-text.ts';
import { callPid, createdObjects, failureLine, failureReasons, outRows } from './outcome.ts';

function recorder() {
  const sim = new SimHost({ devices: [ASCEND_310P3] });
  const events = new Map<number, MemoryEvent>();
  let batch: MemoryEvent[] = [];
  sim.subscribe((emitted) => {
    for (const event of emitted) events.set(event.seq, event);
    batch.push(...emitted);
  });
  const runtime = new SimRuntime(sim, 'me');
  const lookup = { eventAtSeq: (seq: number) => events.get(seq) };
  /** Runs one call and returns an outcome shaped like the client's (events: the call's seqs). */
  const call = async <T extends { ret: number; message?: string }>(fn: string, run: () => Promise<T>) => {
    batch = [];
    const result = await run();
    const seqs = batch.map((event) => event.seq);
    const { ret, message, ...out } = result;
    const outcome: CallAnswer = { fn, ok: ret === 0, ret, out, events: seqs, ...(message === undefined ? {} : { message }) };
    return outcome;
  };
  return { sim, runtime, lookup, call };
}

describe('outcomes', () => {
  it('a failure reads "NAME (code): message" with the rule reasons of its call event', async () => {
    const { runtime, lookup, call } = recorder();
    await call('aclrtSetDevice', () => runtime.aclrtSetDevice({ deviceId: 0 }));
    const outcome = await call('aclrtMalloc', () => runtime.aclrtMalloc({ size: 1024 ** 3, policy: 6 }));
    expect(outcome.ok).toBe(false);
    expect(failureLine(outcome)).toBe('ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): Ascend310P3 has no 1 GiB pages (DM-7)');
    expect(failureReasons(outcome, lookup).map((reason) => reason.code)).toEqual(['giant-unsupported']);
    expect(callPid(outcome, lookup)).toBe(runtime.pid);
  });

  it('an agent refusal (no ACL code) shows its message alone', () => {
    expect(failureLine({ fn: 'aclrtMalloc', ok: false, message: 'size: expected a whole number', events: [] })).toBe(
      'size: expected a whole number',
    );
  });

  it('finds the allocation a call created, to select it', async () => {
    const { runtime, lookup, call } = recorder();
    await call('aclrtSetDevice', () => runtime.aclrtSetDevice({ deviceId: 0 }));
    const outcome = await call('aclrtMalloc', () => runtime.aclrtMalloc({ size: 3 * MiB, policy: 0 }));
    const created = createdObjects(outcome, lookup);
    expect(created).toHaveLength(1);
    expect(created[0]?.kind).toBe('allocation');
    expect(outRows(outcome)).toEqual([{ name: 'devPtr', value: expect.stringMatching(/^0x/) }]);
  });
});

describe('C text', () => {
  it('prints the header signature', () => {
    expect(cSignature('aclrtMalloc')).toBe('aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy)');
    expect(cSignature('aclrtGetSocName')).toBe('const char* aclrtGetSocName(void)');
  });

  it('prints a call with identifiers for enums and flags, & for out-parameters and structs', () => {
    expect(cCallText('aclrtMalloc', { size: 3 * MiB, policy: 0 })).toBe('aclrtMalloc(&devPtr, 3145728, ACL_MEM_MALLOC_HUGE_FIRST);');
    expect(cCallText('aclrtHostRegisterV2', { ptr: '0x1000', size: 4096, flag: 0x1000_0002 })).toBe(
      'aclrtHostRegisterV2(0x1000, 4096, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED);',
    );
    expect(
      cCallText('aclrtMallocPhysical', {
        size: 2 * MiB,
        prop: { handleType: 0, allocationType: 0, memAttr: 4, location: { id: 0, type: 1 }, reserve: 0 },
        flags: 0,
      }),
    ).toBe(
      [
        'aclrtPhysicalMemProp prop = { .handleType = ACL_MEM_HANDLE_TYPE_NONE, .allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED, .memAttr = ACL_HBM_MEM_HUGE, .location = { .id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE }, .reserve = 0 };',
        'aclrtMallocPhysical(&handle, 2097152, &prop, 0);',
      ].join('\n'),
    );
    expect(cCallText('malloc', { size: 4096 })).toBe('void *ptr = malloc(4096);');
    expect(cCallText('aclrtReserveMemAddress', { size: 1, alignment: 0, expectPtr: '0x0', flags: 0 })).toBe(
      'aclrtReserveMemAddress(&virPtr, 1, 0, NULL, 0);',
    );
  });

  it('prints a malloc config with its attributes (HM-4)', () => {
    expect(cCallText('aclrtMallocHostWithCfg', { size: 4096, cfg: { attrs: [{ attr: 3, value: { vaFlag: 1 } }], numAttrs: 1 } })).toBe(
      [
        'aclrtMallocAttribute cfgAttrs[] = { { .attr = ACL_RT_MEM_ATTR_VA_FLAG, .value.vaFlag = 1 } };',
        'aclrtMallocConfig cfg = { cfgAttrs, 1 };',
        'aclrtMallocHostWithCfg(&ptr, 4096, &cfg);',
      ].join('\n'),
    );
  });
});

describe('C signature on narrow panels', () => {
  it('puts one parameter per line', () => {
    expect(cSignature('aclrtFree', true)).toBe('aclError aclrtFree(\n  void* devPtr)');
  });
});
