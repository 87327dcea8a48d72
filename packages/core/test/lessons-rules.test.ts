import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../src/lessons/index.ts';

const RULES_MD = fileURLToPath(new URL('../../../docs/RULES.md', import.meta.url));
const RULE_IDS = new Set([...readFileSync(RULES_MD, 'utf8').matchAll(/^\| ([A-Z]{2}-\d+) \|/gm)].map((match) => match[1]));

describe('guided lessons and RULES.md', () => {
  it('cite only rule IDs that docs/RULES.md defines, in the list and in the texts', () => {
    const cited = LESSONS.flatMap((lesson) =>
      lesson.steps.flatMap((step) => [
        ...step.rules,
        ...[...`${step.explanation.en} ${step.explanation.zh}`.matchAll(/\b[A-Z]{2}-\d+\b/g)].map((match) => match[0]),
      ]),
    );
    expect(RULE_IDS.size).toBeGreaterThan(50);
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((rule) => !RULE_IDS.has(rule))).toEqual([]);
  });
});
