import { SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { MiB, malloc, need, startScene } from '../../../test/log-scene.ts';
import { runText } from './placement.ts';
import { presenceFromStory, storyEntries } from './story.ts';

const PREFS = { units: 'binary', addresses: 'hex' } as const;

describe('storyEntries', () => {
  it('tells an allocation’s life: the call that made it, the allocation, the call that freed it, the free', async () => {
    const scene = await startScene();
    const ptr = await malloc(scene.rt, 3 * MiB, 0);
    await scene.rt.aclrtFree({ devPtr: ptr });
    scene.sync();
    const alloc = scene.events.find((event) => event.kind === 'alloc');
    if (alloc?.kind !== 'alloc') throw new Error('no alloc');
    const entries = storyEntries(scene.timeline.story(alloc.id), scene.timeline.events, PREFS);
    expect(entries.map((entry) => [entry.key, entry.tone])).toEqual([
      ['inspector.story.call', 'call'],
      ['inspector.story.alloc', 'create'],
      ['inspector.story.call', 'call'],
      ['inspector.story.free', 'destroy'],
    ]);
    expect(entries[0]?.params).toEqual({ fn: 'aclrtMalloc', result: 'ACL_SUCCESS', code: 0 });
    expect(entries[1]?.params).toEqual({ size: '3 MiB', pages: 2, pageSize: '2 MiB', addr: ptr });
    // Choosing a call goes to right after its effects; choosing a change goes to the change.
    expect(entries[0]?.jumpSeq).toBe(alloc.seq);
    expect(entries[1]?.jumpSeq).toBe(alloc.seq);
    expect(entries[3]?.jumpSeq).toBe(entries[3]?.seq);
    expect(entries[1]?.target).toEqual({ kind: 'allocation', id: alloc.id, device: 0 });
  });

  it('marks failed calls and deferred handle frees', () => {
    const failed = storyEntries(
      [{ kind: 'call', seq: 1, t: 0, provenance: 'simulated', pid: 1, fn: 'aclrtFree', args: {}, ret: 100000, durationNs: 0 }],
      [],
      PREFS,
    );
    expect(failed[0]?.tone).toBe('error');
    const deferred = storyEntries([{ kind: 'physFree', seq: 2, t: 0, provenance: 'simulated', id: 5, deferred: true }], [], PREFS);
    expect(deferred[0]?.key).toBe('inspector.story.physFreeDeferred');
  });

  it('VM-12: a handle’s references taken and given back read as such, with the count held after each', () => {
    const at = (seq: number, retains: number) => ({ kind: 'physRetain', seq, t: 0, provenance: 'simulated', id: 5, retains }) as const;
    const entries = storyEntries([at(1, 1), at(2, 2), at(3, 1), at(4, 0)], [], PREFS);
    expect(entries.map((entry) => [entry.key, entry.params.retains, entry.tone])).toEqual([
      ['inspector.story.physRetainTaken', 1, 'change'],
      ['inspector.story.physRetainTaken', 2, 'change'],
      ['inspector.story.physRetainGiven', 1, 'change'],
      ['inspector.story.physRetainGiven', 0, 'change'],
    ]);
    expect(entries[0]?.target).toEqual({ kind: 'handle', id: 5 });
  });
});

describe('presenceFromStory', () => {
  it('says whether an object is there, not made yet, or gone, and when', async () => {
    const scene = await startScene();
    const ptr = await malloc(scene.rt, MiB, 0);
    await scene.rt.aclrtFree({ devPtr: ptr });
    scene.sync();
    const alloc = scene.events.find((event) => event.kind === 'alloc');
    const free = scene.events.find((event) => event.kind === 'free');
    if (alloc?.kind !== 'alloc' || free === undefined) throw new Error('no alloc/free');
    const story = scene.timeline.story(alloc.id);
    expect(presenceFromStory(alloc.id, true, story, alloc.seq)).toEqual({ status: 'present' });
    expect(presenceFromStory(alloc.id, false, story, alloc.seq - 1)).toEqual({ status: 'future', seq: alloc.seq });
    expect(presenceFromStory(alloc.id, false, story, free.seq)).toEqual({ status: 'gone', seq: free.seq });
    expect(presenceFromStory(999, false, [], 10)).toEqual({ status: 'unknown' });
  });
});

describe('runText', () => {
  it('shows three runs and counts the rest', () => {
    expect(runText([5, 1, 10, 3])).toEqual({ ranges: '5, 10–12', more: 0 });
    expect(runText([1, 1, 3, 1, 5, 1, 7, 1, 9, 2000])).toEqual({ ranges: '1, 3, 5', more: 2 });
  });

  it('IP-1, IP-3: an allocation’s story holds its IPC key and the import of another process, with the key shortened', async () => {
    const scene = await startScene();
    const devPtr = await malloc(scene.rt, 4 * MiB, 0);
    const key = need((await scene.rt.aclrtIpcMemGetExportKey({ devPtr, size: 4 * MiB, len: 65, flags: 1 })).key, 'key');
    const importer = new SimRuntime(scene.host, 'importer');
    await importer.aclInit({ configPath: null });
    await importer.aclrtSetDevice({ deviceId: 0 });
    const addr = need((await importer.aclrtIpcMemImportByKey({ key, flags: 0 })).devPtr, 'devPtr');
    // The importer closes first, then the exporter (IP-4).
    expect((await importer.aclrtIpcMemClose({ key })).ret).toBe(0);
    expect((await scene.rt.aclrtIpcMemClose({ key })).ret).toBe(0);
    scene.sync();
    const alloc = scene.events.find((event) => event.kind === 'alloc');
    if (alloc?.kind !== 'alloc') throw new Error('no alloc');
    const entries = storyEntries(scene.timeline.story(alloc.id), scene.timeline.events, PREFS);
    const ipc = entries.filter((entry) => entry.key.startsWith('inspector.story.ipc'));
    const short = `${key.slice(0, 16)}…${key.slice(-6)}`;
    expect(ipc.map((entry) => [entry.key, entry.tone, entry.params])).toEqual([
      ['inspector.story.ipcExportOpen', 'change', { key: short, size: '4 MiB' }],
      ['inspector.story.ipcImport', 'change', { key: short, pid: importer.pid, addr }],
      ['inspector.story.ipcClose', 'change', { key: short, pid: importer.pid }],
      ['inspector.story.ipcClose', 'change', { key: short, pid: scene.rt.pid }],
    ]);
    expect(ipc.map((entry) => entry.target)).toEqual([
      { kind: 'allocation', id: alloc.id },
      { kind: 'allocation', id: alloc.id },
      undefined,
      undefined,
    ]);
  });

  it('IP-2: an allow-listed key’s story line, and the allow-list change, belong to the allocation’s story', async () => {
    const scene = await startScene();
    const devPtr = await malloc(scene.rt, 2 * MiB, 0);
    const key = need((await scene.rt.aclrtIpcMemGetExportKey({ devPtr, size: MiB, len: 65, flags: 0 })).key, 'key');
    expect((await scene.rt.aclrtIpcMemSetImportPid({ key, pid: [4242, 17], num: 2 })).ret).toBe(0);
    // Another allocation's key is not part of this story.
    const other = await malloc(scene.rt, 2 * MiB, 0);
    const otherKey = need((await scene.rt.aclrtIpcMemGetExportKey({ devPtr: other, size: MiB, len: 65, flags: 0 })).key, 'key');
    expect((await scene.rt.aclrtIpcMemSetImportPid({ key: otherKey, pid: [1], num: 1 })).ret).toBe(0);
    scene.sync();
    const alloc = scene.events.find((event) => event.kind === 'alloc');
    if (alloc?.kind !== 'alloc') throw new Error('no alloc');
    const entries = storyEntries(scene.timeline.story(alloc.id), scene.timeline.events, PREFS);
    expect(entries.filter((entry) => entry.key.startsWith('inspector.story.ipc')).map((entry) => [entry.key, entry.params.pids])).toEqual([
      ['inspector.story.ipcExport', undefined],
      ['inspector.story.ipcPids', '4242, 17'],
    ]);
  });
});
