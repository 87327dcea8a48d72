import { aclrtMemAttr, type HostState, SimRuntime, toHex } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { MiB, malloc, need, type Scene, startScene } from '../../../test/log-scene.ts';
import { callRow } from '../log/call-rows.ts';
import type { Target } from '../log/effects.ts';
import type { Fact, Inspection } from './fact.ts';
import { callInspection, existsIn, inspectObject } from './inspect.ts';

const PREFS = { units: 'binary', addresses: 'hex' } as const;
const CONTEXT = { prefs: PREFS, device: 0, copyReasons: () => [] };

function fact(inspection: Inspection | undefined, name: string): Fact | undefined {
  return inspection?.facts.find((entry) => entry.label === `inspector.fact.${name}`);
}

function inspect(state: HostState, target: Target): Inspection | undefined {
  return inspectObject(target, state, CONTEXT);
}

function idOf(scene: Scene, kind: string): number {
  const event = [...scene.events].reverse().find((entry) => entry.kind === kind);
  return event !== undefined && 'id' in event ? event.id : -1;
}

describe('inspector facts', () => {
  it('an allocation: sizes in units and exact bytes, pages, occupied, waste, PTEs, modeled placement, and the decision', async () => {
    const scene = await startScene();
    const ptr = await malloc(scene.rt, 3 * MiB, 0);
    const id = idOf(scene, 'alloc');
    const inspection = inspect(scene.host.state, { kind: 'allocation', id });
    expect(fact(inspection, 'policy')?.text).toBe('ACL_MEM_MALLOC_HUGE_FIRST');
    expect(fact(inspection, 'address')?.text).toBe(ptr);
    expect(fact(inspection, 'requested')).toMatchObject({ text: '3 MiB', exact: '3,145,728 B' });
    expect(fact(inspection, 'padded')).toMatchObject({ exact: '3,145,760 B' });
    expect(fact(inspection, 'pageClass')).toMatchObject({ key: 'inspector.pageClass.huge', params: { size: '2 MiB' } });
    expect(fact(inspection, 'pages')?.text).toBe('2 × 2 MiB');
    expect(fact(inspection, 'occupied')).toMatchObject({ text: '4 MiB', exact: '4,194,304 B' });
    expect(fact(inspection, 'waste')).toMatchObject({ text: '1 MiB', tone: 'warn' });
    expect(fact(inspection, 'ptes')?.text).toBe('2');
    expect(fact(inspection, 'placement')).toMatchObject({
      provenance: 'modeled',
      key: 'inspector.placement.frames',
      params: { ranges: '32,766–32,767' },
    });
    expect(inspection?.reasons.map((reason) => reason.code)).toEqual(['pad', 'huge-first-large', 'occupies']);
    expect(inspection?.rules).toEqual(['DM-3', 'DM-4', 'DM-11']);
    // In decimal addresses the same pointer reads as a decimal number.
    const decimal = inspectObject({ kind: 'allocation', id }, scene.host.state, {
      ...CONTEXT,
      prefs: { units: 'decimal', addresses: 'dec' },
    });
    expect(fact(decimal, 'address')?.text).toBe('17,592,186,044,416');
  });

  it('normal pages: the placement names pages and the frames that hold them', async () => {
    const scene = await startScene();
    await malloc(scene.rt, MiB, 2);
    const inspection = inspect(scene.host.state, { kind: 'allocation', id: idOf(scene, 'alloc') });
    expect(fact(inspection, 'pages')?.text).toBe('257 × 4 KiB');
    expect(fact(inspection, 'placement')).toMatchObject({ key: 'inspector.placement.pages', params: { ranges: '0–256', frames: '0' } });
  });

  it('VMM objects: physical memory, handle, reservation and mapping link to each other', async () => {
    const scene = await startScene();
    const { rt, host } = scene;
    const prop = {
      handleType: 0,
      allocationType: 0,
      memAttr: aclrtMemAttr.byName.ACL_HBM_MEM_HUGE,
      location: { type: 1, id: 0 },
      reserve: 0,
    };
    const handle = need((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 })).handle, 'handle');
    const virPtr = need((await rt.aclrtReserveMemAddress({ size: 8 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })).virPtr, 'virPtr');
    expect((await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    const handleId = idOf(scene, 'physAlloc');
    const reservationId = idOf(scene, 'reserve');
    const mappingId = idOf(scene, 'map');

    const physical = inspect(host.state, { kind: 'physical', id: handleId });
    expect(fact(physical, 'memAttr')?.text).toBe('ACL_HBM_MEM_HUGE');
    expect(physical?.related.map((entry) => entry.target)).toEqual([{ kind: 'handle', id: handleId, device: 0 }]);

    const handleView = inspect(host.state, { kind: 'handle', id: handleId });
    expect(fact(handleView, 'handleValue')?.text).toBe(handle);
    expect(fact(handleView, 'memory')?.link).toEqual({ kind: 'physical', id: handleId, device: 0 });
    expect(fact(handleView, 'pages')?.text).toBe('1 × 2 MiB');
    expect(handleView?.related.map((entry) => entry.target.id)).toEqual([mappingId]);
    expect(fact(handleView, 'retains')?.text).toBe('0');
    expect(handleView?.rules).toEqual(['VM-4']);

    // VM-12: two references taken; the handle shows them and what they still need, and one given back.
    for (let n = 0; n < 2; n += 1) expect((await rt.aclrtMemRetainAllocationHandle({ virPtr })).handle).toBe(handle);
    const retained = inspect(host.state, { kind: 'handle', id: handleId });
    expect(fact(retained, 'retains')).toMatchObject({ key: 'inspector.value.retainsHeld', params: { count: 2 } });
    expect(retained?.rules).toEqual(['VM-4', 'VM-12']);
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect(fact(inspect(host.state, { kind: 'handle', id: handleId }), 'retains')?.params).toEqual({ count: 1 });
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect(fact(inspect(host.state, { kind: 'handle', id: handleId }), 'retains')?.text).toBe('0');

    const reservation = inspect(host.state, { kind: 'reservation', id: reservationId });
    expect(fact(reservation, 'size')?.text).toBe('8 MiB');
    expect(fact(reservation, 'mapped')?.text).toBe('2 MiB');
    expect(reservation?.related.map((entry) => entry.target.id)).toEqual([mappingId]);

    const mapping = inspect(host.state, { kind: 'mapping', id: mappingId });
    expect(fact(mapping, 'address')?.text).toBe(virPtr);
    expect(fact(mapping, 'reservation')?.link?.id).toBe(reservationId);
    expect(fact(mapping, 'ptes')?.text).toBe('1');
    expect(fact(mapping, 'access')).toMatchObject({ key: 'inspector.value.ownDevice', provenance: 'modeled' });
  });

  it('host buffers, streams, copies and frames', async () => {
    const scene = await startScene();
    const { rt, host } = scene;
    const hostPtr = need((await rt.aclrtMallocHost({ size: MiB })).hostPtr, 'hostPtr');
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const devPtr = await malloc(rt, 2 * MiB, 1);
    expect((await rt.aclrtMemcpyAsync({ dst: devPtr, destMax: MiB, src: hostPtr, count: MiB, kind: 1, stream })).ret).toBe(0);

    const buffer = inspect(host.state, { kind: 'host', id: idOf(scene, 'hostAlloc') });
    expect(fact(buffer, 'memory')?.key).toBe('inspector.value.pinned');
    expect(buffer?.rules).toEqual(['HM-2']);

    const streamView = inspect(host.state, { kind: 'stream', id: idOf(scene, 'streamCreate') });
    expect(fact(streamView, 'streamHandle')?.text).toBe(stream);

    const copy = inspectObject({ kind: 'copy', id: idOf(scene, 'copy') }, host.state, {
      ...CONTEXT,
      copyReasons: () => [{ code: 'copy-pinned', rules: ['CP-3', 'HM-2'], values: { rate: '20' } }],
    });
    expect(fact(copy, 'kind')?.text).toBe('ACL_MEMCPY_HOST_TO_DEVICE');
    expect(fact(copy, 'path')?.key).toBe('inspector.copyPath.pinned');
    expect(copy?.rules).toEqual(['CP-3', 'HM-2']);

    const frames = host.state.devices[0]?.frames;
    const top = (frames?.count ?? 0) - 1;
    const frame = inspect(host.state, { kind: 'frame', id: top, device: 0 });
    expect(fact(frame, 'frameKind')).toMatchObject({ key: 'inspector.frameKind.huge', provenance: 'modeled' });
    expect(fact(frame, 'owner')?.link?.kind).toBe('allocation');
    expect(fact(frame, 'physicalOffset')?.text).toBe(toHex(top * 2 * MiB));
    expect(inspect(host.state, { kind: 'frame', id: -1 })).toBeUndefined();
  });

  it('a call: result, message and its effects; a freed object is not in the state', async () => {
    const scene = await startScene();
    const ptr = await malloc(scene.rt, MiB, 0);
    await scene.rt.aclrtFree({ devPtr: ptr });
    await scene.rt.aclrtFree({ devPtr: ptr });
    scene.sync();
    const { events, calls } = scene.timeline;
    const failed = callRow(events, calls[calls.length - 1] ?? -1, []);
    if (failed === undefined) throw new Error('no row');
    const inspection = callInspection(failed, PREFS);
    expect(fact(inspection, 'result')).toMatchObject({ text: 'ACL_ERROR_INVALID_PARAM (100000)', tone: 'error' });
    expect(fact(inspection, 'message')?.tone).toBe('error');
    expect(inspection.args).toEqual([{ name: 'devPtr', text: ptr, dir: 'in' }]);
    const made = callRow(events, calls[2] ?? -1, []);
    expect(made === undefined ? [] : callInspection(made, PREFS).related.map((entry) => entry.label)).toEqual(['inspector.effect.alloc']);

    const id = idOf(scene, 'alloc');
    expect(inspect(scene.host.state, { kind: 'allocation', id })).toBeUndefined();
    expect(existsIn({ kind: 'allocation', id }, scene.host.state)).toBe(false);
    expect(existsIn({ kind: 'allocation', id }, scene.timeline.stateAt(events.find((event) => event.kind === 'alloc')?.seq ?? 0))).toBe(
      true,
    );
  });

  it('IP-1 … IP-3: an allocation lists its IPC keys, who may import them, and the imports of other processes', async () => {
    const scene = await startScene();
    const devPtr = await malloc(scene.rt, 4 * MiB, 0);
    const open = need((await scene.rt.aclrtIpcMemGetExportKey({ devPtr, size: 4 * MiB, len: 65, flags: 1 })).key, 'key');
    const listed = need((await scene.rt.aclrtIpcMemGetExportKey({ devPtr, size: MiB, len: 65, flags: 0 })).key, 'key');
    const importer = new SimRuntime(scene.host, 'importer');
    await importer.aclInit({ configPath: null });
    await importer.aclrtSetDevice({ deviceId: 0 });
    expect((await scene.rt.aclrtIpcMemSetImportPid({ key: listed, pid: [importer.pid], num: 1 })).ret).toBe(0);
    const addr = need((await importer.aclrtIpcMemImportByKey({ key: listed, flags: 0 })).devPtr, 'devPtr');
    const id = need([...scene.host.state.allocations.values()][0], 'allocation').id;
    const inspection = need(inspectObject({ kind: 'allocation', id }, scene.host.state, CONTEXT), 'inspection');
    const ipc = inspection.facts.filter((fact) => fact.label.startsWith('inspector.fact.ipc'));
    expect(ipc).toEqual([
      { label: 'inspector.fact.ipcKey', text: open },
      { label: 'inspector.fact.ipcPids', key: 'inspector.value.ipcAnyProcess', params: { size: '4 MiB' } },
      { label: 'inspector.fact.ipcKey', text: listed },
      { label: 'inspector.fact.ipcPids', key: 'inspector.value.ipcAllowed', params: { size: '1 MiB', pids: String(importer.pid) } },
      { label: 'inspector.fact.ipcImport', key: 'inspector.value.ipcImportAt', params: { pid: importer.pid, addr } },
    ]);
    expect(inspection.rules).toEqual(expect.arrayContaining(['IP-1', 'IP-2', 'IP-3']));
    // The exporter frees it: the keys end (IP-4), and so do the facts.
    expect((await scene.rt.aclrtFree({ devPtr })).ret).toBe(0);
    expect(scene.host.state.ipcKeys.size).toBe(0);
  });
});
