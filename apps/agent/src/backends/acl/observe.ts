import {
  aclrtMemAttr,
  type DeviceProfile,
  type Fallback,
  GiB,
  MiB,
  type PageClass,
  type PoolFigures,
  pageBytes,
  type Reason,
} from '@pagelens/core';
import type { NativeOutcome } from './native-call.ts';
import type { NativeCall } from './native-protocol.ts';

/*
 * Observing the device: which page pool served an allocation (DM-15), read from aclrtGetMemInfo
 * before and after the call and from aclrtPointerGetAttributes. Physical frames are never
 * observable through ACL, so nothing here says where in HBM the pages are.
 */

export interface PoolReading {
  readonly normal: PoolFigures;
  readonly huge: PoolFigures;
  readonly giant: PoolFigures;
  readonly all: PoolFigures;
}

type PoolName = keyof PoolReading;

const A = aclrtMemAttr.byName;
/** The aclrtMemAttr that reads each pool. HBM names work on DDR-only parts too: the runtime reads them as DDR there (§7). */
export const POOL_ATTRS: readonly (readonly [PoolName, number])[] = [
  ['normal', A.ACL_HBM_MEM_NORMAL],
  ['huge', A.ACL_HBM_MEM_HUGE],
  ['giant', A.ACL_HBM_MEM_HUGE1G],
  ['all', A.ACL_HBM_MEM],
];

/** The aclrtGetMemInfo calls of one reading, in POOL_ATTRS order. */
export function poolCalls(): NativeCall[] {
  return POOL_ATTRS.map(([, attr]) => ({ fn: 'aclrtGetMemInfo', args: { attr } }));
}

function figures(outcome: NativeOutcome | undefined): PoolFigures | undefined {
  if (outcome === undefined || outcome.ret !== 0) return undefined;
  const { free, total } = outcome.out;
  return typeof free === 'number' && typeof total === 'number' ? { free, total } : undefined;
}

/** A reading from the outcomes of poolCalls(); a giant pool the device lacks reads 0/0 (DM-15: 207000). */
export function readingFrom(outcomes: readonly NativeOutcome[]): PoolReading | undefined {
  const [normal, huge, giant, all] = POOL_ATTRS.map((_, index) => figures(outcomes[index]));
  if (normal === undefined || huge === undefined || all === undefined) return undefined;
  return { normal, huge, giant: giant ?? { free: 0, total: 0 }, all };
}

export function sameReading(a: PoolReading | undefined, b: PoolReading): boolean {
  if (a === undefined) return false;
  return (['normal', 'huge', 'giant', 'all'] as const).every((pool) => a[pool].free === b[pool].free && a[pool].total === b[pool].total);
}

export type Evidence = 'pointer-attributes' | 'pool-delta' | 'rules';

export interface Attribution {
  readonly pageClass: PageClass;
  readonly pageSize: number;
  readonly pages: number;
  /** What decided the page class: the runtime's answer, or RULES.md when the device said nothing. */
  readonly evidence: Evidence;
  readonly fallback?: Fallback;
  readonly reasons: readonly Reason[];
}

export interface AttributionInput {
  /** Bytes the runtime rounds the request to (DM-3), or the physical size. */
  readonly padded: number;
  /** The page class RULES.md predicts, and where HUGE_FIRST would fall back to (DM-4). */
  readonly expected: PageClass;
  readonly expectedFallback?: PageClass;
  readonly before?: PoolReading;
  readonly after?: PoolReading;
  /** aclrtPointerGetAttributes(devPtr).pageSize, when the symbol exists and answered. */
  readonly pointerPageSize?: number;
  readonly profile: DeviceProfile;
}

function classOfPageSize(pageSize: number): PageClass | undefined {
  if (pageSize === 2 * MiB) return 'huge';
  if (pageSize === GiB) return 'giant';
  return pageSize > 0 ? 'normal' : undefined;
}

const CLASSES: readonly PageClass[] = ['normal', 'huge', 'giant'];

/** Decides which pool served an allocation, from the strongest evidence available. */
export function attribute(input: AttributionInput): Attribution {
  const { before, after, profile } = input;
  const drops = new Map<PageClass, number>();
  if (before !== undefined && after !== undefined) {
    for (const pageClass of CLASSES) {
      const drop = before[pageClass].free - after[pageClass].free;
      if (drop > 0) drops.set(pageClass, drop);
    }
  }
  const fromPointer = input.pointerPageSize === undefined ? undefined : classOfPageSize(input.pointerPageSize);
  let pageClass: PageClass;
  let evidence: Evidence;
  if (fromPointer !== undefined) {
    pageClass = fromPointer;
    evidence = 'pointer-attributes';
  } else if (drops.size > 0) {
    // Pools that share one HBM can all drop at once: prefer the one the rules expect, then the largest drop.
    const candidates = [...drops.keys()];
    const preferred = [input.expected, input.expectedFallback].find((c) => c !== undefined && drops.has(c));
    pageClass = preferred ?? candidates.reduce((a, b) => ((drops.get(a) ?? 0) >= (drops.get(b) ?? 0) ? a : b));
    evidence = 'pool-delta';
  } else {
    pageClass = input.expected;
    evidence = 'rules';
  }
  const pageSize = fromPointer === 'normal' && input.pointerPageSize !== undefined ? input.pointerPageSize : pageBytes(pageClass, profile);
  const drop = drops.get(pageClass);
  const pages = drop !== undefined && drop % pageSize === 0 ? drop / pageSize : Math.ceil(input.padded / pageSize);
  const reasons: Reason[] = [
    {
      code: 'observed-pool',
      rules: ['DM-15'],
      values: {
        pageClass,
        evidence,
        ...(drop === undefined ? {} : { freeDrop: drop }),
        ...(input.pointerPageSize === undefined ? {} : { pointerPageSize: input.pointerPageSize }),
      },
    },
  ];
  // DM-4: HUGE_FIRST wanted huge pages and the device served normal ones: the fallback, as observed.
  const fellBack = input.expected === 'huge' && input.expectedFallback === 'normal' && pageClass === 'normal' && evidence !== 'rules';
  if (!fellBack) return { pageClass, pageSize, pages, evidence, reasons };
  const needed = Math.ceil(input.padded / (2 * MiB));
  const free = before === undefined ? 0 : Math.floor(before.huge.free / (2 * MiB));
  reasons.push({ code: 'huge-first-fallback', rules: ['DM-4'], values: { freeHuge: free, needed } });
  return { pageClass, pageSize, pages, evidence, fallback: { from: 'huge', needed, free }, reasons };
}
