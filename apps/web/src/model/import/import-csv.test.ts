import { ASCEND_910B2, BlockIndex, unpackEvents } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { openCsv } from './import-csv.ts';
import type { ImportReply } from './import-protocol.ts';

const MiB = 1024 * 1024;
const DUMP = [
  'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)',
  `1,MALLOC,HAL,N/A,1000,1,1,0,0x12c000000000,"{size:${4 * MiB}}",,`,
  '2,MALLOC,PTA,N/A,2000,1,1,0,0x12c000000000,"{size:4096}","train.py(3): step",',
  '3,MSTX,Mark,epoch,3000,1,1,0,N/A,{},,',
].join('\n');
const RECORD = [
  'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
  'PTA,1,1,2,1,0,NPU:0',
].join('\n');

/** Runs the worker's CSV branch on `text` as a file called `name` and collects its replies. */
async function run(text: string, name: string, purpose?: 'perfetto'): Promise<ImportReply[]> {
  const bytes = new TextEncoder().encode(text);
  // 64 KiB chunks after a 3-byte head, as a File stream delivers them.
  let at = 3;
  const reader = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.slice(at, at + 64 * 1024));
        at += 64 * 1024;
      }
    },
  }).getReader();
  const replies: ImportReply[] = [];
  await openCsv(
    { name, total: bytes.length, head: bytes.subarray(0, 3), reader },
    { url: '', token: '', name, ...(purpose === undefined ? {} : { purpose }) },
    ASCEND_910B2,
    (m) => replies.push(m),
  );
  return replies;
}

describe('the import worker: Ascend CSVs', () => {
  it('a memscope dump becomes a session, with progress, its unplaced rows named', async () => {
    const replies = await run(DUMP, 'memscope_dump_1.csv');
    expect(replies[0]).toMatchObject({ type: 'progress', bytesRead: DUMP.length });
    const done = replies.at(-1);
    if (done?.type !== 'done') throw new Error(JSON.stringify(done));
    expect(done.facts).toMatchObject({ format: 'msmemscope', segments: 1, devices: 1, traceEntries: 3, finalMismatch: 0 });
    expect(done.facts.unplaced).toEqual([{ reason: 'not-malloc-free', count: 1, firstLine: 4 }]);
    // Its HAL row says no page_type: the pages are modeled.
    expect(done.facts.halPages).toEqual({ recorded: 0, modeled: 1 });
    expect(
      BlockIndex.from(done.blocks)
        .all(0)
        .map((block) => block.size),
    ).toEqual([4096]);
    expect(unpackEvents(done.events).some((event) => event.kind === 'alloc' && event.size === 4 * MiB)).toBe(true);
  });

  it('memory_record is a table, and its Perfetto export has its counters', async () => {
    const [, table] = await run(RECORD, 'memory_record.csv');
    expect(table).toMatchObject({ type: 'profiler-csv', name: 'memory_record.csv', table: { kind: 'memory_record' } });
    const exported = (await run(RECORD, 'memory_record.csv', 'perfetto')).at(-1);
    if (exported?.type !== 'perfetto') throw new Error(JSON.stringify(exported));
    const json = JSON.parse(await exported.json.text()) as { traceEvents: { ph: string; args: Record<string, number> }[] };
    expect(json.traceEvents.filter((event) => event.ph === 'C').map((event) => event.args)).toEqual([
      { allocated: MiB, reserved: 2 * MiB, active: MiB },
    ]);
  });

  it('a damaged CSV is the reader’s message, naming the column', async () => {
    const replies = await run(RECORD.replace('Total Reserved(MB)', 'Reserved'), 'memory_record.csv');
    expect(replies.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('missing column "Total Reserved(MB)"'), at: 1 });
  });

  it('progress is how far the parse got: a damaged row halfway stops the import there, before the rest is read', async () => {
    const good = '4,MALLOC,PTA,N/A,4000,1,1,0,0x12c000001000,"{size:4096}","train.py(3): step",';
    const rows = Math.ceil((4 * MiB) / (good.length + 1));
    const lines = [DUMP, ...Array.from({ length: rows }, () => good)];
    // DUMP is the file's lines 1–4, so lines[k] (k ≥ 1) is line k + 4.
    const damagedLine = Math.floor(rows / 2) + 4;
    lines[damagedLine - 4] = '9,MALLOC,PTA,N/A,notatime,1,1,0,0x1,{},,';
    const text = lines.join('\n');
    const replies = await run(text, 'memscope_dump_1.csv');
    const error = replies.at(-1);
    expect(error).toMatchObject({ type: 'error', at: damagedLine });
    expect(error?.type === 'error' ? error.message : '').toContain(`line ${damagedLine}: "Timestamp(ns)" is "notatime"`);
    const progress = replies.flatMap((reply) => (reply.type === 'progress' ? [reply.bytesRead] : []));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // The damaged row starts near the middle of the 4 MiB: no progress past it was reported.
    expect(Math.max(...progress)).toBeLessThan(text.indexOf('notatime') + MiB);
  });
});
