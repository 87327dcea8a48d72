import { describe, expect, it } from 'vitest';
import { normalizeArgs } from './wire-args.ts';

describe('normalizeArgs', () => {
  it('reads a negative 32-bit enum or flag word as the unsigned bits the runtime sees; 64-bit parameters keep their value', () => {
    expect(normalizeArgs('aclrtMalloc', { size: 4096, policy: -2147483648 })).toEqual({
      ok: true,
      value: { size: 4096, policy: 0x8000_0000 },
    });
    expect(normalizeArgs('aclrtCreateEventWithFlag', { flag: [-1, 'ACL_EVENT_SYNC'] })).toEqual({ ok: true, value: { flag: 0xffff_ffff } });
    expect(normalizeArgs('aclrtSetStreamFailureMode', { stream: '0x0', mode: -1 })).toEqual({
      ok: true,
      value: { stream: '0x0', mode: -1 },
    });
    expect(normalizeArgs('aclrtMalloc', { size: 4096, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' })).toEqual({
      ok: true,
      value: { size: 4096, policy: 1 },
    });
  });

  it('refuses a flag list longer than a flag word could mean', () => {
    const result = normalizeArgs('aclrtCreateEventWithFlag', { flag: new Array(65).fill('ACL_EVENT_SYNC') });
    expect(result).toEqual({ ok: false, field: 'flag', message: 'flag: a list of 65 flags; ACL_EVENT takes at most 64 names or numbers' });
  });
});
