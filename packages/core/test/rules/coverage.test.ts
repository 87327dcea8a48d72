import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every rule of RULES.md has at least one test whose title starts with its ID. The list is
 * copied from RULES.md by hand (the shared docs need not sit beside a clone); when a rule is
 * added there, add it here and write its test. Titles are found in the sources of this folder:
 * `it('DM-4: …'`, `it("DM-4: …"` or `it(\`DM-4: …\``.
 */
const RULE_IDS: readonly string[] = [
  ...range('DM', 15),
  ...range('PT', 3),
  ...range('HM', 7),
  ...range('VM', 10),
  ...range('CP', 4),
  ...range('LT', 3),
];

/** Each family's own file; its rules must be tested there (other files may cite them too). */
const FAMILY_FILES: Readonly<Record<string, string>> = {
  DM: 'dm-device-memory.test.ts',
  PT: 'pt-page-tables.test.ts',
  HM: 'hm-host-memory.test.ts',
  VM: 'vm-vmm.test.ts',
  CP: 'cp-copies.test.ts',
  LT: 'lt-lifetime.test.ts',
};

function range(family: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${family}-${index + 1}`);
}

const HERE = dirname(fileURLToPath(import.meta.url));
const TITLE = /\bit\(\s*['"`]([A-Z]{2}-\d+):/g;

/** Rule IDs that start a test title, per file of this folder. */
function titlesByFile(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of readdirSync(HERE).sort()) {
    if (!file.endsWith('.test.ts') || file === 'coverage.test.ts') continue;
    const source = readFileSync(join(HERE, file), 'utf8');
    found.set(
      file,
      [...source.matchAll(TITLE)].map((match) => match[1] ?? ''),
    );
  }
  return found;
}

describe('rule coverage', () => {
  const byFile = titlesByFile();
  const all = [...byFile.values()].flat();

  it('lists the 42 rules of RULES.md', () => {
    expect(RULE_IDS).toHaveLength(42);
    expect(new Set(RULE_IDS).size).toBe(42);
  });

  it('every rule ID starts at least one test title', () => {
    const covered = new Set(all);
    expect(RULE_IDS.filter((id) => !covered.has(id))).toEqual([]);
  });

  it('every ID in a test title is a rule of RULES.md (no typos, no invented rules)', () => {
    const known = new Set(RULE_IDS);
    expect([...new Set(all)].filter((id) => !known.has(id)).sort()).toEqual([]);
  });

  it('each family is tested in its own file', () => {
    for (const [family, file] of Object.entries(FAMILY_FILES)) {
      const ids = new Set(byFile.get(file) ?? []);
      const missing = RULE_IDS.filter((id) => id.startsWith(`${family}-`) && !ids.has(id));
      // DM-14 is advice, proven through the policy what-if analysis (analysis.test.ts).
      expect(
        missing.filter((id) => id !== 'DM-14'),
        file,
      ).toEqual([]);
    }
    expect(byFile.get('analysis.test.ts') ?? []).toContain('DM-14');
    expect(byFile.has('edge-sizes.test.ts')).toBe(true);
  });
});
