import { ACL_FUNCTION_NAMES } from '@pagelens/core';
import { describe, expect, it, vi } from 'vitest';
import { spawnCli } from '../support/cli-process.ts';
import { TestClient } from '../support/ws-client.ts';
import { freshDouble, readLog } from './support/acl-double.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/* The real `pagelens` command line: `doctor`, and `--backend acl` against the C double. */

/** The environment of a machine without CANN: no ASCEND_* variables. */
function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('ASCEND_') && !key.startsWith('ACL_DOUBLE_')) env[key] = value;
  return { ...env, ...extra };
}

describe('pagelens doctor', () => {
  it('without any library: exit 1, every path tried, and what to do', async () => {
    const cli = spawnCli(['doctor'], bareEnv());
    expect(await cli.exited).toBe(1);
    const { stdout } = cli.output();
    expect(stdout).toContain('[fail] no ACL runtime library (libascendcl.so or libacl_rt.so) loaded. Tried, in order:');
    expect(stdout).toContain('$ASCEND_HOME_PATH/lib64: not tried, the variable is not set');
    expect(stdout).toContain('/usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so (default): no such file');
    expect(stdout).toContain('source /usr/local/Ascend/cann/set_env.sh');
    expect(stdout).toContain('Result: the acl backend cannot run here.');
  });

  it('a wrong --acl-lib is reported first, then the search goes on', async () => {
    const cli = spawnCli(['doctor', '--acl-lib', '/nonexistent/libascendcl.so'], bareEnv());
    expect(await cli.exited).toBe(1);
    expect(cli.output().stdout).toContain('1. /nonexistent/libascendcl.so (--acl-lib): no such file');
  });

  it('with the test double: exit 0, says it is a test double, and reports symbols, version, SoC, devices and pools', async () => {
    const double = freshDouble();
    const cli = spawnCli(['doctor', '--acl-lib', double.lib], bareEnv());
    expect(await cli.exited).toBe(0);
    const { stdout } = cli.output();
    expect(stdout).toContain(`[ok]   library: ${double.lib} (--acl-lib)`);
    expect(stdout).toContain('[warn] TEST DOUBLE, not Ascend hardware');
    expect(stdout).toContain(`[ok]   symbols: all ${ACL_FUNCTION_NAMES.length} catalogue functions are exported`);
    expect(stdout).toContain('[ok]   ACL API version 1.17.0');
    expect(stdout).toContain('[ok]   SoC Ascend910B2 → profile Ascend910B2');
    expect(stdout).toContain('[ok]   devices: 2');
    expect(stdout).toContain(
      '[ok]   device 1 pools: normal 8 GiB free of 8 GiB; huge 48 GiB free of 48 GiB; giant 8 GiB free of 8 GiB; all 64 GiB',
    );
    expect(stdout).toMatch(/host kernel \S+/);
    expect(stdout).toContain('Result: the acl backend can run against this TEST DOUBLE (no hardware)');
  });

  it('with an older library: the missing symbols are named and turned off, and an unknown SoC gets the generic profile', async () => {
    const double = freshDouble('old');
    const cli = spawnCli(['doctor', '--acl-lib', double.lib], bareEnv({ ACL_DOUBLE_SOC: 'Ascend999X' }));
    expect(await cli.exited).toBe(0);
    const { stdout } = cli.output();
    // The "old" double lacks the VMM calls (aclrtMemRetainAllocationHandle and
    // aclrtMemGetAllocationPropertiesFromHandle among them), four newer ones (aclrtPointerGetAttributes,
    // aclrtMallocHostWithCfg, aclrtHostRegisterV2, and aclrtMemGetAddressRange of v9.0.0) and the six of issue 13
    // (the batch copies of master, the value tasks of A2/A3, aclrtCheckMemType, aclrtGetMemUsageInfo): 24 of the
    // catalogue's functions.
    const total = ACL_FUNCTION_NAMES.length;
    expect(stdout).toMatch(
      new RegExp(
        `\\[warn\\] symbols: ${total - 24} of ${total} catalogue functions; turned off \\(missing\\): aclrtMallocHostWithCfg, .*aclrtMallocPhysical`,
      ),
    );
    for (const fn of [
      'aclrtMemcpyBatch',
      'aclrtMemcpyBatchAsync',
      'aclrtValueWrite',
      'aclrtValueWait',
      'aclrtCheckMemType',
      'aclrtGetMemUsageInfo',
    ])
      expect(stdout).toMatch(new RegExp(`turned off \\(missing\\): .*\\b${fn}\\b`));
    expect(stdout).toContain('[warn] SoC Ascend999X → profile generic: SoC "Ascend999X" is not one PageLens knows');
  });

  it('a failing aclInit: exit 1 with the runtime’s message', async () => {
    const double = freshDouble();
    const cli = spawnCli(['doctor', '--acl-lib', double.lib], bareEnv({ ACL_DOUBLE_FAIL: 'aclInit:507899' }));
    expect(await cli.exited).toBe(1);
    expect(cli.output().stdout).toContain(
      '[fail] aclInit: ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899): [acl double] aclInit: injected 507899',
    );
  });
});

describe('pagelens --backend acl', () => {
  it('serves the double end to end: observed results over the protocol, teardown and aclFinalize on SIGTERM', async () => {
    const double = freshDouble();
    const cli = spawnCli(
      ['--backend', 'acl', '--acl-lib', double.lib, '--allow-mutations', '--port', '0', '--quiet', '--no-journal'],
      bareEnv({ ACL_DOUBLE_LOG: double.log, PAGELENS_TOKEN: 'acl-cli-token' }),
    );
    const match = await cli.printed(/Open: http:\/\/127\.0\.0\.1:(\d+)\//);
    expect(cli.output().stdout).toContain('PageLens is running on the ACL runtime (2 devices).');
    const client = await TestClient.connect(Number(match[1]), 'acl-cli-token');
    const welcome = await client.hello('driver');
    expect(welcome).toMatchObject({ backend: 'acl', host: { provenance: 'observed', note: expect.stringContaining('TEST DOUBLE') } });
    await client.ok('aclrtSetDevice', { deviceId: 0 });
    const { devPtr } = await client.ok('aclrtMalloc', { size: 3 * 1024 * 1024, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    expect(devPtr).toMatch(/^0x[0-9a-f]+$/);
    expect([...client.replica.allocations.values()][0]).toMatchObject({ pageClass: 'huge', pages: 2 });
    client.close();
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    const calls = readLog(double.log).map((c) => `${c.fn}:${c.ret}`);
    // The session's allocation was freed by the teardown, its device reset, and ACL finalised at exit.
    expect(calls).toContain('aclrtFree:0');
    expect(calls).toContain('aclrtResetDeviceForce:0');
    expect(calls.at(-1)).toBe('aclFinalize:0');
  });

  it('read-only by default: a mutating call is refused with the flag to use', async () => {
    const double = freshDouble();
    const cli = spawnCli(
      ['--backend', 'acl', '--acl-lib', double.lib, '--port', '0', '--quiet', '--no-journal'],
      bareEnv({ PAGELENS_TOKEN: 'acl-ro-token' }),
    );
    const match = await cli.printed(/Open: http:\/\/127\.0\.0\.1:(\d+)\//);
    const client = await TestClient.connect(Number(match[1]), 'acl-ro-token');
    const welcome = await client.hello('driver');
    expect(welcome.functions).not.toContain('aclrtMalloc');
    expect(welcome.functions).toContain('aclrtGetMemInfo');
    // The read-only sampler shows every device's pools without any session call.
    expect(client.replica.devices.map((d) => d.lastSample?.device)).toEqual([0, 1]);
    expect(await client.call('aclrtSetDevice', { deviceId: 0 })).toMatchObject({
      ret: 207006,
      message: expect.stringContaining('--allow-mutations'),
    });
    expect(cli.output().stderr).toContain('read-only: calls that change state are refused (start with --allow-mutations)');
    client.close();
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('without a library the agent does not start, and says why', async () => {
    const cli = spawnCli(['--backend', 'acl', '--port', '0'], bareEnv());
    expect(await cli.exited).toBe(1);
    expect(cli.output().stderr).toContain('pagelens: no ACL runtime library (libascendcl.so or libacl_rt.so) could be loaded');
  });
});
