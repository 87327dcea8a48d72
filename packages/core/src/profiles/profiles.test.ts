import { describe, expect, it } from 'vitest';
import { GiB } from '../units/bytes.ts';
import { ASCEND_310P3, ASCEND_910_93, ASCEND_910B2, ASCEND_910B4, BUILTIN_PROFILES, findProfile } from './builtin.ts';
import { loadProfileJson } from './load.ts';
import { DeviceProfile, frameCount, kernelAtMost } from './profile.ts';

describe('built-in profiles (RULES.md Products, anchors P1)', () => {
  it.each(BUILTIN_PROFILES.map((p) => [p.name, p] as const))(
    '%s passes its own schema and cites a source for every figure',
    (_name, profile) => {
      expect(DeviceProfile.safeParse(profile).success).toBe(true);
      for (const field of ['capacityBytes', 'features', 'padding', 'tlb', 'bandwidth.deviceBytesPerSec', 'bandwidth.hostLinkBytesPerSec']) {
        expect(profile.sources[field], field).toBeTruthy();
      }
      expect(profile.assumed).toContain('tlb');
    },
  );
  it('910B2 = 64 GiB HBM at 1.6 TB/s with 1 GiB pages, P2P and VMM', () => {
    expect(ASCEND_910B2.capacityBytes).toBe(64 * GiB);
    expect(ASCEND_910B2.bandwidth.deviceBytesPerSec).toBe(1.6e12);
    expect(ASCEND_910B2.features).toEqual({ giantPages: true, p2p: true, vmm: true, vaFlag: true });
    expect(frameCount(ASCEND_910B2)).toBe(32768);
  });
  it('910B4 = 32 GiB; 910_93 die = 64 GiB; 310P3 = 24e9 B DDR without 1 GiB pages, P2P or VMM', () => {
    expect(ASCEND_910B4.capacityBytes).toBe(32 * GiB);
    expect(ASCEND_910_93.capacityBytes).toBe(64 * GiB);
    expect(ASCEND_310P3.capacityBytes).toBe(24e9);
    expect(frameCount(ASCEND_310P3)).toBe(11444);
    expect(ASCEND_310P3.features).toEqual({ giantPages: false, p2p: false, vmm: false, vaFlag: false });
    expect(ASCEND_310P3.memoryType).toBe('DDR');
  });
  it('P5: a 1 GiB pinned H2D copy on the 910B4 profile takes 40–50 ms', () => {
    const { hostLinkBytesPerSec, pinnedEfficiency } = ASCEND_910B4.bandwidth;
    const ms = (GiB / (hostLinkBytesPerSec * pinnedEfficiency)) * 1000;
    expect(ms).toBeGreaterThan(40);
    expect(ms).toBeLessThan(50);
  });
  it('finds profiles by name with or without the Ascend prefix', () => {
    expect(findProfile('910B4')?.name).toBe('Ascend910B4');
    expect(findProfile('ascend310p3')?.name).toBe('Ascend310P3');
    expect(findProfile('H100')).toBeUndefined();
  });
});

describe('custom profiles from JSON', () => {
  it('extends a built-in profile', () => {
    const result = loadProfileJson(
      JSON.stringify({ extends: 'Ascend910B2', name: 'Lab64K', normalPageSize: 65536, host: { kernelVersion: '5.10.0' } }),
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.profile.normalPageSize).toBe(65536);
      expect(result.profile.host).toEqual({ kernelVersion: '5.10.0', pageSize: 4096 });
      expect(result.profile.capacityBytes).toBe(64 * GiB);
    }
  });
  it.each([
    ['{', 'not valid JSON'],
    ['[]', 'a profile is a JSON object'],
    [JSON.stringify({ extends: 'H100' }), 'not a built-in profile'],
    [JSON.stringify({ extends: 'Ascend910B2', normalPageSize: 8192 }), 'field "normalPageSize": received 8192'],
    [JSON.stringify({ extends: 'Ascend910B2', tlb: { normal: { entries: 100, ways: 8 } } }), 'ways (8) must divide entries (100)'],
    [JSON.stringify({ extends: 'Ascend910B2', colour: 'red' }), 'colour'],
  ])('refuses %s with a clear message', (text, message) => {
    const result = loadProfileJson(text, 'lab.json');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain('lab.json');
      expect(result.message).toContain(message);
    }
  });
});

describe('kernelAtMost (HM-5)', () => {
  it.each([
    ['5.10.0', true],
    ['5.10.134-generic', true],
    ['4.19.90', true],
    ['5.11.0', false],
    ['6.1.0', false],
  ])('%s ≤ 5.10 is %s', (release, expected) => expect(kernelAtMost(release, 5, 10)).toBe(expected));
});
