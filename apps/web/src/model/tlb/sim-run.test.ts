import { ASCEND_910B2, GiB, HUGE_PAGE, MiB } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { runSimulation, simBars } from './sim-run.ts';

const geometry = ASCEND_910B2.tlb;
let clock = 0;
const now = () => {
  clock += 5;
  return clock;
};

describe('TLB simulation runs', () => {
  it('a cold sequential pass misses once per page touched', () => {
    const reply = runSimulation(
      {
        id: 7,
        segments: [{ va: GiB, bytes: 64 * MiB, pageSize: 4096 }],
        pattern: { kind: 'sequential', stride: 4096, passes: 1 },
        geometry,
        normalPageSize: 4096,
      },
      now,
    );
    expect(reply.ok && reply.id).toBe(7);
    if (!reply.ok) return;
    expect(reply.ms).toBe(5);
    expect(reply.result.byClass.normal).toMatchObject({ accesses: 16_384, misses: 16_384, hits: 0, distinctPages: 16_384 });
    const bars = simBars(reply.result);
    expect(bars).toEqual([{ pageClass: 'normal', accesses: 16_384, hits: 0, misses: 16_384, hitShare: 0, missShare: 1 }]);
  });

  it('a second pass over what fits the TLB only hits', () => {
    const reply = runSimulation(
      {
        id: 1,
        segments: [{ va: GiB, bytes: 64 * MiB, pageSize: HUGE_PAGE }],
        pattern: { kind: 'sequential', stride: 4096, passes: 2 },
        geometry,
        normalPageSize: 4096,
      },
      now,
    );
    if (!reply.ok) throw new Error(reply.message);
    expect(reply.result.byClass.huge).toMatchObject({ accesses: 32_768, misses: 32 });
    const [bar] = simBars(reply.result);
    expect((bar?.hitShare ?? 0) + (bar?.missShare ?? 0)).toBeCloseTo(1, 12);
    expect(bar?.missShare).toBeCloseTo(32 / 32_768, 12);
  });

  it('turns a refusal into a reply with the reason', () => {
    const reply = runSimulation(
      {
        id: 2,
        segments: [
          { va: 0, bytes: MiB, pageSize: 4096 },
          { va: 2 * MiB, bytes: MiB, pageSize: 4096 },
        ],
        pattern: { kind: 'random', count: 10, seed: 1 },
        geometry,
        normalPageSize: 4096,
      },
      now,
    );
    expect(reply).toEqual({ id: 2, ok: false, message: expect.stringContaining('contiguous') });
  });
});
