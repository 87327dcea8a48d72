import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { firstUnavailable, framesObservable, isReadOnly, unavailable } from './backend.ts';

const ALL = new Set<string>(ACL_FUNCTION_NAMES);
/** What a read-only acl agent offers: everything that does not change state (S-9). */
const READ_ONLY = new Set<string>(ACL_FUNCTION_NAMES.filter((fn) => !ACL_FUNCTIONS[fn].mutates));
/** An older CANN without the VMM symbols, mutations allowed. */
const NO_VMM = new Set<string>([...ALL].filter((fn) => fn !== 'aclrtMapMem' && fn !== 'aclrtMallocPhysical'));

describe('what the backend can tell and do', () => {
  it('frames are placed by the simulator and never observed on a real runtime', () => {
    expect(framesObservable({ provenance: 'simulated' })).toBe(true);
    expect(framesObservable({ provenance: 'observed' })).toBe(false);
    expect(framesObservable(undefined)).toBe(true);
  });

  it('tells a read-only agent from a library that lacks a few symbols', () => {
    expect(isReadOnly(READ_ONLY)).toBe(true);
    expect(isReadOnly(ALL)).toBe(false);
    expect(isReadOnly(NO_VMM)).toBe(false);
  });

  it('names why a function cannot be called: viewer, read-only agent, missing symbol', () => {
    expect(unavailable('aclrtMalloc', { role: 'driver', functions: ALL })).toBeUndefined();
    expect(unavailable('aclrtMalloc', { role: 'viewer', functions: ALL })).toBe('viewer');
    expect(unavailable('aclrtMalloc', { role: 'driver', functions: READ_ONLY })).toBe('read-only');
    expect(unavailable('malloc', { role: 'driver', functions: READ_ONLY })).toBe('read-only');
    expect(unavailable('aclrtGetMemInfo', { role: 'driver', functions: READ_ONLY })).toBeUndefined();
    expect(unavailable('aclrtMapMem', { role: 'driver', functions: NO_VMM })).toBe('missing');
    expect(unavailable('aclrtMalloc', undefined)).toBeUndefined();
  });

  it('finds the first function of a form that would be refused', () => {
    expect(firstUnavailable(['aclrtSetDevice', 'aclrtMallocPhysical', 'aclrtMapMem'], { role: 'driver', functions: NO_VMM })).toEqual({
      fn: 'aclrtMallocPhysical',
      why: 'missing',
    });
    expect(firstUnavailable(['aclrtGetMemInfo'], { role: 'driver', functions: READ_ONLY })).toBeUndefined();
  });
});
