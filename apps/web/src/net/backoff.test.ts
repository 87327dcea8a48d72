import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, backoffDelay } from './backoff.ts';

describe('reconnect backoff', () => {
  it('doubles from 0.5 s and stops at 10 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((attempt) => backoffDelay(attempt))).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });
  it('adds at most 20 % jitter', () => {
    expect(backoffDelay(1, 0.999)).toBe(600);
    expect(backoffDelay(99, 0.5)).toBe(BACKOFF_MAX_MS * 1.1);
  });
});
