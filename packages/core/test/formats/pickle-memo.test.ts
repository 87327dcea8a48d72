import { describe, expect, it } from 'vitest';
import { CONSUMED, Memo, metaDepth, metaShared, metaSlot, packMeta } from '../../src/formats/pickle-memo.ts';
import { PickleReader } from '../../src/formats/pickle-reader.ts';
import type { PickleValue } from '../../src/formats/pickle-values.ts';
import { writePickle } from './pickle-writer.ts';
import { makeSnapshot } from './snapshot-fixtures.ts';

/** Entries per memo chunk (pickle-memo.ts keeps it private; the tests cross its boundaries). */
const CHUNK = 4096;

/** A memo of `count` entries where every third is consumed, as trace streaming leaves it. */
function filled(count: number): { memo: Memo; kept: Map<number, { value: PickleValue; meta: number }> } {
  const memo = new Memo();
  const kept = new Map<number, { value: PickleValue; meta: number }>();
  for (let index = 0; index < count; index += 1) {
    const value: PickleValue = index % 2 === 0 ? { at: index } : `text ${index}`;
    const meta = packMeta(-1, 1 + (index % 7), index % 2 === 0 ? 1 : 0);
    memo.put(index, value, meta);
    if (index % 3 === 0) memo.consume(index);
    else kept.set(index, { value, meta });
  }
  return { memo, kept };
}

function snapshotOf(memo: Memo, count: number) {
  return Array.from({ length: count }, (_, index) => [memo.value(index), memo.meta(index)]);
}

describe('pickle memo', () => {
  it('reads the same values and facts before and after settling, across chunk boundaries', () => {
    const count = 3 * CHUNK + 100;
    const { memo, kept } = filled(count);
    const before = snapshotOf(memo, count);
    memo.settle();
    expect(memo.settledChunks).toBe(3);
    expect(snapshotOf(memo, count)).toEqual(before);
    for (const [index, { value, meta }] of kept) {
      expect(memo.value(index)).toBe(value);
      expect(memo.meta(index)).toBe(meta);
    }
    expect(memo.value(0)).toBe(CONSUMED);
    expect(metaShared(memo.meta(0))).toBe(true);
    expect(metaSlot(memo.meta(0))).toBe(-1);
  });

  it('answers undefined and 0 where nothing was stored, settled or not', () => {
    const memo = new Memo();
    memo.put(5, 'five', packMeta(-1, 1, 0));
    memo.consume(5);
    memo.put(CHUNK + 1, 'next', packMeta(-1, 1, 0));
    memo.settle();
    expect(memo.settledChunks).toBe(1);
    expect(memo.value(4)).toBeUndefined();
    expect(memo.meta(4)).toBe(0);
    expect(memo.value(CHUNK - 1)).toBeUndefined();
    expect(memo.value(10 * CHUNK)).toBeUndefined();
    expect(memo.meta(10 * CHUNK)).toBe(0);
  });

  it('settles only whole chunks with consumed entries, and each chunk once', () => {
    const memo = new Memo();
    for (let index = 0; index < 2 * CHUNK + 10; index += 1) memo.put(index, index, packMeta(-1, 1, 0));
    memo.consume(CHUNK + 3);
    memo.consume(2 * CHUNK + 1);
    memo.settle();
    // Chunk 0 has nothing consumed; chunk 2 is not whole yet.
    expect(memo.settledChunks).toBe(1);
    expect(memo.value(CHUNK + 3)).toBe(CONSUMED);
    expect(memo.value(2 * CHUNK + 1)).toBe(CONSUMED);
    for (let index = 2 * CHUNK + 10; index < 3 * CHUNK; index += 1) memo.put(index, index, packMeta(-1, 1, 0));
    memo.settle();
    expect(memo.settledChunks).toBe(2);
    expect(memo.value(3 * CHUNK - 1)).toBe(3 * CHUNK - 1);
  });

  it('a store into a settled chunk makes it whole again and keeps every other entry', () => {
    const count = 2 * CHUNK;
    const { memo } = filled(count);
    memo.settle();
    const before = snapshotOf(memo, count);
    memo.put(7, 'overwritten', packMeta(-1, 2, 0));
    expect(memo.settledChunks).toBe(1);
    const after = snapshotOf(memo, count);
    expect(after[7]).toEqual(['overwritten', packMeta(-1, 2, 0)]);
    after[7] = before[7] as (PickleValue | number | undefined)[];
    expect(after).toEqual(before);
  });

  it('closes and deepens an entry of a settled chunk', () => {
    const { memo } = filled(CHUNK + 1);
    memo.put(1, ['open'], packMeta(3, 2, 1));
    memo.settle();
    expect(memo.settledChunks).toBe(1);
    memo.close(1);
    expect(metaSlot(memo.meta(1))).toBe(-1);
    expect(metaDepth(memo.meta(1))).toBe(2);
    expect(metaShared(memo.meta(1))).toBe(true);
    memo.deepen(2, 9);
    expect(metaDepth(memo.meta(2))).toBe(9);
    expect(memo.value(0)).toBe(CONSUMED);
    expect(memo.value(1)).toEqual(['open']);
  });

  it('a streamed trace leaves settled chunks, and the reader gives the same entries and tree', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 12_000, devices: 1, liveTarget: 200 });
    const bytes = writePickle(fixture.data, { protocol: 4 });
    const whole = new PickleReader();
    whole.push(bytes);
    const plain = whole.end() as { device_traces: PickleValue[][] };
    const entries: PickleValue[] = [];
    const streamed = new PickleReader({ traceSink: (_device, batch) => entries.push(...batch) });
    for (let at = 0; at < bytes.length; at += 4096) streamed.push(bytes.subarray(at, at + 4096));
    const tree = streamed.end() as { device_traces: PickleValue[][] };
    const plainEntries = plain.device_traces[0] ?? [];
    // The fixture's free entries share their block's frames list, which the alloc entry consumed:
    // there they read as CONSUMED (pickle-trace-stream.ts). Everything else reads the same.
    const withoutFrames = (list: PickleValue[]) => list.map((entry) => ({ ...(entry as object), frames: undefined }));
    expect(withoutFrames(entries)).toEqual(withoutFrames(plainEntries));
    const allocs = (list: PickleValue[]) => list.filter((entry) => (entry as { action?: unknown }).action === 'alloc');
    expect(allocs(entries)).toEqual(allocs(plainEntries));
    expect(tree.device_traces).toEqual([[]]);
    expect({ ...tree, device_traces: undefined }).toEqual({ ...plain, device_traces: undefined });
    expect(whole.settledMemoChunks).toBe(0);
    // 12,000 entry dicts fill some four chunks. The first holds the top dict and the open trace
    // lists too, which are closed at the end and so make it whole again.
    expect(streamed.settledMemoChunks).toBeGreaterThanOrEqual(2);
  });
});
