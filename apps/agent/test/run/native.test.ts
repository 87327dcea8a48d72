import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, STRUCT_LAYOUTS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { buildNative, NoCompilerError } from '../../src/run/native/build.ts';
import { EXTRA_FUNCTIONS } from '../../src/run/native/extra-functions.ts';
import { fieldShapes } from '../../src/run/native/field-shapes.ts';
import { generateHeaders, generateLayoutCheck } from '../../src/run/native/header-gen.ts';
import { compilers, TEST_ENV } from './support.ts';

function headerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-headers-'));
  for (const file of generateHeaders()) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.text);
  }
  return dir;
}

describe('PageLens ACL headers', () => {
  it('give every struct STRUCT_LAYOUTS’s size, alignment and offsets, and every enum and code its value (gcc checks)', () => {
    const dir = headerDir();
    writeFileSync(join(dir, 'check.c'), generateLayoutCheck());
    const { c } = compilers();
    execFileSync(c, ['-std=c11', '-Wall', '-Werror', '-I', dir, join(dir, 'check.c'), '-o', join(dir, 'check')], { stdio: 'pipe' });
    expect(execFileSync(join(dir, 'check')).length).toBe(0);
  });

  it('declare every catalogue ACL function and the extras, and compile as C++', () => {
    const dir = headerDir();
    const all = generateHeaders()
      .map((file) => file.text)
      .join('\n');
    for (const name of ACL_FUNCTION_NAMES) if (ACL_FUNCTIONS[name].acl) expect(all).toMatch(new RegExp(`\\b${name}\\(`));
    for (const extra of EXTRA_FUNCTIONS) expect(all).toContain(`${extra.name}(`);
    expect(all).not.toMatch(/\bmalloc\(/);
    writeFileSync(
      join(dir, 'use.cpp'),
      '#include "acl/acl.h"\nint main() { void *p = nullptr; return aclrtMalloc(&p, 1, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS ? 0 : 1; }\n',
    );
    const { cxx } = compilers();
    const [driver = 'c++', ...lead] = cxx;
    execFileSync(driver, [...lead, '-fsyntax-only', '-Wall', '-Werror', '-I', dir, join(dir, 'use.cpp')], { stdio: 'pipe' });
  });

  it('every struct field crosses the socket except pointers nothing counts', () => {
    const skipped = Object.keys(STRUCT_LAYOUTS).flatMap((name) =>
      fieldShapes(name as keyof typeof STRUCT_LAYOUTS)
        .filter((shape) => shape.kind === 'skip')
        .map((shape) => `${name}.${shape.name}`),
    );
    expect(skipped).toEqual(['aclrtUtilizationInfo.utilizationExtend']);
  });
});

describe('the interposer build', () => {
  it('exports every catalogue ACL function and every extra, and nothing of its own', () => {
    const build = buildNative(TEST_ENV);
    const symbols = execFileSync('nm', ['-D', '--defined-only', build.library], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.split(' ')[2])
      .filter((name): name is string => name !== undefined && name !== '');
    const expected = [
      ...ACL_FUNCTION_NAMES.filter((name) => ACL_FUNCTIONS[name].acl),
      ...EXTRA_FUNCTIONS.map((extra) => extra.name),
    ].sort();
    expect(symbols.filter((name) => !name.startsWith('_')).sort()).toEqual(expected);
    // A program linked against CANN 8.5's libacl_rt.so finds the same interposer.
    expect(readlinkSync(join(build.lib, 'libacl_rt.so'))).toBe('libascendcl.so');
  });

  it('is reused from the cache while its sources are unchanged', () => {
    const first = buildNative(TEST_ENV);
    const built = statSync(first.library).mtimeMs;
    const second = buildNative(TEST_ENV);
    expect(second.library).toBe(first.library);
    expect(statSync(second.library).mtimeMs).toBe(built);
  });

  it('says what to install when there is no C compiler', () => {
    const env = { ...TEST_ENV, CC: '/nonexistent/cc', PAGELENS_CACHE_DIR: mkdtempSync(join(tmpdir(), 'pagelens-nocc-')) };
    expect(() => buildNative(env)).toThrow(NoCompilerError);
    expect(() => buildNative(env)).toThrow(/needs a C compiler.*apt-get install gcc/);
  });
});
