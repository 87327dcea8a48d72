/** One measured figure, as written to bench/results.json. */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly higherIsBetter: boolean;
  /** How it was measured, and where the target comes from. */
  readonly detail: string;
  /** The target DESIGN.md or an issue sets for this figure, in `unit`; absent when none is set. */
  readonly target?: number;
}

/** Whether a result meets its target; undefined when it has none. */
export function meetsTarget(result: BenchResult): boolean | undefined {
  if (result.target === undefined) return undefined;
  return result.higherIsBetter ? result.value >= result.target : result.value <= result.target;
}

export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchResult[]>;
}

/** The value at quantile q (0..1) of already sorted samples, by nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('no samples');
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}
