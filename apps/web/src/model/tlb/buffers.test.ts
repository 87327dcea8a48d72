import { GiB, HUGE_PAGE, MiB, NORMAL_PAGE, simulateTlb } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { scene } from '../../../test/tlb-scene.ts';
import { type BufferChoice, bufferChoices, bufferOptions, choiceForSelection } from './buffers.ts';

describe('buffers from allocations and VMM mappings', () => {
  it('an allocation is one segment of its page size over the requested bytes', async () => {
    const s = await scene();
    const va = await s.malloc(3 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    const [choice] = bufferChoices(s.state, 0);
    expect(choice).toMatchObject({ kind: 'allocation', va, bytes: 3 * MiB, segments: [{ va, bytes: 3 * MiB, pageSize: HUGE_PAGE }] });
  });

  it('a reservation with a normal and a huge handle mapped back to back is one buffer of two segments', async () => {
    const s = await scene();
    const base = await s.reserve(8 * MiB);
    await s.map(base + 2 * MiB, 2 * MiB, await s.physical(2 * MiB, 'ACL_HBM_MEM_HUGE'));
    await s.map(base, 2 * MiB, await s.physical(2 * MiB, 'ACL_HBM_MEM_NORMAL'));
    const choices = bufferChoices(s.state, 0);
    expect(choices).toHaveLength(1);
    const [choice] = choices;
    expect(choice).toMatchObject({ kind: 'reservation', run: 0, runs: 1, va: base, bytes: 4 * MiB });
    expect(choice?.segments).toEqual([
      { va: base, bytes: 2 * MiB, pageSize: NORMAL_PAGE },
      { va: base + 2 * MiB, bytes: 2 * MiB, pageSize: HUGE_PAGE },
    ]);
    // The segments are valid simulator input: a cold 4 KiB-stride pass walks once per page.
    const result = simulateTlb(
      choice?.segments ?? [],
      { kind: 'sequential', stride: 4096, passes: 1 },
      s.state.devices[0]?.profile.tlb ?? { normal: { entries: 1, ways: 1 }, huge: { entries: 1, ways: 1 }, giant: { entries: 1, ways: 1 } },
    );
    expect(result.byClass.normal.misses).toBe(512);
    expect(result.byClass.huge.misses).toBe(1);
    expect(result.byClass.huge.hits).toBe(511);
  });

  it('an unmapped hole splits a reservation into runs, and a selected mapping finds its run', async () => {
    const s = await scene();
    const base = await s.reserve(GiB);
    await s.map(base, 2 * MiB, await s.physical(2 * MiB, 'ACL_HBM_MEM_HUGE'));
    await s.map(base + 6 * MiB, 4 * MiB, await s.physical(4 * MiB, 'ACL_HBM_MEM_HUGE'));
    const choices = bufferChoices(s.state, 0);
    expect(choices.map((c) => [c.key.split(':')[0], c.run, c.runs, c.va - base, c.bytes])).toEqual([
      ['reservation', 0, 2, 0, 2 * MiB],
      ['reservation', 1, 2, 6 * MiB, 4 * MiB],
    ]);
    const second = [...s.state.mappings.values()].find((m) => m.addr === base + 6 * MiB);
    expect(choiceForSelection(choices, { kind: 'mapping', id: second?.id ?? -1 })?.run).toBe(1);
    const reservation = [...s.state.reservations.values()][0];
    expect(choiceForSelection(choices, { kind: 'reservation', id: reservation?.id ?? -1 })?.run).toBe(0);
    expect(choiceForSelection(choices, { kind: 'stream', id: 1 })).toBeUndefined();
  });
});

describe('buffer options', () => {
  const choice = (id: number, bytes: number): BufferChoice => ({
    key: `allocation:${id}`,
    kind: 'allocation',
    id,
    mappings: [],
    run: 0,
    runs: 1,
    va: id * GiB,
    bytes,
    segments: [{ va: id * GiB, bytes, pageSize: NORMAL_PAGE }],
    fn: 'aclrtMalloc',
  });
  const many = Array.from({ length: 10 }, (_, i) => choice(i, (i % 5) * MiB + MiB));

  it('lists everything when there are few', () => {
    expect(bufferOptions(many, undefined, 10)).toEqual({ options: many, hidden: 0 });
  });

  it('keeps the largest, in their order, and always the chosen one', () => {
    const { options, hidden } = bufferOptions(many, undefined, 4);
    expect(options.map((c) => c.id)).toEqual([3, 4, 8, 9]);
    expect(hidden).toBe(6);
    const withChosen = bufferOptions(many, 'allocation:0', 4);
    expect(withChosen.options.map((c) => c.id)).toEqual([0, 3, 4, 9]);
    expect(withChosen.hidden).toBe(6);
  });
});
