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
const ZEROS = '0000000';

export function toHex(value: number): Hex {
  // Small values, and anything that is not a safe integer (NaN, fractions), print as they always did.
  if (value < LOW_SPAN || !Number.isSafeInteger(value)) return `0x${value.toString(16)}`;
  const high = Math.floor(value / LOW_SPAN);
  const low = (value - high * LOW_SPAN).toString(16);
  // Zero-pad the low half to its seven digits.
  return `0x${high.toString(16)}${ZEROS.slice(low.length)}${low}`;
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
