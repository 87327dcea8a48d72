import { SIZE_SYNTAX_HELP } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/setup.ts';
import { readSize } from '../../model/actions/size-field.ts';
import { sizeProblemText } from './size-problem-text.ts';

function message(text: string, language: 'en' | 'zh' = 'en', rules = {}): string {
  const field = readSize(text, rules);
  if (field.ok) throw new Error(`${text} was accepted`);
  return sizeProblemText(createI18n(language).t, field.problem);
}

describe('size field messages', () => {
  it('an unreadable size says what is allowed (SIZE_SYNTAX_HELP)', () => {
    expect(message('three')).toBe(`“three” is not a size. ${SIZE_SYNTAX_HELP}`);
    expect(message('')).toBe(`Type a size. ${SIZE_SYNTAX_HELP}`);
  });

  it('"3 mb" offers both readings with their exact bytes, then the syntax', () => {
    expect(message('3 mb')).toBe(
      `“mb” is not a unit here: units are case-sensitive. Did you mean 3 MiB (3,145,728 B) or 3 MB (3,000,000 B)? ${SIZE_SYNTAX_HELP}`,
    );
  });

  it('says it in Chinese too', () => {
    const zh = message('3 mb', 'zh');
    expect(zh).toContain('单位区分大小写');
    expect(zh).toContain('3 MiB (3,145,728 B) 还是 3 MB (3,000,000 B)');
    expect(zh).not.toContain('write a whole number');
  });

  it('fractions, 2^53 and the VM-2 granularity read plainly', () => {
    expect(message('1.5')).toBe('“1.5” is not a whole number of bytes.');
    expect(message('0x20000000000000')).toContain('2^53');
    expect(message('3 MiB', 'en', { multiple: 2 * 1024 * 1024 })).toBe('It must be a multiple of 2,097,152 B (VM-2).');
  });
});
