import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every rule of RULES.md has at least one test whose title starts with its ID. The rules are read
 * from docs/RULES.md itself (each table row that starts with an ID). Titles are found in the
 * sources of this folder: `it('DM-4: …'`, `it("DM-4: …"` or `it(\`DM-4: …\``.
 */
const RULES_MD = fileURLToPath(new URL('../../../../docs/RULES.md', import.meta.url));
const RULE_IDS: readonly string[] = [...readFileSync(RULES_MD, 'utf8').matchAll(/^\| ([A-Z]{2}-\d+) \|/gm)].map((match) => match[1] ?? '');

/** Each family's own file; its rules must be tested there (other files may cite them too). */
const FAMILY_FILES: Readonly<Record<string, string>> = {
  DM: 'dm-device-memory.test.ts',
  PT: 'pt-page-tables.test.ts',
  HM: 'hm-host-memory.test.ts',
  VM: 'vm-vmm.test.ts',
  CP: 'cp-copies.test.ts',
  LT: 'lt-lifetime.test.ts',
  CX: 'cx-contexts.test.ts',
  EV: 'ev-events.test.ts',
  IP: 'ip-ipc.test.ts',
};

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

  it('reads every family of RULES.md, each numbered 1, 2, 3… without a gap or a repeat', () => {
    expect(new Set(RULE_IDS).size).toBe(RULE_IDS.length);
    for (const family of Object.keys(FAMILY_FILES)) {
      const numbers = RULE_IDS.filter((id) => id.startsWith(`${family}-`)).map((id) => Number(id.slice(3)));
      expect(numbers.length, family).toBeGreaterThan(0);
      expect(numbers, family).toEqual(numbers.map((_, index) => index + 1));
    }
    expect(RULE_IDS.every((id) => Object.hasOwn(FAMILY_FILES, id.slice(0, 2)))).toBe(true);
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
