import { DEVICE_VA_BASE, DEVICE_VA_WINDOW } from '@pagelens/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AddressScene, addressScene, MiB } from '../../../test/address-space-scene.ts';
import { ipcScene } from '../../../test/ipc-scene.ts';
import { selectedRange } from './selected-range.ts';
import { hitTest, targetObject } from './strip-hit.ts';
import { viewOf, zoomToRange } from './strip-layout.ts';
import { buildStripModel, pickProcess, processChoices, RangeKind, rangeAt, usedExtent } from './strip-model.ts';

let scene: AddressScene;
beforeAll(async () => {
  scene = await addressScene();
});

describe('strip model', () => {
  it('holds the process ranges of the device window, sorted, with reservations apart', () => {
    const model = buildStripModel(scene.state, 0, scene.pid);
    expect(model.domainStart).toBe(DEVICE_VA_BASE);
    expect(model.domainEnd).toBe(DEVICE_VA_BASE + DEVICE_VA_WINDOW);
    expect(Array.from(model.blocks.start)).toEqual([scene.huge, scene.small, scene.virPtr]);
    expect(Array.from(model.blocks.kind)).toEqual([RangeKind.allocation, RangeKind.allocation, RangeKind.mapping]);
    expect(model.blocks.end[0]).toBe(scene.huge + 4 * MiB);
    expect(Array.from(model.reservations.start)).toEqual([scene.virPtr]);
    expect(model.reservations.end[0]).toBe(scene.virPtr + 4 * MiB);
    expect(rangeAt(model.blocks, scene.small + 5)).toBe(1);
    expect(rangeAt(model.blocks, scene.virPtr + 3 * MiB)).toBe(-1);
    expect(usedExtent(model)).toEqual({ start: scene.huge, end: scene.virPtr + 4 * MiB });
  });

  it('offers every process and keeps the chosen one while it exists', () => {
    const choices = processChoices(scene.state, 0);
    expect(choices.map((c) => [c.pid, c.objects])).toEqual([
      [scene.pid, 3],
      [scene.otherPid, 1],
    ]);
    expect(pickProcess(choices, undefined)).toBe(scene.pid);
    expect(pickProcess(choices, scene.otherPid)).toBe(scene.otherPid);
    expect(pickProcess(choices, 999)).toBe(scene.pid);
    expect(pickProcess([], undefined)).toBeUndefined();
  });

  it('hit tests tell an allocation, a mapping, reserved VA and a hole apart', () => {
    const model = buildStripModel(scene.state, 0, scene.pid);
    const domain = { start: model.domainStart, end: model.domainEnd };
    const view = viewOf(domain, 1000, zoomToRange(domain, 1000, scene.huge, scene.virPtr + 4 * MiB, 0));
    const xOf = (va: number): number => ((va - view.start) / (view.end - view.start)) * view.width;
    expect(targetObject(model, hitTest(model, view, xOf(scene.huge + MiB)))).toEqual({ kind: 'allocation', id: model.blocks.id[0] });
    expect(targetObject(model, hitTest(model, view, xOf(scene.virPtr + MiB)))).toEqual({ kind: 'mapping', id: model.blocks.id[2] });
    const reserved = hitTest(model, view, xOf(scene.virPtr + 3 * MiB));
    expect(reserved).toMatchObject({ kind: 'reserved', start: scene.virPtr + 2 * MiB, end: scene.virPtr + 4 * MiB });
    expect(targetObject(model, reserved)).toEqual({ kind: 'reservation', id: model.reservations.id[0] });
    const hole = hitTest(model, view, xOf(scene.small + 68 * 1024 + 100 * 1024));
    expect(hole).toMatchObject({ kind: 'hole', start: scene.small + 68 * 1024, end: scene.virPtr });
    expect(targetObject(model, hole)).toBeUndefined();
  });

  it('at the whole-window zoom, neighbours under one pixel are many, not one', () => {
    const model = buildStripModel(scene.state, 0, scene.pid);
    const view = viewOf({ start: model.domainStart, end: model.domainEnd }, 1000, { k: 1, x: 0 });
    const target = hitTest(model, view, 0.2);
    expect(target).toMatchObject({ kind: 'blocks', first: 0, last: 3 });
    expect(targetObject(model, target)).toBeUndefined();
  });

  it('finds the selected object range for the overlay', () => {
    const model = buildStripModel(scene.state, 0, scene.pid);
    expect(selectedRange(model, { kind: 'reservation', id: model.reservations.id[0] ?? -1 })).toEqual({
      start: scene.virPtr,
      end: scene.virPtr + 4 * MiB,
    });
    expect(selectedRange(model, { kind: 'allocation', id: model.blocks.id[1] ?? -1 })?.start).toBe(scene.small);
    expect(selectedRange(model, { kind: 'frame', id: 3 })).toBeUndefined();
    expect(selectedRange(model, undefined)).toBeUndefined();
  });

  it('IP-3: an IPC import is a range of the importer in the exported allocation’s colour and pages; it selects that allocation', async () => {
    const { host, exporter, importer, addr, source } = await ipcScene();
    const model = buildStripModel(host.state, 0, importer.pid);
    expect(model.blocks.count).toBe(1);
    expect([model.blocks.kind[0], model.blocks.id[0], model.blocks.color[0]]).toEqual([RangeKind.ipcImport, source?.id, source?.id]);
    expect([model.blocks.start[0], model.blocks.end[0], model.blocks.pageSize[0]]).toEqual([addr, addr + 4 * MiB, source?.pageSize]);
    const domain = { start: model.domainStart, end: model.domainEnd };
    const view = viewOf(domain, 1000, zoomToRange(domain, 1000, addr, addr + 4 * MiB, 0));
    const x = ((addr + MiB - view.start) / (view.end - view.start)) * view.width;
    expect(targetObject(model, hitTest(model, view, x))).toEqual({ kind: 'allocation', id: source?.id });
    // The importer holds something on the device: it is offered with one object.
    expect(processChoices(host.state, 0).find((choice) => choice.pid === importer.pid)?.objects).toBe(1);
    // The exporter's own strip is unchanged: its allocation only.
    expect(buildStripModel(host.state, 0, exporter.pid).blocks.kind[0]).toBe(RangeKind.allocation);
  });
});
