import { beforeAll, describe, expect, it } from 'vitest';
import { type Built, buildCorpus, pagelens, section } from './support.ts';

/*
 * The corpus (test/run/corpus): programs in the style of public ACL memory samples, compiled
 * with `pagelens flags` and run under `pagelens run --check`. The clean ones must pass their own
 * checks with no ACL error, nothing not modeled and no leak; the others are reported exactly.
 */

const SPECIAL = new Set(['leaky', 'not_modeled', 'crash']);
let programs: Built[] = [];

beforeAll(async () => {
  const flags = await pagelens(['flags']);
  expect(flags.code, flags.stderr).toBe(0);
  expect(flags.stdout).toMatch(/^-I\S+\/include -L\S+\/lib -Wl,--no-as-needed -lascendcl\n$/);
  programs = buildCorpus(flags.stdout);
});

function program(name: string): Built {
  const found = programs.find((item) => item.name === name);
  if (found === undefined) throw new Error(`corpus program ${name} was not built`);
  return found;
}

describe('pagelens run --check over the corpus', () => {
  it('has at least 12 clean programs, in C and C++', () => {
    expect(programs.filter((item) => !SPECIAL.has(item.name)).length).toBeGreaterThanOrEqual(12);
  });

  const clean = [
    'batch_copy',
    'buffer_pool',
    'device_roundtrip',
    'events_timing',
    'host_register',
    'malloc_cfg',
    'mem_info',
    'memcpy2d',
    'memset_value',
    'pinned_async',
    'stream_sync',
    'two_threads',
    'vmm_map',
  ];
  it.each(clean)('%s: exit 0, its checks pass, no ACL error, nothing unmodeled, no leak', async (name) => {
    const run = await pagelens(['run', '--check', '--quiet', '--', program(name).path]);
    expect(run.stdout).toContain(`${name}: PASS`);
    expect(run.stdout).toContain('ACL errors: none');
    expect(run.stdout).toContain('Not modeled (answered 207000): none');
    expect(run.stdout).toContain('Leaks at exit: none');
    expect(run.stdout).toContain('exited with code 0');
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('reports exactly what the leaky program leaked, with the calls that made it, and exits 3', async () => {
    const run = await pagelens(['run', '--check', '--quiet', '--', program('leaky').path]);
    expect(run.stdout).toContain('leaky: done');
    expect(run.stdout).toContain('Leaks at exit: 4');
    const leaks = section(run.stdout, 'Leaks at exit');
    expect(leaks).toHaveLength(4);
    expect(leaks[0]).toMatch(/^device memory 0x[0-9a-f]+ \(3,145,728 B\), made by aclrtMalloc, call #4 at leaky\.cpp:10 /);
    expect(leaks[1]).toMatch(/^pinned host memory 0x[0-9a-f]+ \(8,192 B\), made by aclrtMallocHost, call #5 at leaky\.cpp:23 /);
    expect(leaks[2]).toMatch(/^stream 0x[0-9a-f]+, made by aclrtCreateStream, call #6 at leaky\.cpp:25 /);
    expect(leaks[3]).toMatch(/^event 0x[0-9a-f]+, made by aclrtCreateEvent, call #7 at leaky\.cpp:27 /);
    // The freed 4 KiB buffer is not among them.
    expect(run.stdout).not.toContain('4,096 B');
    expect(run.stdout).toContain('ACL errors: none');
    expect(run.code).toBe(3);
  });

  it('lists what a device reset released that the program never released, apart from leaks (LT-2, LT-3), and exits 0', async () => {
    const run = await pagelens(['run', '--check', '--quiet', '--', program('reset_releases').path]);
    expect(run.stdout).toContain('Leaks at exit: none');
    const released = section(run.stdout, 'Released by a device reset, never released by the program (LT-2, LT-3): 2');
    expect(released).toEqual([
      expect.stringMatching(
        /^device memory 0x[0-9a-f]+ \(2,097,152 B\), made by aclrtMalloc, call #2 at reset_releases\.c:10 .*; released by aclrtResetDevice, call #5 at reset_releases\.c:13 /,
      ),
      expect.stringMatching(
        /^stream 0x[0-9a-f]+, made by aclrtCreateStream, call #3 at reset_releases\.c:11 .*; released by aclrtResetDevice, call #5 /,
      ),
    ]);
    expect(run.code).toBe(0);
  });

  it('lists each function outside the catalogue once, with where it was first called', async () => {
    const run = await pagelens(['run', '--check', '--quiet', '--', program('not_modeled').path]);
    expect(run.stdout).toContain('not_modeled: PASS');
    expect(section(run.stdout, 'Not modeled')).toEqual([
      expect.stringMatching(/^aclrtGetLastError, first call #3 at not_modeled\.c:8 /),
      expect.stringMatching(/^aclrtGetVersion, first call #4 at not_modeled\.c:10 /),
    ]);
    expect(run.code).toBe(0);
  });

  it('a program killed by SIGSEGV: its status is passed on, and what it held is reported and reclaimed (LT-3)', async () => {
    const run = await pagelens(['run', '--check', '--', program('crash').path]);
    expect(run.stdout).toContain('was killed by SIGSEGV');
    expect(section(run.stdout, 'Leaks at exit')).toEqual([
      expect.stringMatching(/^device memory 0x[0-9a-f]+ \(1,048,576 B\), made by aclrtMalloc, call #3 at crash\.c:9 /),
    ]);
    expect(run.stderr).toMatch(
      /process \d+ \(.*crash, pid \d+\) was killed by SIGSEGV; reclaimed its memory as the driver does at process exit \(LT-3\): aclrtFree ×1/,
    );
    expect(run.code).toBe(128 + 11);
  });
});
