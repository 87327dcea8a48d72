import { PAGE_CLASSES, type PageClass, type TlbGeometry } from '@pagelens/core';

/** Per class, the largest TLB the simulator accepts (core's MAX_TLB_ENTRIES = 2^20). */
export const MAX_TLB_ENTRIES = 1_048_576;

/** The geometry as a person types it: one text field per number. */
export type GeometryDraft = Readonly<Record<PageClass, { readonly entries: string; readonly ways: string }>>;

export type GeometryField = 'entries' | 'ways';

/** Why a field is refused; `code` names an i18n message under tlb.geometry.errors. */
export interface GeometryIssue {
  readonly pageClass: PageClass;
  readonly field: GeometryField;
  readonly code: 'notInteger' | 'entriesRange' | 'waysRange' | 'waysDivide';
  readonly values: Readonly<Record<string, string | number>>;
}

export type GeometryParse =
  | { readonly ok: true; readonly geometry: TlbGeometry }
  | { readonly ok: false; readonly issues: readonly GeometryIssue[] };

export function draftOf(geometry: TlbGeometry): GeometryDraft {
  const text = (pageClass: PageClass) => ({
    entries: String(geometry[pageClass].entries),
    ways: String(geometry[pageClass].ways),
  });
  return { normal: text('normal'), huge: text('huge'), giant: text('giant') };
}

/** A whole number typed with optional thousands separators ("1,024", "1 024", "1_024"); undefined otherwise. */
export function parseCount(text: string): number | undefined {
  const digits = text.trim().replace(/[,_\s]/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * PT-3: entries from 1 to 2^20 per class, ways a divisor of entries (sets = entries ÷ ways), the
 * same limits simulateTlb and coverageByClass enforce, so a geometry that passes here runs there.
 */
export function validateGeometry(draft: GeometryDraft): GeometryParse {
  const issues: GeometryIssue[] = [];
  const parsed: Partial<Record<PageClass, { entries: number; ways: number }>> = {};
  for (const pageClass of PAGE_CLASSES) {
    const { entries: entriesText, ways: waysText } = draft[pageClass];
    const entries = parseCount(entriesText);
    const ways = parseCount(waysText);
    const before = issues.length;
    if (entries === undefined) issues.push({ pageClass, field: 'entries', code: 'notInteger', values: { text: entriesText } });
    else if (entries < 1 || entries > MAX_TLB_ENTRIES) {
      issues.push({ pageClass, field: 'entries', code: 'entriesRange', values: { value: entries, max: MAX_TLB_ENTRIES } });
    }
    if (ways === undefined) issues.push({ pageClass, field: 'ways', code: 'notInteger', values: { text: waysText } });
    else if (ways < 1) issues.push({ pageClass, field: 'ways', code: 'waysRange', values: { value: ways } });
    else if (entries !== undefined && issues.length === before && entries % ways !== 0) {
      issues.push({ pageClass, field: 'ways', code: 'waysDivide', values: { ways, entries } });
    }
    if (issues.length === before && entries !== undefined && ways !== undefined) parsed[pageClass] = { entries, ways };
  }
  const { normal, huge, giant } = parsed;
  if (issues.length > 0 || normal === undefined || huge === undefined || giant === undefined) return { ok: false, issues };
  return { ok: true, geometry: { normal, huge, giant } };
}

export function sameGeometry(a: TlbGeometry, b: TlbGeometry): boolean {
  return PAGE_CLASSES.every((c) => a[c].entries === b[c].entries && a[c].ways === b[c].ways);
}
