import { errorName } from '../acl/errors.ts';
import { formatBytes } from '../units/bytes.ts';
import { isHex, parseHex, toHex } from '../units/hex.ts';
import { sizeOf, typeName } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import type { Machine, Scope } from './machine.ts';
import type { RefTarget, Value } from './values.ts';

/*
 * Host memory of the process (HM-1). The C code's own objects (locals, arrays, `new`, the
 * elements of a std::vector) are pageable memory with addresses, and the real runtime accepts any
 * host memory for a synchronous copy. The interpreter keeps their values in its cells; where the
 * runtime needs their address it takes pageable memory from the runtime's `malloc`, so the
 * simulator (or the device's host) sees a host buffer of the right size, shown in Host & copies.
 * Contents are not copied either way: PageLens models allocations, not contents.
 */

/** Where the end of a block is marked: its closing line. */
export function closingSpan(span: Span): Span {
  return { ...span, line: span.endLine, column: 1, from: span.to, to: span.to };
}

/** `bytes` of pageable memory from the runtime's malloc, the call marked on `span`'s line; 0 for none. */
export async function heapAlloc(m: Machine, bytes: number, span: Span, what: string): Promise<bigint> {
  if (bytes === 0) return 0n;
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new InterpError('runtime', `${what}: ${bytes} bytes cannot be allocated`, span);
  const result = await m.runtime.call('malloc', { size: bytes });
  m.marks.call(span, { fn: 'malloc', ret: result.ret, retName: errorName(result.ret) });
  const parsed = isHex(result.ptr) ? parseHex(result.ptr) : undefined;
  const addr = parsed?.ok === true ? BigInt(parsed.value) : 0n;
  if (addr === 0n) throw new InterpError('runtime', `${what}: the host has no ${formatBytes(bytes)} of pageable memory left`, span);
  m.marks.note(span, `${what}: ${formatBytes(bytes)} of pageable host memory at ${toHex(Number(addr))} (malloc, HM-1)`);
  return addr;
}

export async function heapFree(m: Machine, addr: bigint, span: Span, what: string): Promise<void> {
  if (addr === 0n) return;
  const result = await m.runtime.call('free', { ptr: toHex(Number(addr)) });
  m.marks.call(span, {
    fn: 'free',
    ret: result.ret,
    retName: errorName(result.ret),
    ...(result.message === undefined ? {} : { message: result.message }),
  });
  m.marks.note(span, `${what}: its host memory at ${toHex(Number(addr))} is freed`);
}

/** The key the machine records an object's owner under: the cell, or an array's element list. */
const ownerKey = (target: RefTarget): object => (target.isArray ? target.cells : (target.cells[0] ?? target));

/**
 * The address of a C object the code passes as host memory (`&num`, `float a[8]`): its backing
 * pageable memory, taken at the first such use and freed when the object's block ends.
 */
export async function hostAddress(m: Machine, value: Extract<Value, { k: 'ref' }>, span: Span): Promise<Value> {
  const { target } = value;
  const element = target.cells[0]?.type;
  const elementBytes = element === undefined ? 1 : (sizeOf(element) ?? 1);
  let base = m.backing.get(target);
  if (base === undefined) {
    const bytes = elementBytes * target.cells.length;
    const owner: Scope = m.owners.get(ownerKey(target)) ?? m.globals;
    const where = owner === m.globals ? 'a global' : 'a local on the stack';
    const what = `${target.label} (${element === undefined ? '?' : typeName(element)}${target.isArray ? `[${target.cells.length}]` : ''}), ${where}, is host memory of the process`;
    const addr = await heapAlloc(m, bytes, span, what);
    base = addr;
    m.backing.set(target, addr);
    owner.cleanups.push(async (end) => {
      m.backing.delete(target);
      await heapFree(m, addr, end, `${target.label} goes out of scope`);
    });
  }
  return { k: 'ptr', type: value.type, addr: base + BigInt(value.index * elementBytes) };
}
