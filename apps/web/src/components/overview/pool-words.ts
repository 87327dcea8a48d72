import type { TFunction } from 'i18next';
import { bytes, type FormatPrefs } from '../../model/format.ts';
import type { PoolBar, PoolKind } from '../../model/overview/device-summary.ts';

export interface PoolWords {
  /** "2 GiB no longer available to 1 GiB pages · 62 GiB free". */
  readonly figures: string;
  /** What that figure is made of, when it is more than the pool's own pages (the simulator knows). */
  readonly breakdown?: string;
}

/**
 * A pool's figures in words. `used` is total − free: memory this page kind can no longer get, which
 * after one 1 MiB HUGE_FIRST allocation is a whole 1 GiB block for the giant pool although no giant
 * page exists; "used" would say otherwise, so the words say "no longer available" and break it down.
 */
export function poolWords(t: TFunction, kind: PoolKind, bar: PoolBar, normalPage: string, prefs: FormatPrefs): PoolWords {
  const pages = t(`overview.pools.pages.${kind}`, { size: normalPage });
  const figures = t('overview.pools.figures', { used: bytes(bar.used, prefs), free: bytes(bar.free, prefs), pages });
  const parts = bar.breakdown;
  // Only pages of its own kind: the figure means what it seems to, no breakdown needed.
  if (parts === undefined || parts.own === bar.used) return { figures };
  const listed = [
    ...(parts.own > 0 ? [t('overview.pools.breakdown.own', { bytes: bytes(parts.own, prefs), pages })] : []),
    ...(parts.otherKinds > 0 ? [t('overview.pools.breakdown.otherKinds', { bytes: bytes(parts.otherKinds, prefs) })] : []),
    ...(parts.stranded > 0 ? [t('overview.pools.breakdown.stranded', { bytes: bytes(parts.stranded, prefs), pages })] : []),
  ];
  return { figures, breakdown: t('overview.pools.breakdown.list', { parts: listed.join(t('overview.pools.breakdown.separator')) }) };
}
