import {
  type AccessPattern,
  type BufferSegment,
  PAGE_CLASSES,
  type PageClass,
  simulateTlb,
  type TlbGeometry,
  type TlbResult,
} from '@pagelens/core';

/** One TLB simulation, as sent to the worker (or run in place). */
export interface SimRequest {
  readonly id: number;
  readonly segments: readonly BufferSegment[];
  readonly pattern: AccessPattern;
  readonly geometry: TlbGeometry;
  readonly normalPageSize: number;
}

export type SimReply =
  | { readonly id: number; readonly ok: true; readonly result: TlbResult; readonly ms: number }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** Runs simulateTlb and times it; a refusal (RangeError: segments, offsets) becomes a reply, not a throw. */
export function runSimulation(request: SimRequest, now: () => number): SimReply {
  const start = now();
  try {
    const result = simulateTlb(request.segments, request.pattern, request.geometry, request.normalPageSize);
    return { id: request.id, ok: true, result, ms: now() - start };
  } catch (error) {
    return { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A page class's share of hits and misses, for a 100%-wide stacked bar. */
export interface SimBar {
  readonly pageClass: PageClass;
  readonly accesses: number;
  readonly hits: number;
  readonly misses: number;
  /** Fractions of `accesses`, summing to 1 (both 0 when there were none). */
  readonly hitShare: number;
  readonly missShare: number;
}

/** Only the classes the buffer touched; a buffer of one page size gives one bar. */
export function simBars(result: TlbResult): SimBar[] {
  return PAGE_CLASSES.filter((pageClass) => result.byClass[pageClass].accesses > 0).map((pageClass) => {
    const { accesses, hits, misses } = result.byClass[pageClass];
    return { pageClass, accesses, hits, misses, hitShare: hits / accesses, missShare: misses / accesses };
  });
}
