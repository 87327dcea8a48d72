import { describe, expect, it } from 'vitest';
import * as errors from './errors.ts';
import {
  ACL_ERROR_CONSTANTS,
  ACL_ERRORS,
  ACL_SUCCESS,
  type AclErrorRange,
  errorCode,
  errorMessage,
  errorName,
  errorRange,
} from './errors.ts';

/** Inclusive code spans per range, typed in again from acl-api.md §6. */
const SPANS: [AclErrorRange, [number, number][]][] = [
  ['caller', [[100000, 100045]]],
  ['caller-extended', [[148046, 148053]]],
  ['resource', [[200000, 200007]]],
  ['storage', [[300000, 300000]]],
  ['internal', [[500000, 500005]]],
  ['runtime-caller', [[107000, 107045]]],
  ['runtime-resource', [[207000, 207021]]],
  [
    'runtime-internal',
    [
      [507000, 507057],
      [507899, 507916],
    ],
  ],
];

describe('ACL_ERRORS (acl-api.md §6)', () => {
  it.each([
    ['caller', 46],
    ['caller-extended', 8],
    ['resource', 8],
    ['storage', 1],
    ['internal', 6],
    ['runtime-caller', 46],
    ['runtime-resource', 22],
    ['runtime-internal', 76],
  ])('range %s has %i codes', (range, count) => {
    expect([...ACL_ERRORS.values()].filter((e) => e.range === range)).toHaveLength(count);
  });

  it('has 213 codes in all', () => {
    expect(ACL_ERRORS.size).toBe(213);
  });

  it.each(SPANS)('%s covers every code of its spans and nothing else', (range, spans) => {
    const expected: number[] = [];
    for (const [first, last] of spans) for (let code = first; code <= last; code++) expected.push(code);
    const actual = [...ACL_ERRORS.values()].filter((e) => e.range === range).map((e) => e.code);
    expect(actual.sort((a, b) => a - b)).toEqual(expected);
  });

  it('gives every code a name with the ACL_ERROR_ prefix and a sentence of its own', () => {
    const messages = new Set<string>();
    for (const info of ACL_ERRORS.values()) {
      expect(info.name, String(info.code)).toMatch(/^ACL_ERROR_[A-Z0-9_]+$/);
      expect(info.message, info.name).toMatch(/^[A-Z].*\.$/);
      expect(info.message.length, info.name).toBeLessThanOrEqual(100);
      messages.add(info.message);
    }
    expect(messages.size).toBe(ACL_ERRORS.size);
  });

  it('expands the snapshot span one code each', () => {
    expect([507905, 507906, 507907, 507908, 507909].map(errorName)).toEqual([
      'ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT',
      'ACL_ERROR_SNAPSHOT_LOCK_FAILED',
      'ACL_ERROR_SNAPSHOT_UNLOCK_FAILED',
      'ACL_ERROR_SNAPSHOT_BACKUP_FAILED',
      'ACL_ERROR_SNAPSHOT_RESTORE_FAILED',
    ]);
  });
});

describe('errorName / errorCode', () => {
  it.each([
    [0, 'ACL_SUCCESS'],
    [100000, 'ACL_ERROR_INVALID_PARAM'],
    [100002, 'ACL_ERROR_REPEAT_INITIALIZE'],
    [148053, 'ACL_ERROR_INVALID_BUNDLE_MODEL_ID'],
    [200003, 'ACL_ERROR_MEMORY_ADDRESS_UNALIGNED'],
    [107008, 'ACL_ERROR_RT_ADDR_UNALIGNED'],
    [107032, 'ACL_ERROR_STREAM_CAPTURE_CONFLICT'],
    [207001, 'ACL_ERROR_RT_MEMORY_ALLOCATION'],
    [207018, 'ACL_ERROR_RT_DEVICE_OOM'],
    [507910, 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED'],
    [507916, 'ACL_ERROR_RT_CCU_EXCEPTION'],
  ])('%i ↔ %s', (code, name) => {
    expect(errorName(code)).toBe(name);
    expect(errorCode(name)).toBe(code);
  });

  it('names unknown codes without inventing a meaning', () => {
    expect(errorName(123)).toBe('UNKNOWN_ERROR_123');
    expect(errorName(-1)).toBe('UNKNOWN_ERROR_-1');
    expect(errorName(145000)).toBe('UNKNOWN_ERROR_145000');
    expect(errorMessage(507058)).toContain('507058');
    expect(errorRange(507058)).toBeUndefined();
  });

  it('resolves every success spelling and the DEVIDE spelling of the docs', () => {
    expect(errorCode('ACL_SUCCESS')).toBe(0);
    expect(errorCode('ACL_ERROR_NONE')).toBe(0);
    expect(errorCode('ACL_RT_SUCCESS')).toBe(0);
    expect(errorCode('ACL_ERROR_RT_DEVIDE_OOM')).toBe(207018);
    expect(errorCode('RT_MEMORY_ALLOCATION')).toBeUndefined();
    expect(errorCode('toString')).toBeUndefined();
  });

  it('messages: success, a memory code, an unknown code', () => {
    expect(errorMessage(ACL_SUCCESS)).toBe('The call succeeded.');
    expect(errorMessage(207001)).toMatch(/allocate/);
    expect(errorRange(207001)).toBe('runtime-resource');
    expect(errorRange(100000)).toBe('caller');
  });

  it('ACL_ERROR_CONSTANTS is the table plus success spellings plus aliases', () => {
    expect(ACL_ERROR_CONSTANTS.size).toBe(ACL_ERRORS.size + 3 + 1);
  });
});

describe('named constants', () => {
  const named: [string, number][] = [];
  for (const [name, value] of Object.entries(errors)) {
    if (name.startsWith('ACL_ERROR_') && typeof value === 'number') named.push([name, value]);
  }

  it('exports the codes a memory simulator needs', () => {
    const names = named.map(([name]) => name);
    for (const required of [
      'ACL_ERROR_INVALID_PARAM',
      'ACL_ERROR_UNINITIALIZE',
      'ACL_ERROR_REPEAT_INITIALIZE',
      'ACL_ERROR_REPEAT_FINALIZE',
      'ACL_ERROR_API_NOT_SUPPORT',
      'ACL_ERROR_FEATURE_UNSUPPORTED',
      'ACL_ERROR_BAD_ALLOC',
      'ACL_ERROR_RT_PARAM_INVALID',
      'ACL_ERROR_RT_INVALID_DEVICEID',
      'ACL_ERROR_RT_CONTEXT_NULL',
      'ACL_ERROR_RT_INVALID_HANDLE',
      'ACL_ERROR_RT_FEATURE_NOT_SUPPORT',
      'ACL_ERROR_RT_MEMORY_ALLOCATION',
      'ACL_ERROR_RT_MEMORY_FREE',
      'ACL_ERROR_RT_NO_DEVICE',
      'ACL_ERROR_RT_NO_PERMISSION',
      'ACL_ERROR_RT_DEVICE_OOM',
      'ACL_ERROR_RT_OVER_LIMIT',
      'ACL_ERROR_RT_INTERNAL_ERROR',
      'ACL_ERROR_RT_STREAM_CONTEXT',
      'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED',
      'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED',
      'ACL_ERROR_INVALID_RESOURCE_HANDLE',
      'ACL_ERROR_MEMORY_ADDRESS_UNALIGNED',
      'ACL_ERROR_RT_ADDR_UNALIGNED',
    ]) {
      expect(names).toContain(required);
    }
  });

  it.each(named)('%s = %i agrees with the table', (name, code) => {
    expect(errorName(code)).toBe(name);
  });
});
