import { ASCEND_310P3, ASCEND_910_93, ASCEND_910B2, ASCEND_910B4 } from '@pagelens/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AclBackend } from '../../src/backends/acl/acl-backend.ts';
import { runDoctor } from '../../src/backends/acl/doctor.ts';
import { matchProfile } from '../../src/backends/acl/profile-match.ts';
import { freshDouble } from './support/acl-double.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

afterEach(() => {
  delete process.env.ACL_DOUBLE_SOC;
});

describe('aclrtGetSocName → profile', () => {
  it.each([
    ['Ascend910B2', ASCEND_910B2.name, false],
    ['Ascend910B3', ASCEND_910B2.name, true],
    ['Ascend910B4', ASCEND_910B4.name, false],
    ['Ascend910_9382', ASCEND_910_93.name, true],
    ['Ascend310P1', ASCEND_310P3.name, true],
  ])('%s uses %s (note: %s)', (soc, profile, noted) => {
    const match = matchProfile(soc);
    expect(match.profile.name).toBe(profile);
    expect(match.note !== undefined).toBe(noted);
  });

  it('an unknown SoC gets the generic profile and a visible note in host.note', async () => {
    expect(matchProfile('Ascend999X')).toMatchObject({ profile: { name: 'generic' }, note: expect.stringContaining('"Ascend999X"') });
    expect(matchProfile(null).note).toContain('aclrtGetSocName returned NULL');
    process.env.ACL_DOUBLE_SOC = 'Ascend999X';
    const backend = await AclBackend.open({ aclLib: freshDouble().lib, allowMutations: false, sampleMs: 0, env: {} });
    try {
      expect(backend.host.note).toContain('SoC "Ascend999X" is not one PageLens knows: it uses a generic profile');
      expect(backend.devices()[0]).toMatchObject({ profile: 'generic', socName: 'Ascend999X' });
      expect(backend.config().profile).toBe('generic');
    } finally {
      await backend.close();
    }
  });
});

describe('doctor', () => {
  it('warns about a host kernel of 5.10 or older (HM-5)', () => {
    const lines: string[] = [];
    const code = runDoctor({ aclLib: freshDouble().lib, env: {}, out: (line) => lines.push(line), kernelRelease: '5.10.0-136' });
    expect(code).toBe(0);
    expect(lines).toContain(
      '[warn] host kernel 5.10.0-136 is 5.10 or older: registering malloc memory (aclrtHostRegister/V2) fails there; use aclrtMallocHost (HM-5)',
    );
  });

  it('fails when the runtime cannot count its devices, with the runtime’s message', () => {
    process.env.ACL_DOUBLE_FAIL = 'aclrtGetDeviceCount:507033';
    try {
      const lines: string[] = [];
      expect(runDoctor({ aclLib: freshDouble().lib, env: {}, out: (line) => lines.push(line), kernelRelease: '6.1' })).toBe(1);
      expect(lines).toContain(
        '[fail] aclrtGetDeviceCount: ACL_ERROR_RT_DEV_SETUP_ERROR: [acl double] aclrtGetDeviceCount: injected 507033',
      );
      expect(lines.at(-1)).toContain('Result: the acl backend cannot run here');
    } finally {
      delete process.env.ACL_DOUBLE_FAIL;
    }
  });
});
