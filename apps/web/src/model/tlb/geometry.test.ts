import { ASCEND_910B2, type TlbGeometry } from '@pagelens/core';
import { describe, expect, it, vi } from 'vitest';
import { draftOf, type GeometryDraft, MAX_TLB_ENTRIES, parseCount, sameGeometry, validateGeometry } from './geometry.ts';
import { GeometryStore } from './geometry-store.ts';

const base = draftOf(ASCEND_910B2.tlb);
const withClass = (pageClass: keyof GeometryDraft, entries: string, ways: string): GeometryDraft => ({
  ...base,
  [pageClass]: { entries, ways },
});

describe('TLB geometry validation (PT-3)', () => {
  it('round-trips the profile geometry', () => {
    const parsed = validateGeometry(base);
    expect(parsed).toEqual({ ok: true, geometry: ASCEND_910B2.tlb });
  });

  it('reads thousands separators', () => {
    expect(parseCount('1,024')).toBe(1024);
    expect(parseCount(' 1 048 576 ')).toBe(1_048_576);
    expect(parseCount('12a')).toBeUndefined();
    expect(parseCount('-4')).toBeUndefined();
    expect(parseCount('')).toBeUndefined();
    const parsed = validateGeometry(withClass('normal', '2,048', '16'));
    expect(parsed.ok && parsed.geometry.normal).toEqual({ entries: 2048, ways: 16 });
  });

  it.each([
    ['0', '1', 'entries', 'entriesRange'],
    [String(MAX_TLB_ENTRIES + 1), '1', 'entries', 'entriesRange'],
    ['abc', '8', 'entries', 'notInteger'],
    ['1024', '0', 'ways', 'waysRange'],
    ['1024', '3', 'ways', 'waysDivide'],
    ['1024', '2048', 'ways', 'waysDivide'],
    ['1024', 'eight', 'ways', 'notInteger'],
  ])('entries %s, ways %s → %s %s', (entries, ways, field, code) => {
    const parsed = validateGeometry(withClass('huge', entries, ways));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toEqual([expect.objectContaining({ pageClass: 'huge', field, code })]);
  });

  it('accepts the limits: 1 entry direct-mapped and 2^20 fully associative', () => {
    expect(validateGeometry(withClass('giant', '1', '1')).ok).toBe(true);
    expect(validateGeometry(withClass('giant', '1048576', '1048576')).ok).toBe(true);
  });

  it('reports every bad field, not only the first', () => {
    const draft: GeometryDraft = { normal: { entries: 'x', ways: 'y' }, huge: { entries: '8', ways: '3' }, giant: base.giant };
    const parsed = validateGeometry(draft);
    expect(parsed.ok ? [] : parsed.issues.map((i) => `${i.pageClass}.${i.field}.${i.code}`)).toEqual([
      'normal.entries.notInteger',
      'normal.ways.notInteger',
      'huge.ways.waysDivide',
    ]);
  });
});

describe('GeometryStore', () => {
  const edited: TlbGeometry = { ...ASCEND_910B2.tlb, normal: { entries: 4096, ways: 4 } };

  it('keeps an edit per profile, notifies, and resets to the profile', () => {
    const store = new GeometryStore();
    const listener = vi.fn();
    store.subscribe(listener);
    expect(store.get(ASCEND_910B2)).toBe(ASCEND_910B2.tlb);
    store.set(ASCEND_910B2, edited);
    expect(store.get(ASCEND_910B2)).toBe(edited);
    expect(store.isEdited(ASCEND_910B2)).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    store.set(ASCEND_910B2, { ...edited });
    expect(listener).toHaveBeenCalledTimes(1);
    store.reset(ASCEND_910B2);
    expect(store.get(ASCEND_910B2)).toBe(ASCEND_910B2.tlb);
    expect(store.isEdited(ASCEND_910B2)).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('treats setting the profile geometry as a reset', () => {
    const store = new GeometryStore();
    store.set(ASCEND_910B2, edited);
    store.set(ASCEND_910B2, { ...ASCEND_910B2.tlb });
    expect(store.isEdited(ASCEND_910B2)).toBe(false);
    expect(sameGeometry(store.get(ASCEND_910B2), ASCEND_910B2.tlb)).toBe(true);
  });
});
