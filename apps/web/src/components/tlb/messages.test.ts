import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE_CLASSES } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { tlb } from '../../i18n/messages/tlb.ts';
import { PATTERN_KINDS, type PatternIssue } from '../../model/tlb/pattern.ts';

/** The message at a dotted path, or undefined; plural keys resolve through their "_other" form. */
function lookup(messages: object, path: string): unknown {
  let node: unknown = messages;
  const parts = path.split('.');
  for (const [index, part] of parts.entries()) {
    if (node === null || typeof node !== 'object') return undefined;
    const last = index === parts.length - 1;
    node = Reflect.get(node, part) ?? (last ? Reflect.get(node, `${part}_other`) : undefined);
  }
  return node;
}

const source = readdirSync(__dirname)
  .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'))
  .map((file) => readFileSync(join(__dirname, file), 'utf8'))
  .join('\n');

const PATTERN_CODES: readonly PatternIssue['code'][] = [
  'size',
  'stridePositive',
  'count',
  'atLeastOne',
  'offsetsEmpty',
  'offsetSize',
  'offsetOutside',
  'tooMany',
];

describe('TLB view messages', () => {
  const literal = [...source.matchAll(/\bt\('tlb\.([\w.]+)'/g)].map((match) => match[1] ?? '');
  const dynamic = [
    ...['coverage', 'whatIf', 'sim'].map((id) => `sections.${id}`),
    ...PAGE_CLASSES.flatMap((c) => [`classes.${c}`, `classInline.${c}`]),
    ...['object', 'size', 'pageClass', 'ptes', 'coverage', 'fit'].map((key) => `table.cols.${key}`),
    ...['together', 'alone', 'never'].flatMap((fit) => [`table.fit.${fit}`, `table.fitTip.${fit}`]),
    ...PATTERN_KINDS.flatMap((kind) => [`sim.kinds.${kind}`, `sim.kindHelp.${kind}`]),
    ...['stride', 'passes', 'count', 'seed', 'offsets'].map((field) => `sim.fields.${field}`),
    ...PATTERN_CODES.map((code) => `sim.errors.${code}`),
    ...['notInteger', 'entriesRange', 'waysRange', 'waysDivide'].map((code) => `geometry.errors.${code}`),
    ...['entries', 'ways'].map((field) => `geometry.fields.${field}`),
    ...['HUGE_FIRST', 'HUGE_ONLY', 'NORMAL_ONLY', 'HUGE1G_ONLY'].map((policy) => `whatIf.policies.${policy}`),
    ...['prev', 'next', 'run', 'group'].map((key) => `shortcuts.${key}`),
  ];

  it('finds the keys the components use', () => {
    expect(literal.length).toBeGreaterThan(60);
  });

  it.each([
    ['en', tlb.en],
    ['zh', tlb.zh],
  ])('every key the view uses exists in %s', (_language, messages) => {
    const missing = [...literal, ...dynamic].filter((key) => typeof lookup(messages, key) !== 'string');
    expect(missing).toEqual([]);
  });

  it('Chinese strings are translated, keeping ACL names and units', () => {
    expect(tlb.zh.sections.sim).toBe('TLB 模拟器');
    expect(tlb.zh.whatIf.policies.HUGE_ONLY).toContain('ACL_ERROR_RT_MEMORY_ALLOCATION');
    expect(tlb.zh.samePages.note).toContain('262,144');
    expect(tlb.zh.coverage.intro).not.toBe(tlb.en.coverage.intro);
  });
});
