import { describe, expect, it } from 'vitest';
import { newToken, tokensEqual } from './token.ts';

describe('launch token', () => {
  it('has at least 128 bits of randomness and differs per launch', () => {
    const a = newToken();
    expect(a).toMatch(/^[0-9a-f]{48}$/);
    expect(newToken()).not.toBe(a);
  });
  it('compares exactly', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abd')).toBe(false);
    expect(tokensEqual('abc', 'abcd')).toBe(false);
    expect(tokensEqual('abc', '')).toBe(false);
  });
});
