/** Byte-size constants. Sizes in PageLens are integer byte counts below 2^53. */
export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;
export const TiB = 1024 * GiB;

/** Decimal units, for users who think of device memory in GB (the UI offers both). */
export const KB = 1000;
export const MB = 1000 * KB;
export const GB = 1000 * MB;

export type UnitSystem = 'binary' | 'decimal';

const BINARY = [
  ['TiB', TiB],
  ['GiB', GiB],
  ['MiB', MiB],
  ['KiB', KiB],
] as const;
const DECIMAL = [
  ['TB', 1000 * GB],
  ['GB', GB],
  ['MB', MB],
  ['KB', KB],
] as const;

/** "3 MiB", "1.5 GiB", "96 B"; exact multiples print without decimals. */
export function formatBytes(bytes: number, system: UnitSystem = 'binary', digits = 2): string {
  const units = system === 'binary' ? BINARY : DECIMAL;
  const magnitude = Math.abs(bytes);
  for (const [unit, size] of units) {
    if (magnitude >= size) {
      const value = bytes / size;
      const text = Number.isInteger(value) ? String(value) : value.toFixed(digits).replace(/\.?0+$/, '');
      return `${text} ${unit}`;
    }
  }
  return `${bytes} B`;
}

/** Thousands separators for exact byte counts: 1048608 → "1,048,608". */
export function formatInteger(value: number): string {
  return Math.trunc(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export type SizeParse = { ok: true; bytes: number } | { ok: false; message: string };

const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: KiB,
  kb: KB,
  kib: KiB,
  m: MiB,
  mb: MB,
  mib: MiB,
  g: GiB,
  gb: GB,
  gib: GiB,
  t: TiB,
  tb: 1000 * GB,
  tib: TiB,
};

export const SIZE_SYNTAX_HELP =
  'write a whole number of bytes (3145728), hexadecimal (0x300000), or a number with a unit: B, KiB, MiB, GiB, TiB (powers of 1024) or KB, MB, GB, TB (powers of 1000), e.g. "3 MiB" or "1.5GiB"';

/**
 * Parses a size typed by a person: "3 MiB", "3MiB", "3145728", "0x300000", "1.5 GiB", "4k".
 * The result must be a whole number of bytes in [0, 2^53).
 */
export function parseSize(text: string): SizeParse {
  const input = text.trim().replace(/_/g, '');
  if (input === '') return { ok: false, message: `empty size; ${SIZE_SYNTAX_HELP}` };
  if (/^0x[0-9a-f]+$/i.test(input)) {
    const value = Number.parseInt(input.slice(2), 16);
    if (!Number.isSafeInteger(value)) return { ok: false, message: `"${text}" is 2^53 bytes or more; PageLens sizes stay below 2^53` };
    return { ok: true, bytes: value };
  }
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)$/i.exec(input);
  if (match === null) return { ok: false, message: `"${text}" is not a size; ${SIZE_SYNTAX_HELP}` };
  const [, number = '', unitText = ''] = match;
  const unit = SIZE_UNITS[unitText.toLowerCase() || 'b'];
  if (unit === undefined) return { ok: false, message: `"${unitText}" is not a size unit; ${SIZE_SYNTAX_HELP}` };
  const bytes = Number(number) * unit;
  if (!Number.isInteger(bytes)) return { ok: false, message: `"${text}" is not a whole number of bytes (${bytes})` };
  if (!Number.isSafeInteger(bytes)) return { ok: false, message: `"${text}" is 2^53 bytes or more; PageLens sizes stay below 2^53` };
  return { ok: true, bytes };
}

/** Rounds `value` up to a multiple of `alignment` (a positive integer). */
export function alignUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}

export function alignDown(value: number, alignment: number): number {
  return Math.floor(value / alignment) * alignment;
}

export function isAligned(value: number, alignment: number): boolean {
  return value % alignment === 0;
}
