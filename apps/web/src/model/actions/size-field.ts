import { parseSize } from '@pagelens/core';

/**
 * What a size field accepts: everything `parseSize` does, except that unit spellings are exact.
 * "3 mb" is refused on purpose: it reads as MB (10^6) to some people and MiB (2^20) to others, and
 * on a device that difference is 145 KiB per MiB. The field then offers both readings.
 */
export const UNIT_SPELLINGS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'KB', 'MB', 'GB', 'TB'] as const;

export type SizeProblem =
  | { readonly code: 'empty' }
  | { readonly code: 'syntax'; readonly text: string }
  | { readonly code: 'unit'; readonly unit: string; readonly suggestions: readonly { readonly text: string; readonly bytes: number }[] }
  | { readonly code: 'fraction'; readonly text: string }
  | { readonly code: 'too-large'; readonly text: string }
  | { readonly code: 'below-min'; readonly min: number }
  | { readonly code: 'multiple'; readonly multiple: number };

export type SizeField = { readonly ok: true; readonly bytes: number } | { readonly ok: false; readonly problem: SizeProblem };

export interface SizeRules {
  /** Smallest accepted value in bytes (default 0). */
  readonly min?: number;
  /** The value must be a multiple of this many bytes (VM-2 granularity). */
  readonly multiple?: number;
}

const NUMBER_AND_UNIT = /^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)$/i;

function unitSuggestions(number: string, unit: string): { text: string; bytes: number }[] {
  const letter = unit.charAt(0).toUpperCase();
  const candidates = UNIT_SPELLINGS.filter((spelling) => spelling !== 'B' && spelling.startsWith(letter));
  return candidates.flatMap((spelling) => {
    const parsed = parseSize(`${number} ${spelling}`);
    return parsed.ok ? [{ text: `${number} ${spelling}`, bytes: parsed.bytes }] : [];
  });
}

/** Reads a size typed by a person; problems are codes the UI turns into sentences in either language. */
export function readSize(text: string, rules: SizeRules = {}): SizeField {
  const input = text.trim().replace(/_/g, '');
  if (input === '') return { ok: false, problem: { code: 'empty' } };
  const hex = /^0x[0-9a-f]+$/i.test(input);
  const match = hex ? null : NUMBER_AND_UNIT.exec(input);
  if (!hex && match === null) return { ok: false, problem: { code: 'syntax', text: input } };
  const [, number = '', unit = ''] = match ?? [];
  if (unit !== '' && !(UNIT_SPELLINGS as readonly string[]).includes(unit)) {
    return { ok: false, problem: { code: 'unit', unit, suggestions: unitSuggestions(number, unit) } };
  }
  const parsed = parseSize(input);
  if (!parsed.ok) {
    // The shape was right, so the number is either fractional bytes ("1.5") or 2^53 bytes or more.
    const tooLarge = /2\^53/.test(parsed.message);
    return { ok: false, problem: { code: tooLarge ? 'too-large' : 'fraction', text: input } };
  }
  const { min = 0, multiple } = rules;
  if (parsed.bytes < min) return { ok: false, problem: { code: 'below-min', min } };
  if (multiple !== undefined && multiple > 0 && parsed.bytes % multiple !== 0)
    return { ok: false, problem: { code: 'multiple', multiple } };
  return { ok: true, bytes: parsed.bytes };
}
