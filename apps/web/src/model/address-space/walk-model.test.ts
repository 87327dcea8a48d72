import { beforeAll, describe, expect, it } from 'vitest';
import { type AddressScene, addressScene, MiB } from '../../../test/address-space-scene.ts';
import { ipcScene } from '../../../test/ipc-scene.ts';
import { faultLevel, processRanges, tableFigure, walkablePage, walkPanelData } from './walk-model.ts';

let scene: AddressScene;
beforeAll(async () => {
  scene = await addressScene();
});

const index = (va: number, level: number): number => Math.floor(va / 2 ** (39 - 9 * level)) % 512;

describe('walk panel data (PT-2, modeled)', () => {
  it('an address in a huge allocation walks three levels to a level-2 block', () => {
    const va = scene.huge + 2 * MiB + 0x1234;
    const data = walkPanelData(scene.state, scene.pid, va, processRanges(scene.state, scene.pid).ranges);
    expect(data.mapped).toBe(true);
    expect(data.backing).toMatchObject({ kind: 'allocation', pageSize: 2 * MiB, fn: 'aclrtMalloc' });
    expect(data.steps.map((s) => [s.level, s.index, s.entry])).toEqual([
      [0, index(va, 0), 'table'],
      [1, index(va, 1), 'table'],
      [2, index(va, 2), 'block'],
    ]);
    expect(data.walk?.offset).toBe(0x1234);
    expect(data.walk?.pageBase).toBe(scene.huge + 2 * MiB);
  });

  it('an address in a normal-page allocation walks four levels to a page entry', () => {
    const va = scene.small + 3 * 4096 + 7;
    const data = walkPanelData(scene.state, scene.pid, va, processRanges(scene.state, scene.pid).ranges);
    expect(data.steps.at(-1)).toMatchObject({ level: 3, entry: 'page', index: index(va, 3) });
    expect(data.walk?.offset).toBe(7);
  });

  it('a mapped VMM address names its mapping and handle', () => {
    const data = walkPanelData(scene.state, scene.pid, scene.virPtr + 5, processRanges(scene.state, scene.pid).ranges);
    expect(data.backing).toMatchObject({ kind: 'mapping', handleValue: scene.handle, pageSize: 2 * MiB });
    expect(data.steps.at(-1)?.entry).toBe('block');
  });

  it('reserved but unmapped VA stops at the first invalid entry; other processes do not see it', () => {
    const ranges = processRanges(scene.state, scene.pid).ranges;
    const va = scene.virPtr + 3 * MiB;
    const data = walkPanelData(scene.state, scene.pid, va, ranges);
    expect(data.mapped).toBe(false);
    expect(data.backing.kind).toBe('reserved');
    // Its 2 MiB region holds nothing mapped, but the 1 GiB region does: the level-2 entry is invalid.
    expect(data.steps.map((s) => s.entry)).toEqual(['table', 'table', 'invalid']);
    expect(walkPanelData(scene.state, scene.otherPid, va, processRanges(scene.state, scene.otherPid).ranges).backing.kind).toBe('hole');
  });

  it('faultLevel finds where an unmapped walk ends', () => {
    const ranges = [{ va: 2 ** 40, bytes: 4096, pageSize: 4096 }];
    expect(faultLevel(ranges, 0)).toBe(0);
    expect(faultLevel(ranges, 2 ** 40 + 2 ** 31)).toBe(1);
    expect(faultLevel(ranges, 2 ** 40 + 2 ** 22)).toBe(2);
    expect(faultLevel(ranges, 2 ** 40 + 8192)).toBe(3);
  });

  it('counts the tables for all the process maps', () => {
    const figure = tableFigure(processRanges(scene.state, scene.pid));
    expect(figure.ranges).toBe(3);
    // One root, one level-1, one level-2 table (all in one 1 GiB region); one level-3 table for the 4 KiB pages.
    expect(figure.count).toMatchObject({ level0: 1, level1: 1, level2: 1, level3: 1, total: 4, bytes: 4 * 4096 });
    expect(tableFigure({ ranges: [], skipped: 0 }).count?.total).toBe(0);
  });

  it('walks a misaligned large page with the largest page it is aligned to', () => {
    expect(walkablePage(2 * MiB, 1024 * MiB)).toBe(2 * MiB);
    expect(walkablePage(1024 * MiB, 1024 * MiB)).toBe(1024 * MiB);
    expect(walkablePage(4096 * 3, 2 * MiB)).toBe(4096);
    expect(walkablePage(100, 4096)).toBeUndefined();
  });
});

describe('an IPC import in the walk (IP-3)', () => {
  it('translates to the exported allocation’s pages, and its range counts in the importer’s tables', async () => {
    const { host, exporter, importer, addr, source } = await ipcScene();
    const ranges = processRanges(host.state, importer.pid);
    expect(ranges.ranges).toEqual([{ va: addr, bytes: 4 * MiB, pageSize: source?.pageSize }]);
    const data = walkPanelData(host.state, importer.pid, addr + MiB, ranges.ranges);
    expect(data.mapped).toBe(true);
    expect(data.backing).toMatchObject({ kind: 'ipcImport', id: source?.id, exporter: exporter.pid, pageSize: source?.pageSize });
    expect(data.steps.at(-1)?.entry).not.toBe('invalid');
  });
});
