import type { ArrayType } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import { type Cell, newCell } from './values.ts';

/** The UTF-8 bytes of `text` (core runs without Node's or the DOM's TextEncoder). */
export function utf8(text: string): number[] {
  const out: number[] = [];
  for (const c of text) {
    const code = c.codePointAt(0) ?? 0;
    if (code < 0x80) out.push(code);
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return out;
}

/**
 * `char memName[256] = "name";` (C11 6.7.9 §14): the literal's bytes (UTF-8) fill the array from
 * its start, its terminating NUL too when there is room, and the rest is zero. A literal longer than
 * the array is a constraint violation (§2); `char key[4] = "abcd"` (no room for the NUL) is allowed.
 * `char tag[] = "name"` takes its length from the literal, NUL included (§22; parse-stmt.ts).
 */
export function charArrayFromString(type: ArrayType, text: string, name: string, span: Span): Cell | undefined {
  if (type.of.k !== 'int' || type.of.bits !== 8 || type.of.bool === true) return undefined;
  const bytes = utf8(text);
  if (bytes.length > type.length)
    throw new InterpError(
      'type',
      `the string "${text}" (${bytes.length} bytes) does not fit the array ${name}[${type.length}]: make the array longer or the text shorter`,
      span,
    );
  const cell = newCell(type, true);
  if (cell.value.k !== 'array') return undefined;
  for (const [index, byte] of bytes.entries()) {
    const item = cell.value.items[index];
    if (item !== undefined && item.type.k === 'int')
      item.value = { k: 'int', type: item.type, v: item.type.signed ? BigInt.asIntN(8, BigInt(byte)) : BigInt(byte) };
  }
  return cell;
}
