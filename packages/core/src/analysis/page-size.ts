import type { PageClass } from '../model/events.ts';

/** Default normal page in bytes (DM-11: the host kernel page size; 64 KiB kernels exist). */
export const NORMAL_PAGE = 4096;
/** Huge page in bytes (DM-11). */
export const HUGE_PAGE = 2 * 1024 * 1024;
/** Giant page in bytes (DM-11): 512 huge pages. */
export const GIANT_PAGE = 1024 ** 3;

export type { PageClass };

/** In the order the UI lists them: smallest page first. */
export const PAGE_CLASSES: readonly PageClass[] = ['normal', 'huge', 'giant'];

/**
 * Throws unless `normalPageSize` is a plausible kernel page: a power of two from 4 KiB up to,
 * but not including, the huge page (DM-11 names 4 KiB and 64 KiB; 16 KiB kernels also exist).
 */
export function assertNormalPageSize(normalPageSize: number): void {
  if (
    !Number.isSafeInteger(normalPageSize) ||
    normalPageSize < NORMAL_PAGE ||
    normalPageSize >= HUGE_PAGE ||
    !isPowerOfTwo(normalPageSize)
  ) {
    throw new RangeError(`normalPageSize must be a power of two from 4096 to 1048576 bytes (DM-11), got ${normalPageSize}`);
  }
}

/** Page size in bytes of a class; normal pages are `normalPageSize` because of DM-11. */
export function pageSizeOf(pageClass: PageClass, normalPageSize: number = NORMAL_PAGE): number {
  assertNormalPageSize(normalPageSize);
  switch (pageClass) {
    case 'normal':
      return normalPageSize;
    case 'huge':
      return HUGE_PAGE;
    case 'giant':
      return GIANT_PAGE;
    default:
      return assertNever(pageClass);
  }
}

/** The class a page size in bytes belongs to; throws for a size that is none of the three. */
export function pageClassOf(pageSize: number, normalPageSize: number = NORMAL_PAGE): PageClass {
  assertNormalPageSize(normalPageSize);
  if (pageSize === normalPageSize) return 'normal';
  if (pageSize === HUGE_PAGE) return 'huge';
  if (pageSize === GIANT_PAGE) return 'giant';
  throw new RangeError(
    `pageSize ${pageSize} is not a page size here: expected ${normalPageSize} (normal), ${HUGE_PAGE} (huge) or ${GIANT_PAGE} (giant)`,
  );
}

/** Exact for every safe integer: no 32-bit bitwise operators, which would truncate sizes ≥ 2^31. */
export function isPowerOfTwo(value: number): boolean {
  if (!Number.isSafeInteger(value) || value < 1) return false;
  let v = value;
  while (v > 1) {
    if (v % 2 !== 0) return false;
    v /= 2;
  }
  return true;
}

function assertNever(value: never): never {
  throw new Error(`unexpected page class ${String(value)}`);
}
