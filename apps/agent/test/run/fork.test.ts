import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compilers, pagelens } from './support.ts';

const SOURCE = fileURLToPath(new URL('./live/forks.c', import.meta.url));

describe('pagelens run with a program that forks', () => {
  it('the child is its own process with its own connection and calls, the parent keeps its own', async () => {
    const flags = (await pagelens(['flags'])).stdout.trim().split(/\s+/);
    const program = join(mkdtempSync(join(tmpdir(), 'pagelens-fork-')), 'forks');
    execFileSync(compilers().c, [...flags, SOURCE, '-o', program], { stdio: 'pipe' });
    const run = await pagelens(['run', '--check', '--quiet', '--', program]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const child = /forks: child (\d+) done/.exec(run.stdout)?.[1];
    const heads = run.stdout.split('\n').filter((line) => line.startsWith('pagelens --check: '));
    expect(heads).toHaveLength(2);
    expect(heads.some((line) => line.includes(`(pid ${child})`))).toBe(true);
    const counts = run.stdout.split('\n').filter((line) => line.startsWith('ACL calls: '));
    expect(counts.sort()).toEqual(['ACL calls: 2', 'ACL calls: 4']);
    expect(run.stdout).not.toMatch(/ACL errors: [1-9]/);
  });
});
