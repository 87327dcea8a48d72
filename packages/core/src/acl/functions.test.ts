import { describe, expect, it } from 'vitest';
import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, functionSpec, isAclFunctionName, releaseCallOf } from './functions.ts';

describe('the catalogue', () => {
  it("each releasedBy names a catalogue function, fills exactly its inputs, from the creating call's parameters", () => {
    const creators = ACL_FUNCTION_NAMES.filter((fn) => functionSpec(fn).releasedBy !== undefined);
    expect(creators.length).toBeGreaterThan(10);
    for (const fn of creators) {
      const release = functionSpec(fn).releasedBy;
      if (release === undefined) continue;
      expect(isAclFunctionName(release.fn), `${fn} → ${release.fn}`).toBe(true);
      if (!isAclFunctionName(release.fn)) continue;
      const inputs = ACL_FUNCTIONS[release.fn].params.filter((param) => param.dir === 'in').map((param) => param.name);
      expect(Object.keys(release.args).sort(), `${fn} → ${release.fn}`).toEqual([...inputs].sort());
      const own = new Set<string>(ACL_FUNCTIONS[fn].params.map((param) => param.name));
      for (const from of Object.values(release.args)) expect(own.has(from), `${fn}: ${from}`).toBe(true);
      expect(ACL_FUNCTIONS[release.fn].mutates, release.fn).toBe(true);
    }
  });

  it('releaseCallOf reads out-values first, then inputs, and gives up when a value is missing', () => {
    expect(releaseCallOf('aclrtMalloc', { size: 4096, policy: 0 }, { devPtr: '0x1000' })).toEqual({
      fn: 'aclrtFree',
      args: { devPtr: '0x1000' },
    });
    expect(releaseCallOf('aclrtMallocHostWithCfg', { size: 1, cfg: null }, { ptr: '0x2000' })).toEqual({
      fn: 'aclrtFreeHost',
      args: { hostPtr: '0x2000' },
    });
    expect(releaseCallOf('aclrtHostRegisterV2', { ptr: '0x3000', size: 4096, flag: 1 }, {})).toEqual({
      fn: 'aclrtHostUnregister',
      args: { ptr: '0x3000' },
    });
    expect(releaseCallOf('aclrtMalloc', { size: 4096, policy: 0 }, {})).toBeUndefined();
    expect(releaseCallOf('aclrtGetMemInfo', { attr: 0 }, { free: 1, total: 2 })).toBeUndefined();
  });

  it('the calls that change page pools are the malloc family, physical memory and the unmap that may free it (DM-15)', () => {
    const pools = ACL_FUNCTION_NAMES.filter((fn) => functionSpec(fn).changesPools);
    expect(pools).toEqual([
      'aclrtMalloc',
      'aclrtMallocAlign32',
      'aclrtMallocCached',
      'aclrtMallocWithCfg',
      'aclrtFree',
      'aclrtMallocPhysical',
      'aclrtFreePhysical',
      'aclrtUnmapMem',
    ]);
  });
});
