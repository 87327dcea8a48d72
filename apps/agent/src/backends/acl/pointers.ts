import { type Hex, isHex } from '@pagelens/core';
import koffi from 'koffi';

/*
 * Pointers stay exact. Inside the binding they are BigInt (koffi gives BigInt for addresses);
 * on the wire and in results they are "0x…" strings, which hold all 64 bits. Only events need a
 * `number`, and a number is exact below 2^53: see `exactAddress`.
 */

/** 2^53: the first integer a JavaScript number cannot hold exactly. */
export const EXACT_LIMIT = 2n ** 53n;

/** A value the binding cannot represent the way PageLens needs it. */
export class Unrepresentable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Unrepresentable';
  }
}

export function toHex(value: bigint): Hex {
  return `0x${value.toString(16)}`;
}

export function hexToBigInt(text: unknown, what: string): bigint {
  if (!isHex(text)) throw new Unrepresentable(`${what}: expected a "0x…" pointer, received ${JSON.stringify(text)}`);
  return BigInt(text);
}

/** A koffi pointer value (External, or null for NULL) as its address. */
export function pointerValue(raw: unknown, what: string): bigint {
  if (raw === null || raw === undefined) return 0n;
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
  if (typeof raw === 'object') return koffi.address(raw);
  throw new Unrepresentable(`${what}: koffi returned ${typeof raw}, not a pointer`);
}

/** A koffi integer (number, or BigInt for 64-bit values past 2^53) as a BigInt. */
export function integerValue(raw: unknown, what: string): bigint {
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number' && Number.isInteger(raw)) return BigInt(raw);
  throw new Unrepresentable(`${what}: koffi returned ${JSON.stringify(raw)}, not an integer`);
}

/** A byte count or id as an exact number; past 2^53 it cannot be one. */
export function exactInteger(value: bigint, what: string): number {
  if (value >= EXACT_LIMIT || value <= -EXACT_LIMIT) {
    throw new Unrepresentable(`${what} is ${value}, 2^53 or more: PageLens keeps numbers exact and cannot hold it`);
  }
  return Number(value);
}

/** An address for an event, or undefined when it is 2^53 or more (events hold addresses as numbers). */
export function exactAddress(hex: Hex): number | undefined {
  const value = BigInt(hex);
  return value < EXACT_LIMIT ? Number(value) : undefined;
}
