import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of randomness in a launch token: 192 bits, printed as 48 hex characters. */
const TOKEN_BYTES = 24;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('hex');
}

/**
 * Compares a presented token with the expected one in constant time. Both are hashed first
 * so the comparison takes the same time whatever their lengths (timingSafeEqual needs equal
 * lengths, and an early length check would leak the token's length).
 */
export function tokensEqual(expected: string, presented: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(presented).digest();
  return timingSafeEqual(a, b);
}
