import { describe, expect, it } from 'vitest';
import { groupedHex, parseAddress } from './address-parse.ts';

describe('parseAddress', () => {
  it.each([
    ['0x1000_0020_1234', 0x1000_0020_1234],
    ['0X100000201234', 0x1000_0020_1234],
    ['  0x1f  ', 0x1f],
    ['17592188146228', 17_592_188_146_228],
    ['17,592,188,146,228', 17_592_188_146_228],
    ['17_592_188_146_228', 17_592_188_146_228],
    ['0', 0],
    ['0xffff_ffff_ffff', 2 ** 48 - 1],
  ])('reads %s', (text, value) => {
    expect(parseAddress(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['0x', 'hexDigits'],
    ['0x12g4', 'hexDigits'],
    ['0x_12', 'hexDigits'],
    ['0x12__34', 'hexDigits'],
    ['0x1234_', 'hexDigits'],
    ['0x1_0000_0000_0000_0000', 'hexDigits'],
    ['12a', 'decDigits'],
    ['-4096', 'decDigits'],
    ['4096,', 'decDigits'],
    ['1e6', 'decDigits'],
    ['0x1_0000_0000_0000', 'tooLarge'],
    ['281474976710656', 'tooLarge'],
    ['99999999999999999999', 'tooLarge'],
  ])('refuses %j with %s', (text, code) => {
    expect(parseAddress(text)).toEqual({ ok: false, error: { code } });
  });
});

describe('groupedHex', () => {
  it('groups by four digits from the right', () => {
    expect(groupedHex(0x1000_0020_1234)).toBe('0x1000_0020_1234');
    expect(groupedHex(0x12345)).toBe('0x1_2345');
    expect(groupedHex(0)).toBe('0x0');
  });
});
