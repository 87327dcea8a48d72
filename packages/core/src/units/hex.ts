/**
 * Pointers and handles travel as "0x…" strings (lowercase, no padding) between every layer,
 * exactly as C programmers write them. Inside the simulator they are integers below 2^53.
 *
 * Every simulated call parses and prints pointers, so both directions are written by hand: no
 * regular expression, and no `Number#toString(16)` of a large value (V8 prints a double in another
 * radix on a slow exact-fraction path; small integers take a fast one). hex.test.ts holds them
 * to the regex/`toString` definitions they replace.
 */
export type Hex = `0x${string}`;

export const NULL_PTR: Hex = '0x0';

/** 2^28: the low seven hex digits; both halves of a value below 2^53 are then small integers. */
const LOW_SPAN = 0x1000_0000;
/** Character codes of the hex digits 0–9, a–f. */
const DIGIT_CODES = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66];
/**
 * One character-code buffer per digit count (8 to 14 for values from 2^28 to 2^53), "0x" in
 * place: `String.fromCharCode` then makes the string flat in one allocation. (Concatenated pieces
 * made a rope of several strings that every later read of the pointer had to flatten first.)
 * Scratch: filled and read within one call.
 */
const CODE_BUFFERS: number[][] = Array.from({ length: 15 }, (_, digits) => [0x30, 0x78, ...new Array<number>(digits).fill(0x30)]);

export function toHex(value: number): Hex {
  // Small values, and anything that is not a safe integer (NaN, fractions), print as they always did.
  if (value < LOW_SPAN || !Number.isSafeInteger(value)) return `0x${value.toString(16)}`;
  let high = Math.floor(value / LOW_SPAN);
  let low = value - high * LOW_SPAN;
  // Seven digits for the low half (zero-padded), and as many as the high half needs (it is below 2^25).
  const digits = 7 + ((35 - Math.clz32(high)) >> 2);
  const codes = CODE_BUFFERS[digits] ?? [];
  for (let i = digits + 1; i >= digits - 5; i -= 1) {
    codes[i] = DIGIT_CODES[low & 15] ?? 0x30;
    low >>>= 4;
  }
  for (let i = digits - 6; i >= 2; i -= 1) {
    codes[i] = DIGIT_CODES[high & 15] ?? 0x30;
    high >>>= 4;
  }
  const text = String.fromCharCode(...codes);
  return isPrefixed(text) ? text : `0x${value.toString(16)}`;
}

/** The type's promise, checked in two character reads (`codes` starts with "0x", so it always holds). */
function isPrefixed(text: string): text is Hex {
  return text.charCodeAt(0) === 0x30 && text.charCodeAt(1) === 0x78;
}

/** At most 16 hex digits after "0x", as a C pointer or uint64 is written. */
const MAX_DIGITS = 16;

/**
 * The value of "0x" followed by 1 to 16 hex digits (either case), or -1 for any other text. The
 * value is exact below 2^53 and at least 2^53 otherwise (callers tell with `Number.isSafeInteger`).
 */
export function hexDigitsValue(text: string): number {
  const length = text.length;
  if (length < 3 || length > MAX_DIGITS + 2 || text.charCodeAt(0) !== 0x30 || text.charCodeAt(1) !== 0x78) return -1;
  let value = 0;
  for (let i = 2; i < length; i += 1) {
    const code = text.charCodeAt(i);
    let digit: number;
    if (code >= 0x30 && code <= 0x39) digit = code - 0x30;
    else if (code >= 0x61 && code <= 0x66) digit = code - 0x57;
    else if (code >= 0x41 && code <= 0x46) digit = code - 0x37;
    else return -1;
    value = value * 16 + digit;
  }
  return value;
}

export function isHex(text: unknown): text is Hex {
  return typeof text === 'string' && hexDigitsValue(text) !== -1;
}

export type HexParse = { ok: true; value: number } | { ok: false; message: string };

/** Parses "0x…" into an exact integer; refuses malformed text and values of 2^53 or more. */
export function parseHex(text: string): HexParse {
  const value = hexDigitsValue(text);
  if (value === -1) return { ok: false, message: `"${text}" is not a hexadecimal pointer; write it as 0x followed by 1 to 16 hex digits` };
  if (!Number.isSafeInteger(value)) return { ok: false, message: `"${text}" is 2^53 or more, outside what PageLens can represent exactly` };
  return { ok: true, value };
}

/** `parseHex` without the result object, for hot paths: the value, or NaN when `parseHex` would refuse. */
export function hexToNumber(text: string): number {
  const value = hexDigitsValue(text);
  return value !== -1 && Number.isSafeInteger(value) ? value : Number.NaN;
}
