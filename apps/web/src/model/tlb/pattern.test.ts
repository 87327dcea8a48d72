import { GiB, KiB, MiB } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATTERN, MAX_RUN_ACCESSES, type PatternDraft, parsePattern } from './pattern.ts';

const draft = (patch: Partial<PatternDraft>): PatternDraft => ({ ...DEFAULT_PATTERN, ...patch });
const codes = (d: PatternDraft, bytes = 4 * MiB) => {
  const parsed = parsePattern(d, bytes);
  return parsed.ok ? [] : parsed.issues.map((issue) => `${issue.field}.${issue.code}`);
};

describe('access pattern input', () => {
  it('sequential: sizes in any syntax parseSize accepts, accesses = passes × ⌈bytes ÷ stride⌉', () => {
    for (const stride of ['4 KiB', '4KiB', '4096', '0x1000', '4k']) {
      const parsed = parsePattern(draft({ stride, passes: '3' }), 4 * MiB + 1);
      expect(parsed).toEqual({ ok: true, pattern: { kind: 'sequential', stride: 4096, passes: 3 }, accesses: 3 * 1025 });
    }
  });

  it('refuses a stride that is zero, negative or not a size', () => {
    expect(codes(draft({ stride: '0' }))).toEqual(['stride.stridePositive']);
    expect(codes(draft({ stride: '0x0' }))).toEqual(['stride.stridePositive']);
    expect(codes(draft({ stride: '-4096' }))).toEqual(['stride.size']);
    expect(codes(draft({ stride: '4 pages' }))).toEqual(['stride.size']);
    expect(codes(draft({ kind: 'strided', stride: '', count: '10' }))).toEqual(['stride.size']);
  });

  it('refuses counts and passes that are not whole numbers ≥ 1', () => {
    expect(codes(draft({ passes: '0' }))).toEqual(['passes.atLeastOne']);
    expect(codes(draft({ passes: '1.5' }))).toEqual(['passes.count']);
    expect(codes(draft({ kind: 'random', count: 'many', seed: 'x' }))).toEqual(['count.count', 'seed.count']);
    expect(parsePattern(draft({ kind: 'random', count: '1,000', seed: '7' }), MiB)).toEqual({
      ok: true,
      pattern: { kind: 'random', count: 1000, seed: 7 },
      accesses: 1000,
    });
  });

  it('caps a run at MAX_RUN_ACCESSES, with the count in the message values', () => {
    const tooMany = parsePattern(draft({ stride: '32', passes: '1' }), GiB);
    expect(tooMany).toEqual({
      ok: false,
      issues: [{ field: 'accesses', code: 'tooMany', values: { accesses: GiB / 32, max: MAX_RUN_ACCESSES } }],
    });
    expect(parsePattern(draft({ stride: '64', passes: '1' }), GiB).ok).toBe(true);
    expect(codes(draft({ kind: 'strided', stride: '64', count: String(MAX_RUN_ACCESSES + 1) }))).toEqual(['accesses.tooMany']);
  });

  it('explicit offsets: commas, new lines or spaces, any size syntax', () => {
    const parsed = parsePattern(draft({ kind: 'explicit', offsets: '0, 4 KiB\n0x2000; 12288 16384  20480' }), MiB);
    expect(parsed.ok && Array.from(parsed.pattern.kind === 'explicit' ? parsed.pattern.offsets : [])).toEqual([
      0,
      4 * KiB,
      8 * KiB,
      12 * KiB,
      16 * KiB,
      20 * KiB,
    ]);
    expect(parsed.ok && parsed.accesses).toBe(6);
  });

  it('explicit offsets outside the buffer name the offending entry', () => {
    const parsed = parsePattern(draft({ kind: 'explicit', offsets: '0\n4096\n1 MiB' }), MiB);
    expect(parsed).toEqual({
      ok: false,
      issues: [{ field: 'offsets', code: 'offsetOutside', values: { index: 3, text: '1 MiB', bytes: MiB } }],
    });
    expect(codes(draft({ kind: 'explicit', offsets: '0, abc' }))).toEqual(['offsets.offsetSize']);
    expect(codes(draft({ kind: 'explicit', offsets: ' \n ,' }))).toEqual(['offsets.offsetsEmpty']);
  });
});
