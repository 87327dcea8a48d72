import { ASCEND_910B2, BlockIndex } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { writePickle } from '../../../../../packages/core/test/formats/pickle-writer.ts';
import { makeSnapshot } from '../../../../../packages/core/test/formats/snapshot-fixtures.ts';
import type { ImportReply } from './import-protocol.ts';
import { openSnapshot } from './import-snapshot.ts';

/** The file as a stream of `chunk`-byte reads, as a File's stream gives them. */
function streamOf(bytes: Uint8Array, chunk: number): ReadableStreamDefaultReader<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  }).getReader();
}

async function replies(bytes: Uint8Array, chunk: number, keepEntries?: number): Promise<ImportReply[]> {
  const reader = streamOf(bytes, chunk);
  const first = await reader.read();
  const seen: ImportReply[] = [];
  await openSnapshot(
    { name: 'job.pickle', total: bytes.length, first, reader, ...(keepEntries === undefined ? {} : { keepEntries }) },
    {},
    { name: 'job.pickle', profile: ASCEND_910B2, pageSize1g: false },
    (message) => seen.push(message),
  );
  return seen;
}

describe('import worker: snapshots', () => {
  it('sends the segments-first view once, early, then progress, then the whole file', async () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 3000, devices: 1, liveTarget: 50 });
    const bytes = writePickle(fixture.data, { protocol: 4 });
    const seen = await replies(bytes, 16 * 1024);
    const kinds = seen.map((reply) => reply.type);
    const preview = kinds.indexOf('preview');
    expect(kinds.filter((kind) => kind === 'preview')).toHaveLength(1);
    expect(kinds.at(-1)).toBe('done');
    // Bytes are still being read after the preview.
    expect(kinds.slice(preview).includes('progress')).toBe(true);
    const early = seen[preview];
    const done = seen.at(-1);
    if (early?.type !== 'preview' || done?.type !== 'done') throw new Error('no preview or no done');
    expect(early.facts.segmentsOnly).toBe(true);
    expect(early.facts.traceEntries).toBe(0);
    expect(done.facts.segmentsOnly).toBeUndefined();
    expect(done.facts.traceEntries).toBe(fixture.truth[0]?.length);
    // The same final state: as many segments, and the blocks live at the end.
    expect(early.facts.segments).toBe(done.facts.segments);
    const received = BlockIndex.from(done.blocks);
    const liveAtEnd = Array.from({ length: received.devices }, (_, device) => received.all(device))
      .flat()
      .filter((block) => block.freeCompletedSeq === undefined).length;
    expect(early.blocks.length).toBe(liveAtEnd);
  });

  it('a file read in one piece, or exported to Perfetto, has no preview', async () => {
    const bytes = writePickle(makeSnapshot({ flavour: 'torch_npu', events: 500, devices: 1 }).data);
    expect((await replies(bytes, bytes.length)).map((reply) => reply.type)).toEqual(['progress', 'done']);
    const reader = streamOf(bytes, 1024);
    const seen: ImportReply[] = [];
    await openSnapshot(
      { name: 'job.pickle', total: bytes.length, first: await reader.read(), reader },
      { purpose: 'perfetto' },
      { name: 'job.pickle', profile: ASCEND_910B2, pageSize1g: false },
      (message) => seen.push(message),
    );
    expect(seen.some((reply) => reply.type === 'preview')).toBe(false);
    expect(seen.at(-1)?.type).toBe('perfetto');
  });

  it('a trace longer than the worker keeps: the final state and a summary of the trace, not the trace', async () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 3000, devices: 1, liveTarget: 50 });
    const bytes = writePickle(fixture.data, { protocol: 4 });
    const kept = (await replies(bytes, 16 * 1024)).at(-1);
    const entries = fixture.truth[0]?.length ?? 0;
    const summarised = await replies(bytes, 16 * 1024, entries - 1);
    const done = summarised.at(-1);
    if (kept?.type !== 'done' || done?.type !== 'done') throw new Error('no done');
    expect(summarised.filter((reply) => reply.type === 'preview')).toHaveLength(1);
    const summary = done.facts.traceSummary;
    expect(done.facts.segmentsOnly).toBe(true);
    expect(summary?.entries).toBe(fixture.truth[0]?.length);
    expect(done.facts.traceEntries).toBe(summary?.entries);
    const written = (fixture.data.device_traces as { action: string }[][])[0] ?? [];
    expect(summary?.devices[0]?.actions.alloc).toBe(written.filter((entry) => entry.action === 'alloc').length);
    expect(summary?.devices[0]?.actions.alloc).toBeGreaterThan(0);
    // The same final state as the kept file's, from far fewer events (no trace entry became one).
    expect(done.facts.segments).toBe(kept.facts.segments);
    expect(done.events.traceAt.length).toBeLessThan(kept.events.traceAt.length / 10);
    // A trace at the limit is kept whole.
    const atLimit = (await replies(bytes, 16 * 1024, entries)).at(-1);
    expect(atLimit?.type === 'done' && atLimit.facts.traceSummary === undefined && atLimit.facts.traceEntries).toBe(summary?.entries);
  });

  it('a file cut inside its trace: the final state is sent before the reader says where the file broke', async () => {
    const bytes = writePickle(makeSnapshot({ flavour: 'torch_npu', events: 3000, devices: 2, liveTarget: 50 }).data);
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.9));
    for (const chunk of [cut.length, 16 * 1024]) {
      const seen: ImportReply[] = [];
      const reader = streamOf(cut, chunk);
      const run = openSnapshot(
        { name: 'cut.pickle', total: cut.length, first: await reader.read(), reader },
        {},
        { name: 'cut.pickle', profile: ASCEND_910B2, pageSize1g: false },
        (message) => seen.push(message),
      );
      await expect(run).rejects.toThrow(/truncated/);
      expect(seen.filter((reply) => reply.type === 'preview')).toHaveLength(1);
    }
  });
});
