import { ACL_FUNCTIONS, type AclFunctionName, releaseCallOf } from '@pagelens/core';
import type { OutValue } from './marshal.ts';
import type { NativeCall } from './native-protocol.ts';
import { EXACT_LIMIT } from './pointers.ts';

/*
 * Pointer width (see README.md, "Pointers"). Results keep every pointer exactly as "0x…" text,
 * all 64 bits. Events and the replicated state hold addresses as numbers, exact only below 2^53;
 * real device and user-space addresses are far below that (a 48-bit VA space), so a pointer at or
 * above 2^53 means something PageLens does not understand. Rather than record a rounded address,
 * the backend refuses the result and gives the object back to the runtime.
 */

/** "devPtr = 0x…" for the first out pointer or handle at or above 2^53, else undefined. */
export function tooWide(fn: AclFunctionName, out: Readonly<Record<string, OutValue>>): string | undefined {
  for (const param of ACL_FUNCTIONS[fn].params) {
    if (param.dir !== 'out' || (param.value.t !== 'ptr' && param.value.t !== 'handle')) continue;
    const value = out[param.name];
    if (typeof value === 'string' && value.startsWith('0x') && BigInt(value) >= EXACT_LIMIT) return `${param.name} = ${value}`;
  }
  return undefined;
}

/**
 * The call that releases what `fn` just created (the catalogue's `releasedBy`), so a refused result
 * leaves nothing behind.
 */
export function undoCall(
  fn: AclFunctionName,
  args: Readonly<Record<string, unknown>>,
  out: Readonly<Record<string, OutValue>>,
): NativeCall | undefined {
  return releaseCallOf(fn, args, out);
}
