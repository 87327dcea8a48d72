import { MiB, SIZE_SYNTAX_HELP } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { actions } from '../../i18n/messages/actions.ts';
import { readSize } from './size-field.ts';

describe('readSize: what a size field accepts', () => {
  it.each([
    ['3 MiB', 3 * MiB],
    ['3MiB', 3 * MiB],
    ['3145728', 3 * MiB],
    ['0x300000', 3 * MiB],
    ['1.5 GiB', 1.5 * 1024 * MiB],
    ['64 KiB', 65536],
    ['3 MB', 3_000_000],
    ['0xabc', 0xabc],
    ['1_048_576', MiB],
  ])('%s → %d bytes', (text, bytes) => {
    expect(readSize(text)).toEqual({ ok: true, bytes });
  });

  it('refuses "3 mb" (ambiguous case) and offers both readings', () => {
    const field = readSize('3 mb');
    expect(field.ok).toBe(false);
    if (field.ok) return;
    expect(field.problem.code).toBe('unit');
    if (field.problem.code !== 'unit') return;
    expect(field.problem.unit).toBe('mb');
    expect(field.problem.suggestions).toEqual([
      { text: '3 MiB', bytes: 3 * MiB },
      { text: '3 MB', bytes: 3_000_000 },
    ]);
  });

  it.each([
    ['', 'empty'],
    ['three', 'syntax'],
    ['3 MiB 4', 'syntax'],
    ['-1', 'syntax'],
    ['1.5', 'fraction'],
    ['0x20000000000000', 'too-large'],
    ['9 PiB', 'unit'],
  ])('%j → %s', (text, code) => {
    const field = readSize(text);
    expect(field.ok ? 'ok' : field.problem.code).toBe(code);
  });

  it('applies a minimum and a granularity (VM-2)', () => {
    expect(readSize('0', { min: 1 })).toEqual({ ok: false, problem: { code: 'below-min', min: 1 } });
    expect(readSize('3 MiB', { multiple: 2 * MiB })).toEqual({ ok: false, problem: { code: 'multiple', multiple: 2 * MiB } });
    expect(readSize('4 MiB', { multiple: 2 * MiB })).toEqual({ ok: true, bytes: 4 * MiB });
  });

  it('the English message says what is allowed with SIZE_SYNTAX_HELP; the Chinese one names every unit too', () => {
    expect(actions.en.size.help).toBe(SIZE_SYNTAX_HELP);
    for (const unit of ['KiB', 'MiB', 'GiB', 'KB', 'MB', 'GB', '0x300000', '3145728']) expect(actions.zh.size.help).toContain(unit);
  });
});
