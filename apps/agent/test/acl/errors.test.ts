import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, MiB } from '@pagelens/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AclBackend } from '../../src/backends/acl/acl-backend.ts';
import { candidates, discoverLibrary } from '../../src/backends/acl/discovery.ts';
import { TestClient } from '../support/ws-client.ts';
import { freshDouble, readLog } from './support/acl-double.ts';
import { startAclHarness, TOKEN } from './support/acl-harness.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/* Every way the acl backend can fail to start or refuse a call, each with the message it documents. */

const opened: AclBackend[] = [];

async function open(lib: string, allowMutations = true): Promise<AclBackend> {
  const backend = await AclBackend.open({ aclLib: lib, allowMutations, sampleMs: 0, env: {} });
  opened.push(backend);
  return backend;
}

afterEach(async () => {
  for (const backend of opened.splice(0)) await backend.close();
  delete process.env.ACL_DOUBLE_FAIL;
  delete process.env.ACL_DOUBLE_HIGH_PTR;
  delete process.env.ACL_DOUBLE_LOG;
});

describe('library discovery', () => {
  it('tries --acl-lib, $ASCEND_HOME_PATH/lib64, $ASCEND_TOOLKIT_HOME/lib64, then the CANN defaults; libascendcl.so before libacl_rt.so', () => {
    const list = candidates('/opt/mine/libascendcl.so', { ASCEND_HOME_PATH: '/home/cann', ASCEND_TOOLKIT_HOME: '/toolkit' });
    expect(list.map((item) => item.path)).toEqual([
      '/opt/mine/libascendcl.so',
      '/home/cann/lib64/libascendcl.so',
      '/home/cann/lib64/libacl_rt.so',
      '/toolkit/lib64/libascendcl.so',
      '/toolkit/lib64/libacl_rt.so',
      '/usr/local/Ascend/cann/lib64/libascendcl.so',
      '/usr/local/Ascend/cann/lib64/libacl_rt.so',
      '/usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so',
      '/usr/local/Ascend/ascend-toolkit/latest/lib64/libacl_rt.so',
    ]);
  });

  it('with no library anywhere: lists every path tried, and what to do', async () => {
    const error = await AclBackend.open({ allowMutations: false, sampleMs: 0, env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = error instanceof Error ? error.message : '';
    expect(message).toContain('no ACL runtime library (libascendcl.so or libacl_rt.so) could be loaded. Tried, in order:');
    expect(message).toContain('$ASCEND_HOME_PATH/lib64: not tried, the variable is not set');
    expect(message).toContain('/usr/local/Ascend/cann/lib64/libascendcl.so (default): no such file');
    expect(message).toContain('/usr/local/Ascend/ascend-toolkit/latest/lib64/libacl_rt.so (default): no such file');
    expect(message).toContain('source /usr/local/Ascend/cann/set_env.sh');
    expect(message).toContain('LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/driver:/usr/local/Ascend/driver/lib64/common');
    expect(message).toContain('pagelens --backend sim');
  });

  it('a wrong path: a file that is not a library gives the loader’s own message', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-wrong-'));
    const wrong = join(dir, 'libascendcl.so');
    writeFileSync(wrong, 'not an ELF file\n');
    const result = discoverLibrary(wrong, {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.attempts[0]).toMatchObject({ path: wrong, source: '--acl-lib', outcome: 'failed' });
    expect(result.report).toMatch(new RegExp(`1\\. ${wrong} \\(--acl-lib\\): did not load: .*(invalid ELF header|file too short)`));
  });

  it('finds libacl_rt.so under $ASCEND_HOME_PATH/lib64 when there is no libascendcl.so', () => {
    const home = mkdtempSync(join(tmpdir(), 'pagelens-cann-'));
    mkdirSync(join(home, 'lib64'));
    copyFileSync(freshDouble().lib, join(home, 'lib64', 'libacl_rt.so'));
    const result = discoverLibrary(undefined, { ASCEND_HOME_PATH: home });
    expect(result.ok && result.path).toBe(join(home, 'lib64', 'libacl_rt.so'));
    expect(result.attempts.map((a) => a.outcome)).toEqual(['missing', 'loaded']);
  });
});

describe('missing symbols turn capabilities off', () => {
  it('an older library without VMM: the functions are not offered and a call names the missing symbol', async () => {
    const backend = await open(freshDouble('old').lib);
    const missing = [
      'aclrtMallocPhysical',
      'aclrtMapMem',
      'aclrtPointerGetAttributes',
      'aclrtHostRegisterV2',
      'aclrtMallocHostWithCfg',
    ] as const;
    for (const fn of missing) expect(backend.functions.has(fn), fn).toBe(false);
    expect(backend.functions.has('aclrtMalloc')).toBe(true);
    expect(backend.devices()[0]?.capabilities).not.toContain('vmm');
    const runtime = backend.openProcess('old').runtime;
    const result = await runtime.aclrtMapMem({ virPtr: '0x1000', size: 2 * MiB, offset: 0, handle: '0x10', flags: 0 });
    expect(result).toEqual({
      ret: 200001,
      message: expect.stringContaining('the ACL library does not export the symbol aclrtMapMem (an older CANN?)'),
      messageCode: { code: 'acl-missing-symbol', values: { fn: 'aclrtMapMem' } },
    });
    // Nothing reached the runtime and nothing was recorded.
    expect(backend.state().seq).toBe(1);
  });

  it('allocations still work without aclrtPointerGetAttributes: the page class comes from the pool deltas', async () => {
    const double = freshDouble('old');
    process.env.ACL_DOUBLE_LOG = double.log;
    const backend = await open(double.lib);
    const runtime = backend.openProcess('old').runtime;
    await runtime.aclrtSetDevice({ deviceId: 0 });
    expect(await runtime.aclrtMalloc({ size: 3 * MiB, policy: 0 })).toMatchObject({ ret: 0 });
    const [allocation] = backend.state().allocations.values();
    expect(allocation).toMatchObject({ pageClass: 'huge', pages: 2 });
    expect(readLog(double.log).some((entry) => entry.fn === 'aclrtPointerGetAttributes')).toBe(false);
  });
});

describe('runtime failures carry the runtime’s own message', () => {
  it('a failing aclInit stops the backend with what to check', async () => {
    process.env.ACL_DOUBLE_FAIL = 'aclInit:500001';
    const error = await open(freshDouble().lib).catch((e: unknown) => e);
    const message = error instanceof Error ? error.message : '';
    expect(message).toMatch(/^aclInit failed with ACL_ERROR_FAILURE \(500001\): \[acl double\] aclInit: injected 500001\./);
    expect(message).toContain('npu-smi info');
    expect(message).toContain('pagelens --backend sim');
  });

  it('an injected 207001 comes back with its name and the runtime’s text, and changes nothing', async () => {
    const double = freshDouble();
    const harness = await startAclHarness({ lib: double.lib });
    const driver = await TestClient.connect(harness.port, TOKEN);
    try {
      await driver.hello('driver');
      await driver.ok('aclrtSetDevice', { deviceId: 0 });
      process.env.ACL_DOUBLE_FAIL = 'aclrtMalloc:207001';
      const reply = await driver.call('aclrtMalloc', { size: 4096, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
      expect(reply).toMatchObject({
        type: 'result',
        ret: 207001,
        retName: 'ACL_ERROR_RT_MEMORY_ALLOCATION',
        message: '[acl double] aclrtMalloc: injected 207001',
      });
      expect(harness.backend.state().allocations.size).toBe(0);
      const errMsg = await driver.call('aclGetRecentErrMsg');
      expect(errMsg).toMatchObject({ ret: 0, out: { errMsg: '[acl double] aclrtMalloc: injected 207001' } });
    } finally {
      driver.close();
      await harness.close();
    }
  });
});

describe('safety', () => {
  it('without --allow-mutations every mutating call is refused before the runtime, and not offered', async () => {
    const double = freshDouble();
    process.env.ACL_DOUBLE_LOG = double.log;
    const backend = await open(double.lib, false);
    const mutating = ACL_FUNCTION_NAMES.filter((fn) => ACL_FUNCTIONS[fn].mutates);
    expect(mutating.filter((fn) => backend.functions.has(fn))).toEqual([]);
    expect(backend.functions.has('aclrtGetMemInfo')).toBe(true);
    const runtime = backend.openProcess('read-only').runtime;
    const before = readLog(double.log).length;
    const result = await runtime.aclrtMalloc({ size: 4096, policy: 0 });
    expect(result).toEqual({
      ret: 207006,
      message: expect.stringContaining('restart it with --allow-mutations'),
      messageCode: { code: 'acl-read-only', values: { fn: 'aclrtMalloc' } },
    });
    expect(result.message).toContain('Nothing reached the ACL runtime');
    expect(
      readLog(double.log)
        .slice(before)
        .map((entry) => entry.fn),
    ).toEqual([]);
    expect(await runtime.aclrtGetDeviceCount({})).toEqual({ ret: 0, count: 2 });
  });

  it('a pointer at or above 2^53 is refused and released again with the exact same bits', async () => {
    const double = freshDouble();
    process.env.ACL_DOUBLE_LOG = double.log;
    const backend = await open(double.lib);
    const runtime = backend.openProcess('wide').runtime;
    await runtime.aclrtSetDevice({ deviceId: 0 });
    process.env.ACL_DOUBLE_HIGH_PTR = 'aclrtMalloc';
    const result = await runtime.aclrtMalloc({ size: 4096, policy: 0 });
    expect(result.ret).toBe(500000);
    expect(result.message).toContain('devPtr = 0x20000000000000, 2^53 or more');
    expect(result.message).toContain('released it again with aclrtFree (ACL_SUCCESS)');
    const calls = readLog(double.log);
    expect(calls.filter((c) => c.fn === 'aclrtFree').at(-1)).toMatchObject({ args: { devPtr: '0x20000000000000' }, ret: 0 });
    expect(backend.state().allocations.size).toBe(0);
  });
});
