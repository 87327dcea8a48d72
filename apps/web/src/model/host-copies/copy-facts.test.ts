import type { CopyRecord } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { copyScene } from '../../../test/host-copies-scene.ts';
import { ipcScene } from '../../../test/ipc-scene.ts';
import { createI18n } from '../../i18n/setup.ts';
import type { FormatPrefs } from '../format.ts';
import { barLabel, type CopyFactsContext, copyFacts, endpointOf, type Fact, waitResource } from './copy-facts.ts';

const prefs: FormatPrefs = { units: 'binary', addresses: 'hex' };
const MiB = 1024 * 1024;

function copy(over: Partial<CopyRecord>): CopyRecord {
  return {
    seq: 1,
    id: 42,
    pid: 10,
    fn: 'aclrtMemcpy',
    memcpyKind: 1,
    dst: 0x1000_0000_0000,
    src: 0x7f00_0000_0000,
    bytes: 64 * MiB,
    device: 0,
    mode: 'sync',
    path: 'pinned',
    submit: 1_000_000,
    start: 1_000_000,
    end: 2_224_641,
    bytesPerSec: 55.25e9,
    stages: 0,
    ...over,
  };
}

const context: CopyFactsContext = {
  prefs,
  src: { side: 'host', id: 3, memory: 'pinned' },
  dst: { side: 'device', id: 4, device: 0, what: 'allocation' },
  overlaps: 0,
};

const byLabel = (facts: Fact[]) => new Map(facts.map((f) => [f.label, f]));

describe('copy tooltip facts', () => {
  it('gives kind, size, path, bandwidth in GB/s, duration and times for a pinned sync copy', () => {
    const facts = byLabel(copyFacts(copy({}), context));
    expect(facts.get('kind')?.value).toBe('ACL_MEMCPY_HOST_TO_DEVICE');
    expect(facts.get('size')?.value).toBe('64 MiB (67,108,864 B)');
    expect(facts.get('path')?.value).toBe('hostCopies.pathDetail.pinned');
    expect(facts.get('bandwidth')?.value).toBe('55.3 GB/s');
    expect(facts.get('duration')?.value).toBe('1.22 ms');
    expect(facts.get('submit')?.value).toBe('1.00 ms');
    expect(facts.get('end')?.value).toBe('2.22 ms');
    expect(facts.get('host')).toMatchObject({ value: 'hostCopies.facts.hostBlocked', params: { time: '1.22 ms' }, rules: ['CP-1'] });
    expect(facts.get('stream')?.value).toBe('hostCopies.facts.noStream');
    expect(facts.has('queued')).toBe(false);
    expect(facts.get('src')).toMatchObject({ value: 'hostCopies.endpoint.host.pinned', params: { at: '0x7f0000000000', id: 3 } });
    expect(facts.get('dst')).toMatchObject({ value: 'hostCopies.endpoint.allocation', params: { id: 4, device: 0 } });
  });

  it('HM-1: a pageable copy says it is staged, in how many chunks of what size', () => {
    const facts = byLabel(
      copyFacts(copy({ path: 'pageable-staged', stages: 32, bytesPerSec: 40.8e9 }), { ...context, chunkBytes: 2 * MiB }),
    );
    expect(facts.get('path')).toMatchObject({
      value: 'hostCopies.pathDetail.staged',
      params: { stages: 32, chunk: '2 MiB' },
      rules: ['HM-1'],
    });
    expect(facts.get('bandwidth')?.value).toBe('40.8 GB/s');
  });

  it('HM-3: an async copy leaves the host free; a blocking one says how long it held it', () => {
    const free = byLabel(copyFacts(copy({ fn: 'aclrtMemcpyAsync', mode: 'async', stream: 5 }), context));
    expect(free.get('host')?.value).toBe('hostCopies.facts.hostFree');
    expect(free.get('stream')).toMatchObject({ value: 'hostCopies.facts.onStream', params: { id: 5, device: 0 } });
    const blocking = byLabel(copyFacts(copy({ mode: 'async-blocking', stream: 5, submit: 0 }), context));
    expect(blocking.get('host')).toMatchObject({ value: 'hostCopies.facts.hostBlocked', params: { time: '2.22 ms' }, rules: ['HM-3'] });
  });

  it('CP-4: a copy that queued says how long and behind what', () => {
    const queued = byLabel(
      copyFacts(copy({ submit: 0, start: 1_224_641, end: 2_449_282 }), { ...context, waitedFor: 'link', overlaps: 2 }),
    );
    expect(queued.get('queued')).toMatchObject({ value: 'hostCopies.facts.queuedFor.link', params: { time: '1.22 ms' } });
    expect(queued.get('overlap')?.params).toEqual({ count: 2 });
    const unknown = byLabel(copyFacts(copy({ submit: 0, start: 10 }), context));
    expect(unknown.get('queued')?.value).toBe('hostCopies.facts.queuedFor.unknown');
  });

  it('reads the wait resource from the copy-waits reason', () => {
    expect(
      waitResource([
        { code: 'copy-pinned', rules: [] },
        { code: 'copy-waits', rules: ['CP-4'], values: { resource: 'stream', waitNs: 5 } },
      ]),
    ).toBe('stream');
    expect(waitResource([{ code: 'copy-pinned', rules: [] }])).toBeUndefined();
    expect(waitResource(undefined)).toBeUndefined();
  });

  it('resolves endpoints: host buffer, device allocation, or freed since', async () => {
    const scene = await copyScene();
    const state = scene.host.state;
    const first = state.copies[0];
    expect(endpointOf(state, scene.pid, first?.src ?? 0)).toMatchObject({ side: 'host', memory: 'pageable' });
    expect(endpointOf(state, scene.pid, first?.dst ?? 0)).toMatchObject({ side: 'device', what: 'allocation', device: 0 });
    expect(endpointOf(state, scene.pid, 12)).toEqual({ side: 'gone' });
  });

  it('IP-3: an address of an IPC import is the exported allocation, reached from the importer; freed since once the exporter frees it', async () => {
    const { host, exporter, importer, devPtr, addr, source: exported } = await ipcScene();
    const source = exported?.id;
    expect(endpointOf(host.state, importer.pid, addr + MiB)).toEqual({ side: 'device', id: source, device: 0, what: 'ipcImport' });
    // Each process has its own VA: in the exporter the same address is not the import.
    expect(endpointOf(host.state, exporter.pid, addr + MiB)).not.toMatchObject({ what: 'ipcImport' });
    expect((await exporter.aclrtFree({ devPtr })).ret).toBe(0);
    expect(endpointOf(host.state, importer.pid, addr)).toEqual({ side: 'gone' });
  });

  it('every fact renders to real text in English and Chinese (no missing keys)', () => {
    const all = [
      ...copyFacts(copy({ path: 'pageable-staged', stages: 32, submit: 0, start: 5 }), {
        ...context,
        chunkBytes: 2 * MiB,
        waitedFor: 'stream',
        overlaps: 1,
      }),
      ...copyFacts(copy({ mode: 'async', stream: 3, path: 'device' }), {
        ...context,
        src: { side: 'gone' },
        dst: { side: 'device', id: 1, device: 0, what: 'mapping' },
      }),
      ...copyFacts(copy({ path: 'device' }), { ...context, src: { side: 'device', id: 2, device: 0, what: 'ipcImport' } }),
      ...copyFacts(copy({ mode: 'async-blocking', path: 'peer' }), { ...context, overlaps: 3 }),
      ...copyFacts(copy({ path: 'host', src: 1 }), { ...context, src: { side: 'host', id: 1, memory: 'pinned-by-registration' } }),
    ];
    for (const language of ['en', 'zh'] as const) {
      const i18n = createI18n(language);
      for (const fact of all) {
        expect(i18n.exists(`hostCopies.facts.${fact.label}`), `${language} label ${fact.label}`).toBe(true);
        if (fact.translate !== true) continue;
        expect(i18n.exists(fact.value, fact.params), `${language} ${fact.value}`).toBe(true);
        expect(i18n.t(fact.value, fact.params ?? {})).not.toContain('{{');
      }
    }
    expect(createI18n('en').t('hostCopies.facts.overlaps', { count: 0 })).toBe('no other copy ran at the same time');
    expect(createI18n('en').t('hostCopies.facts.overlaps', { count: 2 })).toBe('ran alongside 2 other copies');
  });

  it('labels a wide bar with its size and bandwidth', () => {
    expect(barLabel(copy({}), prefs)).toBe('64 MiB · 55.3 GB/s');
    expect(barLabel(copy({}), { ...prefs, units: 'decimal' })).toBe('67.11 MB · 55.3 GB/s');
  });
});

describe('copy facts: modeled jitter beside the bandwidth (CP-3)', () => {
  it('a pageable copy says its rate is one draw from a range, in both languages; a pinned copy says nothing of it', () => {
    const pageable = copy({ path: 'pageable-staged', stages: 8, bytesPerSec: 16.7e9 });
    const spread = { low: 0.3 * 55.25e9, high: 55.25e9 };
    const facts = copyFacts(pageable, { ...context, spread });
    const labels = facts.map((fact) => fact.label);
    expect(labels.indexOf('spread')).toBe(labels.indexOf('bandwidth') + 1);
    const fact = byLabel(facts).get('spread');
    expect(fact?.translate).toBe(true);
    const en = createI18n('en').t(fact?.value ?? '', fact?.params ?? {});
    expect(en).toBe(
      'Modeled jitter: the simulator draws each pageable copy’s rate between 16.6 GB/s and 55.3 GB/s (staging, CP-3), so the same copy can show another rate next time.',
    );
    expect(createI18n('zh').t(fact?.value ?? '', fact?.params ?? {})).toContain('建模抖动');
    expect(byLabel(copyFacts(copy({}), context)).has('spread')).toBe(false);
  });
});
