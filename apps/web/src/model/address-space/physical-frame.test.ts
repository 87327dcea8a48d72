import { createHostState } from '@pagelens/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AddressScene, addressScene, MiB } from '../../../test/address-space-scene.ts';
import { physicalPlace } from './physical-frame.ts';
import { backingAt } from './walk-model.ts';

let scene: AddressScene;
beforeAll(async () => {
  scene = await addressScene();
});

const placeOf = (va: number) => physicalPlace(scene.state, backingAt(scene.state, scene.pid, va), va);

// Modeled placement: huge pages from the top frame down (910B2: 32,768 frames), normal pages from frame 0 up.
describe('the physical end of the translation walk (modeled)', () => {
  it('the second huge page of a 3 MiB HUGE_FIRST allocation is frame 32,767', () => {
    expect(placeOf(scene.huge + 2 * MiB + 0x1234)).toEqual({
      kind: 'placed',
      device: 0,
      pageClass: 'huge',
      frame: 32_767,
      physical: 32_767 * 2 * MiB + 0x1234,
    });
    expect(placeOf(scene.huge + 5)).toMatchObject({ frame: 32_766, physical: 32_766 * 2 * MiB + 5 });
  });

  it('a normal page names its frame and its 4 KiB page inside it', () => {
    expect(placeOf(scene.small + 3 * 4096 + 7)).toEqual({
      kind: 'placed',
      device: 0,
      pageClass: 'normal',
      frame: 0,
      pageInFrame: 3,
      physical: 3 * 4096 + 7,
    });
  });

  it('a VMM mapping lands on its handle’s physical pages (VM-6: the whole handle from offset 0)', () => {
    const handle = [...scene.state.handles.values()].find((item) => item.handle === scene.handle);
    const memory = scene.state.physical.get(handle?.memory ?? -1);
    expect(placeOf(scene.virPtr + 5)).toMatchObject({ kind: 'placed', pageClass: 'huge', frame: memory?.runs[0] });
  });

  it('nothing for an unmapped address; "unobserved" where the backend records no frames', () => {
    expect(placeOf(scene.virPtr + 3 * MiB)).toBeUndefined();
    // As on the acl backend: an allocation whose runs are empty (no frame placement recorded).
    const first = [...scene.state.allocations.values()][0];
    if (first === undefined) throw new Error('no allocation');
    const bare = createHostState([]);
    bare.allocations.set(first.id, { ...first, runs: [] });
    expect(physicalPlace(bare, backingAt(bare, first.pid, first.addr), first.addr)).toEqual({ kind: 'unobserved' });
  });
});
