import { describeText, placeholdersOf, TEXT_TEMPLATES_EN, type TextCode, text } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { createI18n } from './setup.ts';
import { TEXT_TEMPLATES_ZH } from './texts/index.ts';
import { codedParts, codedText } from './useCodedText.ts';

const codes = Object.keys(TEXT_TEMPLATES_EN) as TextCode[];

/** One value per placeholder: a number for a formatted one, a code of the table for a nested text. */
function sampleValues(template: string): Record<string, number | string> {
  const values: Record<string, number | string> = {};
  for (const item of placeholdersOf(template)) {
    const [name = '', format] = item.split(', ');
    values[name] = format === 'text' ? 'side-device' : format === undefined ? `‹${name}›` : 2097152;
  }
  return values;
}

describe('the agent’s coded texts in both languages', () => {
  it('every code has a Chinese template, and no Chinese template is for a code core lacks', () => {
    expect(Object.keys(TEXT_TEMPLATES_ZH).sort()).toEqual([...codes].sort());
  });

  it.each(codes)('%s: the Chinese template has the English placeholders, formats included', (code) => {
    expect(placeholdersOf(TEXT_TEMPLATES_ZH[code])).toEqual(placeholdersOf(TEXT_TEMPLATES_EN[code]));
  });

  it.each(codes)('%s: i18next renders the English template exactly as core does', (code) => {
    const values = sampleValues(TEXT_TEMPLATES_EN[code]);
    expect(codedText(createI18n('en').t, { code, values }, 'fallback')).toBe(describeText({ code, values }));
  });

  it('renders a coded failure in Chinese, nested texts and formats included', () => {
    const zh = createI18n('zh').t;
    expect(codedText(zh, text('free-not-live', { devPtr: '0x1234' }), 'English')).toBe(
      'devPtr 0x1234 不是本进程一个有效 Device 分配的起始地址（重复释放，或从未分配）（DM-13）',
    );
    const inner = text('null-arg', { name: 'dst' });
    expect(codedText(zh, text('batch-copy', { ...inner.values, copy: 3, problem: inner.code }), 'English')).toBe(
      '第 3 个拷贝：dst 为 NULL（CP-11）',
    );
    expect(codedText(zh, text('pages-exhausted-huge', { device: 0, pages: 536870913, available: 32768 }), 'English')).toBe(
      'Device 0 上空闲的 2 MiB 大页不足：需要 536,870,913，空闲 32,768',
    );
    expect(codedText(zh, text('host-reset', { profile: 'Ascend910B2', devices: 2 }), 'English')).toBe('Host 已重置（Ascend910B2 × 2）');
  });

  it('a note in parts: each part by its code, joined as the language joins clauses; English whole if a part is unknown', () => {
    const parts = [text('host-note-test-double', { path: '/opt/libascendcl.so', double: 'v1' }), text('host-note-read-only')];
    const zh = createI18n('zh').t;
    expect(codedParts(zh, parts, 'English note')).toBe(
      '测试替身，不是硬件：/opt/libascendcl.so 是 PageLens 用 C 写的 ACL 库替身（"v1"）；所有数字都来自它；只读：会改变状态的调用被拒绝（以 --allow-mutations 启动可允许）',
    );
    expect(codedParts(createI18n('en').t, parts, 'x')).toBe(parts.map(describeText).join('; '));
    expect(codedParts(zh, [...parts, { code: 'from-a-newer-agent' }], 'English note')).toBe('English note');
    expect(codedParts(zh, undefined, 'English note')).toBe('English note');
  });

  it('falls back to the English text for a code this page does not know, or no code', () => {
    const zh = createI18n('zh').t;
    expect(codedText(zh, { code: 'from-a-newer-agent', values: { x: 1 } }, 'the English text')).toBe('the English text');
    expect(codedText(zh, undefined, 'the English text')).toBe('the English text');
  });
});
