import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexDigitsValue, hexToNumber, isHex, parseHex, toHex } from './hex.ts';

/** The definitions the hand-written fast paths replace: they must agree on every input. */
const REFERENCE_HEX = /^0x[0-9a-fA-F]{1,16}$/;
const referenceToHex = (value: number): string => `0x${value.toString(16)}`;
function referenceParse(text: string): { ok: true; value: number } | { ok: false } {
  if (!REFERENCE_HEX.test(text)) return { ok: false };
  const value = Number.parseInt(text.slice(2), 16);
  return Number.isSafeInteger(value) ? { ok: true, value } : { ok: false };
}

const EDGES = [
  0,
  1,
  15,
  16,
  0xfff_ffff,
  0x1000_0000,
  0x1000_0001,
  0x1fff_ffff,
  2 ** 31,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 44 + 4096,
  0x5500_0000_0100,
  2 ** 52,
  2 ** 53 - 1,
];

describe('toHex', () => {
  it('prints exactly what Number#toString(16) prints, at the edges of its two halves', () => {
    for (const value of EDGES) expect(toHex(value)).toBe(referenceToHex(value));
  });

  it('prints odd values (negative, fractional, too large, NaN) as before', () => {
    for (const value of [-1, -0x1000_0000, 0.5, 2 ** 40 + 0.5, 2 ** 53, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(toHex(value)).toBe(referenceToHex(value));
    }
  });

  it('agrees with Number#toString(16) on any safe integer (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (value) => toHex(value) === referenceToHex(value)));
  });

  it('agrees with Number#toString(16) at every digit count from 8 to 14 (property: one buffer per count)', () => {
    const anyLength = fc
      .integer({ min: 28, max: 52 })
      .chain((bits) => fc.integer({ min: 0, max: 2 ** bits - 1 }).map((offset) => 2 ** bits + offset));
    fc.assert(fc.property(anyLength, (value) => toHex(value) === referenceToHex(value)));
    // Strings from one buffer do not change when the buffer is reused.
    const first = toHex(0x5500_0000_0100);
    toHex(0x6600_0000_0200);
    expect(first).toBe('0x550000000100');
  });
});

describe('parseHex, isHex, hexToNumber', () => {
  const texts = [
    '0x0',
    '0x',
    '0X10',
    '0x0010',
    '0xABCdef',
    '0x1g',
    ' 0x10',
    '0x10 ',
    '0x10\n',
    'abc',
    '',
    '0x1fffffffffffff',
    '0x20000000000000',
    '0xffffffffffffffff',
    '0x00000000000000001',
    '0x0000000000000001',
    '0x٣',
  ];

  it('accepts and refuses exactly what the regular expression and parseInt did', () => {
    for (const text of texts) {
      const reference = referenceParse(text);
      const parsed = parseHex(text);
      expect(parsed.ok, text).toBe(reference.ok);
      if (parsed.ok && reference.ok) expect(parsed.value).toBe(reference.value);
      expect(isHex(text), text).toBe(REFERENCE_HEX.test(text));
      expect(hexToNumber(text)).toBe(reference.ok ? reference.value : Number.NaN);
    }
  });

  it('names the reason for a refusal', () => {
    expect(parseHex('0x1g')).toEqual({
      ok: false,
      message: '"0x1g" is not a hexadecimal pointer; write it as 0x followed by 1 to 16 hex digits',
    });
    expect(parseHex('0x20000000000000')).toEqual({
      ok: false,
      message: '"0x20000000000000" is 2^53 or more, outside what PageLens can represent exactly',
    });
    expect(isHex(16)).toBe(false);
  });

  it('agrees with the regular expression and parseInt on arbitrary text and on printed values (property)', () => {
    const hexish = fc.stringMatching(/^(0x|0X|x)?[0-9a-fA-FgG ]{0,18}$/);
    fc.assert(
      fc.property(fc.oneof(hexish, fc.string()), (text) => {
        const reference = referenceParse(text);
        const value = hexToNumber(text);
        return reference.ok ? value === reference.value : Number.isNaN(value) && (hexDigitsValue(text) === -1) !== REFERENCE_HEX.test(text);
      }),
    );
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (value) => hexToNumber(toHex(value)) === value));
  });
});
