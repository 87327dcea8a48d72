import { describe, expect, it } from 'vitest';
import { readMemScopeDump } from '../../src/formats/ascend-csv.ts';
import { memScopeFrames, memScopeToSnapshot } from '../../src/formats/memscope-session.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';

const MiB = 1024 * 1024;
const HEADER = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
const T0 = 1732000000000000000n;

/** One dump row; `attr` as msMemScope writes it, in braces. */
function row(id: number, event: string, type: string, dt: number, device: string, ptr: string, attr: string, stack = ''): string {
  return `${id},${event},${type},N/A,${T0 + BigInt(dt)},4242,4243,${device},${ptr},"{${attr}}","${stack}",`;
}

const SEG = 0x12c000000000n;
const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** A HAL region of 20 MiB holding two PTA blocks, one freed; plus every kind of row the model cannot place. */
const DUMP = [
  HEADER,
  row(1, 'SYSTEM', 'ACL_INIT', 0, '0', 'N/A', ''),
  row(2, 'MALLOC', 'HAL', 1000, '0', hex(SEG), `addr:${hex(SEG)},size:${20 * MiB},page_type:huge`),
  row(
    3,
    'MALLOC',
    'PTA',
    2000,
    '0',
    hex(SEG),
    `allocation_id:1,addr:${hex(SEG)},size:4096,owner:PTA@model`,
    'train.py(10): step\nmodel.py(42): forward',
  ),
  row(4, 'MALLOC', 'PTA', 3000, '0', hex(SEG + 0x100000n), `allocation_id:2,size:${2 * MiB}`, 'train.py(11): step'),
  row(5, 'FREE', 'PTA', 4000, '0', hex(SEG), `allocation_id:1,size:4096`),
  row(6, 'ACCESS', 'READ', 4500, '0', hex(SEG), 'size:4096'),
  row(7, 'MALLOC', 'HOST', 5000, '0', '0x7f0000000000', 'size:64'),
  row(8, 'MALLOC', 'PTA', 6000, '0', '0x990000000000', 'size:512'),
  row(9, 'FREE', 'PTA', 7000, '0', '0x880000000000', 'size:512'),
  row(10, 'MALLOC', 'PTA', 8000, 'N/A', '0x1', 'size:512'),
  row(11, 'MALLOC', 'PTA', 9000, '0', '0x2', 'owner:x'),
  row(12, 'MALLOC', 'HAL', 10000, '1', '0x20000000', `size:${2 * MiB}`),
].join('\n');

describe('msMemScope dump as a recorded session', () => {
  const dump = readMemScopeDump(DUMP, 'memscope_dump_1.csv');
  const converted = memScopeToSnapshot(dump);

  it('HAL rows become device allocations, framework rows blocks, in time order with the stack frames', () => {
    const trace = converted.snapshot.deviceTraces[0] ?? [];
    expect(trace.map((entry) => entry.action)).toEqual(['segment_alloc', 'alloc', 'alloc', 'free_requested', 'free_completed', 'alloc']);
    expect(trace[0]).toMatchObject({ addr: SEG, size: 20 * MiB, timeUs: 1 });
    expect(trace[4]).toMatchObject({ action: 'free_completed', addr: SEG, size: 4096, timeUs: 4 });
    expect(trace[1]?.frames).toEqual([
      { filename: 'train.py', line: 10, name: 'step' },
      { filename: 'model.py', line: 42, name: 'forward' },
    ]);
    expect(converted.snapshot.deviceTraces[1]?.map((entry) => entry.action)).toEqual(['segment_alloc']);
    expect(converted.halRows).toBe(2);
    expect(converted.blockRows).toBe(4);
  });

  it('every row it cannot place is counted by its reason, with the first line', () => {
    expect(converted.unplaced).toEqual({
      'not-malloc-free': { count: 2, firstLine: 2 },
      // Row 3's stack holds a line break inside its quotes, so the rows after it start one line later.
      host: { count: 1, firstLine: 9 },
      'outside-hal': { count: 1, firstLine: 10 },
      'free-unknown': { count: 1, firstLine: 11 },
      'no-device': { count: 1, firstLine: 12 },
      'no-size': { count: 1, firstLine: 13 },
    });
    expect(converted.events).toEqual({ SYSTEM: 1, MALLOC: 8, FREE: 2, ACCESS: 1 });
    const placed = converted.halRows + converted.blockRows;
    const skipped = Object.values(converted.unplaced).reduce((sum, item) => sum + (item?.count ?? 0), 0);
    // outside-hal rows are in the trace (the log) and counted as unplaced on the page map: nothing else is lost.
    expect(placed + skipped - (converted.unplaced['outside-hal']?.count ?? 0)).toBe(dump.events.length);
  });

  it('the final state is the HAL allocations live at the end with their live blocks, so the import ends consistent', () => {
    expect(converted.snapshot.segments.map((segment) => [segment.device, segment.totalSize, segment.allocatedSize])).toEqual([
      [0, 20 * MiB, 2 * MiB],
      [1, 2 * MiB, 0],
    ]);
    const session = importSnapshot(converted.snapshot, { profile: ASCEND_910B2, pageSize1g: false, name: 'memscope_dump_1.csv' });
    expect(session.finalMismatch).toBe(0);
    expect(session.inconsistent).toBe(0);
    // The HAL region is a modeled allocation of huge pages on device 0; the live blocks are in the block index.
    const allocations = [...session.final.allocations.values()];
    expect(allocations.map((a) => [a.device, a.size])).toEqual([
      [0, 20 * MiB],
      [1, 2 * MiB],
    ]);
    const blocks = session.blocks.all(0);
    expect(blocks).toHaveLength(3);
    expect(blocks.filter((block) => block.freeCompletedSeq === undefined).map((block) => block.size)).toEqual([2 * MiB, 512]);
    expect(blocks.find((block) => block.size === 512)?.addr).toBeUndefined();
    expect(session.events.some((event) => event.kind === 'call' && event.fn === 'segment_alloc' && event.provenance === 'observed')).toBe(
      true,
    );
  });

  it('reads the stack spellings it may meet', () => {
    expect(memScopeFrames('File "a.py", line 3, in f;b.py:4 g|weird')).toEqual([
      { filename: 'a.py', line: 3, name: 'f' },
      { filename: 'b.py', line: 4, name: 'g' },
      { filename: 'weird', line: 0, name: '' },
    ]);
    expect(memScopeFrames('N/A')).toEqual([]);
  });
});
