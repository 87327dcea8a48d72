import { describe, expect, it } from 'vitest';
import { pairCalls, StepSeqMap } from './step-seqs.ts';

describe('pairCalls', () => {
  it('pairs logged calls with answers in order; setup calls map to line 0', () => {
    const logged = [
      { fn: 'aclInit', line: 1, inSetup: true },
      { fn: 'aclrtMalloc', line: 4, inSetup: false },
      { fn: 'aclrtFree', line: 5, inSetup: false },
    ];
    const answered = [
      { fn: 'aclInit', seq: 11 },
      { fn: 'aclrtMalloc', seq: 14 },
      { fn: 'aclrtFree', seq: 16 },
    ];
    expect(pairCalls(logged, answered, 10)).toEqual([
      { line: 0, seq: 11 },
      { line: 4, seq: 14 },
      { line: 5, seq: 16 },
    ]);
  });

  it('gives a call refused before the runtime (NULL out-pointer, DM-2) the seq reached so far', () => {
    const logged = [
      { fn: 'aclrtMalloc', line: 3, inSetup: false },
      { fn: 'aclrtMalloc', line: 4, inSetup: false },
      { fn: 'aclrtFree', line: 5, inSetup: false },
    ];
    // Only two of the three calls reached the agent: line 4 passed NULL for devPtr.
    const answered = [
      { fn: 'aclrtMalloc', seq: 21 },
      { fn: 'aclrtFree', seq: 23 },
    ];
    expect(pairCalls(logged, answered, 20)).toEqual([
      { line: 3, seq: 21 },
      { line: 4, seq: 21 },
      { line: 5, seq: 23 },
    ]);
  });
});

describe('StepSeqMap', () => {
  const executed = (lines: number[]) => (line: number) => lines.includes(line);

  it('maps a line to the seq after its latest run, and a never-run line to nothing', () => {
    const map = new StepSeqMap();
    map.begin(100);
    map.add([
      { line: 0, seq: 103 },
      { line: 5, seq: 105 },
      { line: 6, seq: 107 },
      { line: 5, seq: 109 },
    ]);
    const ran = executed([5, 6]);
    expect(map.seqAfter(5, ran)).toBe(109);
    expect(map.seqAfter(6, ran)).toBe(107);
    expect(map.seqAfter(7, ran)).toBeUndefined();
  });

  it('gives a call-free line the state after the closest line above it, else after the setup, else the start', () => {
    const map = new StepSeqMap();
    map.begin(50);
    const ran = executed([2, 3, 8, 9]);
    expect(map.seqAfter(2, ran)).toBe(50);
    map.add([{ line: 0, seq: 52 }]);
    expect(map.seqAfter(2, ran)).toBe(52);
    map.add([{ line: 3, seq: 55 }]);
    expect(map.seqAfter(9, ran)).toBe(55);
    map.add([{ line: 8, seq: 58 }]);
    expect(map.seqAfter(9, ran)).toBe(58);
  });

  it('finds the line that produced a state: the first point reaching it, not later lines that changed nothing', () => {
    const map = new StepSeqMap();
    map.begin(10);
    map.add([
      { line: 0, seq: 12 },
      { line: 9, seq: 14 },
      { line: 9, seq: 14 },
      { line: 13, seq: 14 },
      { line: 14, seq: 14 },
      { line: 18, seq: 17 },
    ]);
    expect(map.lineAt(14)).toBe(9);
    expect(map.lineAt(16)).toBe(9);
    expect(map.lineAt(17)).toBe(18);
    expect(map.lineAt(99)).toBe(18);
    expect(map.lineAt(12)).toBeUndefined();
    expect(map.lineAt(5)).toBeUndefined();
  });

  it('begin forgets the previous execution', () => {
    const map = new StepSeqMap();
    map.begin(1);
    map.add([{ line: 4, seq: 3 }]);
    map.begin(9);
    expect(map.points).toEqual([]);
    expect(map.seqAfter(4, () => true)).toBe(9);
    expect(map.lineAt(3)).toBeUndefined();
  });
});
