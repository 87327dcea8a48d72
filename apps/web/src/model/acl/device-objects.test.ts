import { describe, expect, it } from 'vitest';
import { aclScene, MiB } from '../../../test/acl-scene.ts';
import { deviceObjects } from './device-objects.ts';

describe('device memory objects on a backend without frames', () => {
  it('lists allocations newest first with their page class and count, at most `limit`', () => {
    const scene = aclScene();
    for (let index = 1; index <= 30; index += 1) scene.malloc(index * MiB, Math.ceil(index / 2));
    const { rows, total } = deviceObjects(scene.state, 0, 5);
    expect(total).toBe(30);
    expect(rows.map((row) => row.size / MiB)).toEqual([30, 29, 28, 27, 26]);
    expect(rows[0]).toMatchObject({ kind: 'allocation', fn: 'aclrtMalloc', pageClass: 'huge', pageSize: 2 * MiB, pages: 15 });
  });

  it('lists nothing for another device', () => {
    const scene = aclScene();
    scene.malloc(MiB, 1);
    expect(deviceObjects(scene.state, 1, 10)).toEqual({ rows: [], total: 0 });
  });
});
