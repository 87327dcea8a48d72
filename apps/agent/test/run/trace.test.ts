import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildNative } from '../../src/run/native/build.ts';
import { freshDouble, readLog } from '../acl/support/acl-double.ts';
import { compilers, pagelens, section, TEST_ENV } from './support.ts';

/*
 * Trace mode against the C test double standing in for CANN (no Ascend host is reachable here):
 * the program loads the double as libascendcl.so and PageLens's trace library is preloaded in
 * front of it. TEST DOUBLE: nothing here is Ascend hardware.
 */

const SOURCE = fileURLToPath(new URL('./trace/traced_app.c', import.meta.url));
let program = '';

beforeAll(async () => {
  const flags = (await pagelens(['flags'])).stdout.trim().split(/\s+/);
  program = join(mkdtempSync(join(tmpdir(), 'pagelens-trace-')), 'traced_app');
  execFileSync(compilers().c, ['-g', ...flags, SOURCE, '-o', program, '-lpthread'], { stdio: 'pipe' });
});

function counts(fns: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const fn of fns) out[fn] = (out[fn] ?? 0) + 1;
  return out;
}

describe('pagelens run --trace, with the C double as the real library', () => {
  it('every call reaches the double with its arguments, and each is observed or counted as dropped', async () => {
    const double = freshDouble();
    const run = await pagelens(['run', '--trace', '--check', '--acl-lib', double.dir, '--', program, '20000'], {
      ...TEST_ENV,
      ACL_DOUBLE_LOG: double.log,
    });
    expect(run.stdout).toContain('traced_app: done');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const logged = readLog(double.log);
    const observed = section(run.stdout, 'ACL calls observed');
    const total = Number(/ACL calls observed: (\d+) from 3 threads/.exec(run.stdout)?.[1]);
    const dropped = Number(/Dropped records: (\d+)/.exec(run.stdout)?.[1]);
    expect(total + dropped).toBe(logged.length);
    expect(logged.length).toBeGreaterThan(40_000);
    if (dropped === 0) {
      const byFn = Object.fromEntries(observed.map((line) => line.split(' ')).map(([fn, n]) => [fn, Number(n)]));
      expect(byFn).toEqual(counts(logged.map((call) => call.fn)));
    }
    // The double saw exactly the sizes the program passed (1 MiB and 3 MiB), once per worker.
    const sizes = logged.filter((call) => call.fn === 'aclrtMalloc').map((call) => call.args.size);
    expect(sizes.sort()).toEqual([1 << 20, 3 << 20].sort());
    expect(run.stdout).toContain('ACL errors: none');
  });

  it('a flood of calls overflows the ring: every record is observed or counted as dropped, none lost', async () => {
    // No double log: the double then formats nothing, so 2 threads make calls far faster than the agent reads them.
    const calls = 1_000_000;
    const run = await pagelens(['run', '--trace', '--check', '--acl-lib', freshDouble().dir, '--', program, String(calls)], {
      ...TEST_ENV,
      ACL_DOUBLE_LOG: '',
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const total = Number(/ACL calls observed: (\d+) from/.exec(run.stdout)?.[1]);
    const dropped = Number(/Dropped records: (\d+)/.exec(run.stdout)?.[1]);
    expect(dropped).toBeGreaterThan(0);
    // traced_app.c: aclInit, aclrtResetDevice, aclFinalize, and per worker 9 calls besides its aclrtGetDevice loop.
    expect(total + dropped).toBe(3 + 2 * (9 + calls));
  });

  it('a program whose agent is gone runs on, every call still reaching the real library', () => {
    const double = freshDouble();
    const native = buildNative(TEST_ENV);
    const run = spawnSync(program, ['1000'], {
      env: {
        ...TEST_ENV,
        LD_PRELOAD: native.traceLibrary,
        LD_LIBRARY_PATH: double.dir,
        ACL_DOUBLE_LOG: double.log,
        PAGELENS_SOCKET: join(double.dir, 'no-agent.sock'),
        PAGELENS_TOKEN: 'x',
      },
      encoding: 'utf8',
    });
    expect(run.stdout).toContain('traced_app: done');
    expect(run.status).toBe(0);
    expect(counts(readLog(double.log).map((call) => call.fn)).aclrtGetDevice).toBe(2000);
  });

  it('a program that crashes mid-run is reported killed, and the agent stays up to say so', async () => {
    const double = freshDouble();
    const run = await pagelens(['run', '--trace', '--check', '--acl-lib', double.dir, '--', program, '10', 'crash'], {
      ...TEST_ENV,
      ACL_DOUBLE_LOG: double.log,
    });
    expect(run.stdout).toMatch(/pagelens --trace --check: .*traced_app 10 crash \(pid \d+\) was killed by SIGSEGV/);
    expect(run.stdout).toContain('Dropped records: unknown');
    expect(run.code).toBe(128 + 11);
  });
});
