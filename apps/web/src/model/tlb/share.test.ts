import { describe, expect, it } from 'vitest';
import { share } from './share.ts';

describe('share', () => {
  it('keeps two significant digits below 0.1%, and one decimal in the middle', () => {
    expect(share(1024 / (16 * 1024 * 1024))).toBe('0.0061%');
    expect(share(1 / 256)).toBe('0.4%');
    expect(share(0.5)).toBe('50.0%');
    expect(share(0)).toBe('0%');
    expect(share(1)).toBe('100%');
  });

  it('never shows 100% for a share below 1', () => {
    expect(share(32_736 / 32_768)).toBe('99.9%');
    expect(share(0.9996)).toBe('99.96%');
    expect(share(0.999_999_9)).toBe('>99.999%');
  });
});
