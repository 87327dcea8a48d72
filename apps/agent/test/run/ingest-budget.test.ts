import { describe, expect, it } from 'vitest';
import { IngestBudget } from '../../src/run/ingest-budget.ts';

describe('the trace ingest budget', () => {
  it('reads a burst in full, then paces a flood to its share of a core', () => {
    let now = 0;
    const budget = new IngestBudget(0.1, 50, () => now);
    // 50 ms of work at once is the burst: no pause.
    expect(budget.spend(30)).toBe(0);
    expect(budget.spend(20)).toBe(0);
    // Past it, 2 ms more of work waits until 0.1 ms per ms has paid for it: 20 ms.
    expect(budget.spend(2)).toBeCloseTo(20);
    now += 20;
    expect(budget.spend(0)).toBe(0);
    // Credit accrues with wall time, never past the burst.
    now += 10_000;
    expect(budget.spend(50)).toBe(0);
    expect(budget.spend(1)).toBeCloseTo(10);
  });
});
