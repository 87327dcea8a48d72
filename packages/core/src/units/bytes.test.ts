import { describe, expect, it } from 'vitest';
import { alignUp, formatBytes, formatInteger, GiB, KiB, MiB, parseSize } from './bytes.ts';
import { parseHex, toHex } from './hex.ts';

describe('parseSize', () => {
  it.each([
    ['3 MiB', 3 * MiB],
    ['3MiB', 3 * MiB],
    ['3145728', 3145728],
    ['0x300000', 0x300000],
    ['1.5 GiB', 1.5 * GiB],
    ['4k', 4 * KiB],
    ['2 GB', 2e9],
    ['64 b', 64],
    ['1_048_576', MiB],
    ['0', 0],
  ])('%s → %i bytes', (text, bytes) => expect(parseSize(text)).toEqual({ ok: true, bytes }));

  it.each([
    ['', 'empty size'],
    ['-1', 'is not a size'],
    ['3 MiBs', '"MiBs" is not a size unit'],
    ['1.5', 'not a whole number of bytes'],
    ['0.3 KiB', 'not a whole number of bytes'],
    ['0x20000000000000', '2^53'],
    ['9007199254740992', '2^53'],
    ['three', 'is not a size'],
  ])('refuses %j saying %s', (text, message) => {
    const result = parseSize(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });
});

describe('formatting', () => {
  it.each([
    [96, '96 B'],
    [4 * KiB, '4 KiB'],
    [3 * MiB, '3 MiB'],
    [1.5 * GiB, '1.5 GiB'],
    [64 * GiB, '64 GiB'],
  ])('%i → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
  it('decimal units', () => expect(formatBytes(64 * GiB, 'decimal')).toBe('68.72 GB'));
  it('thousands separators', () => expect(formatInteger(1048608)).toBe('1,048,608'));
  it('alignment', () => expect(alignUp(1048608, 2 * MiB)).toBe(2 * MiB));
});

describe('hex pointers', () => {
  it('round-trips', () => {
    expect(toHex(0x100000200000)).toBe('0x100000200000');
    expect(parseHex('0x100000200000')).toEqual({ ok: true, value: 0x100000200000 });
  });
  it.each(['100', '0x', '0xg1', '0x12345678901234567', '0x20000000000000'])('refuses %s', (text) => {
    expect(parseHex(text).ok).toBe(false);
  });
});
