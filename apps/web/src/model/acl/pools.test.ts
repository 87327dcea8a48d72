import { describe, expect, it } from 'vitest';
import { aclScene, GiB, MiB } from '../../../test/acl-scene.ts';
import { observedFreePages, poolReading } from './pools.ts';

describe('pool readings of a real runtime (DM-15)', () => {
  it('has nothing to say before the first aclrtGetMemInfo reading', () => {
    const scene = aclScene();
    const device = scene.state.devices[0];
    if (device === undefined) throw new Error('no device');
    expect(poolReading(device)).toBeUndefined();
    expect(observedFreePages(device, 'huge')).toBeUndefined();
  });

  it('reads used, free and total per pool, and splits the used memory between this agent and others', () => {
    const scene = aclScene();
    scene.malloc(3 * MiB, 2);
    scene.sample(48 * GiB - 10 * MiB, 4 * MiB);
    const device = scene.state.devices[0];
    if (device === undefined) throw new Error('no device');
    const reading = poolReading(device);
    expect(reading?.pools.map((line) => [line.pool, line.used, line.free, line.total])).toEqual([
      ['normal', 0, 8 * GiB, 8 * GiB],
      ['huge', 10 * MiB, 48 * GiB - 10 * MiB, 48 * GiB],
      ['giant', 0, 8 * GiB, 8 * GiB],
    ]);
    expect(reading?.all.used).toBe(10 * MiB);
    expect(reading?.own).toBe(4 * MiB);
    expect(reading?.others).toBe(6 * MiB);
    expect(observedFreePages(device, 'huge')).toBe((48 * GiB - 10 * MiB) / (2 * MiB));
    expect(observedFreePages(device, 'normal')).toBe((8 * GiB) / (4 * 1024));
  });
});
