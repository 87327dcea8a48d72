/**
 * Pointers and handles travel as "0x…" strings (lowercase, no padding) between every layer,
 * exactly as C programmers write them. Inside the simulator they are integers below 2^53.
 */
export type Hex = `0x${string}`;

export const NULL_PTR: Hex = '0x0';

export function toHex(value: number): Hex {
  return `0x${value.toString(16)}`;
}

const HEX = /^0x[0-9a-fA-F]{1,16}$/;

export function isHex(text: unknown): text is Hex {
  return typeof text === 'string' && HEX.test(text);
}

export type HexParse = { ok: true; value: number } | { ok: false; message: string };

/** Parses "0x…" into an exact integer; refuses malformed text and values of 2^53 or more. */
export function parseHex(text: string): HexParse {
  if (!HEX.test(text))
    return { ok: false, message: `"${text}" is not a hexadecimal pointer; write it as 0x followed by 1 to 16 hex digits` };
  const value = Number.parseInt(text.slice(2), 16);
  if (!Number.isSafeInteger(value)) return { ok: false, message: `"${text}" is 2^53 or more, outside what PageLens can represent exactly` };
  return { ok: true, value };
}
