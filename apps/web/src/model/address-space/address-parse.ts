/**
 * Reading an address a person typed: "0x1000_0020_1234", "0X10000020_1234", "17592188141108",
 * "17,592,188,141,108". Underscores (and, in decimal, commas or spaces) group digits. The result
 * must be a VA of the modeled 48-bit space (PT-2). Errors are codes the view turns into text.
 */
export type AddressError =
  | { readonly code: 'empty' }
  | { readonly code: 'hexDigits' }
  | { readonly code: 'decDigits' }
  | { readonly code: 'tooLarge' };

export type AddressParse = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly error: AddressError };

/** Exclusive bound: the modeled walk covers a 48-bit VA (PT-2). */
export const VA_BITS = 48;
const VA_LIMIT = 2 ** VA_BITS;

export function parseAddress(text: string): AddressParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: { code: 'empty' } };
  if (/^0x/i.test(trimmed)) {
    const digits = trimmed.slice(2).replaceAll('_', '');
    if (!/^[0-9a-f]{1,16}$/i.test(digits) || /__|_$|^_/.test(trimmed.slice(2))) return { ok: false, error: { code: 'hexDigits' } };
    return bounded(Number.parseInt(digits, 16));
  }
  if (!/^\d[\d_, ]*$/.test(trimmed) || /[_, ]$/.test(trimmed)) return { ok: false, error: { code: 'decDigits' } };
  const digits = trimmed.replaceAll(/[_, ]/g, '');
  return bounded(Number(digits));
}

/** Any value below 2^48 parses exactly; anything larger is refused, exact or not. */
function bounded(value: number): AddressParse {
  if (!Number.isSafeInteger(value) || value >= VA_LIMIT) return { ok: false, error: { code: 'tooLarge' } };
  return { ok: true, value };
}

/** "0x1000_0020_1234": hex grouped by four digits, for reading level indices against the bits. */
export function groupedHex(value: number): string {
  const digits = value.toString(16);
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 4) groups.unshift(digits.slice(Math.max(0, end - 4), end));
  return `0x${groups.join('_')}`;
}
