import { describe, expect, it } from 'vitest';
import { parseAttr, readMemScopeEvents } from '../../src/formats/ascend-csv.ts';
import { openMemoryFile } from '../../src/formats/open-file.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function opened(text: string, name: string) {
  const result = openMemoryFile(bytes(text), name);
  if (!result.ok) throw new Error(result.message);
  return result.file;
}

function refused(text: string, name: string): { message: string; at: number | undefined } {
  const result = openMemoryFile(bytes(text), name);
  if (result.ok) throw new Error('expected a refusal');
  return result;
}

const DUMP_HEADER = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
const DUMP = [
  DUMP_HEADER,
  '1,MALLOC,PTA,N/A,1732000000000000001,4242,4243,0,0x12c000000000,"{allocation_id:1,addr:0x12c000000000,size:4096,owner:PTA@model,total:20971520,used:4096}","train.py:10 step",',
  '2,FREE,PTA,N/A,1732000000000000777,4242,4243,0,0x12c000000000,"{allocation_id:1,addr:0x12c000000000,size:4096,total:20971520,used:0}",,',
  '3,MSTX,Mark,epoch,1732000000000001000,4242,4243,0,N/A,{},,',
].join('\r\n');

describe('msMemScope memscope_dump_*.csv', () => {
  it('reads events, exact ns timestamps and pointers, and the Attr fields', () => {
    const events = readMemScopeEvents(DUMP, 'memscope_dump_20251201.csv');
    expect(events.map((e) => e.event)).toEqual(['MALLOC', 'FREE', 'MSTX']);
    expect(events[0]?.timestampNs).toBe(1732000000000000001n);
    expect(events[0]?.ptr).toBe(0x12c000000000n);
    expect(events[0]?.size).toBe(4096);
    expect(events[0]?.attr.owner).toBe('PTA@model');
    expect(events[0]?.pythonStack).toBe('train.py:10 step');
    expect(events[2]?.ptr).toBeUndefined();
    expect(events[1]?.line).toBe(3);
    // Opened, the rows are counted as they go into the model (memscope-session.ts), not kept.
    const file = opened(DUMP, 'memscope_dump_20251201.csv');
    expect(file.kind).toBe('memscope_dump');
    if (file.kind !== 'memscope_dump') return;
    expect(file.rows).toBe(3);
    expect([...file.byDevice]).toEqual([[0, { MALLOC: 1, FREE: 1, MSTX: 1 }]]);
  });

  it('accepts "Thread ID" / "Device ID" spellings and finds the file by its header when the name says nothing', () => {
    const file = opened(DUMP.replace('Thread Id', 'Thread ID').replace('Device Id', 'Device ID'), 'upload.csv');
    expect(file.kind).toBe('memscope_dump');
  });

  it('a missing column is named, with the columns found', () => {
    const { message } = refused(DUMP.replace(',Ptr,', ',Pointer,'), 'memscope_dump_1.csv');
    expect(message).toContain('missing column "Ptr"');
    expect(message).toContain('columns found: "ID", "Event", "Event Type"');
    expect(message).toContain('"Pointer"');
  });

  it('a damaged row names its line', () => {
    const cut = DUMP.split('\r\n');
    const text = [cut[0], cut[1], '2,FREE,PTA,N/A,notatime,4242,4243,0,0x1,{},,'].join('\n');
    expect(refused(text, 'memscope_dump_1.csv')).toMatchObject({
      message: expect.stringContaining('line 3: "Timestamp(ns)" is "notatime", expected an integer'),
      at: 3,
    });
    const short = [cut[0], '7,MALLOC,PTA'].join('\n');
    expect(refused(short, 'memscope_dump_1.csv').message).toContain('line 2: 3 fields where the header has 12');
    expect(refused(`${cut[0]}\n1,MALLOC,PTA,N/A,1,1,1,0,0x1,"{size:1`, 'memscope_dump_1.csv').message).toContain(
      'line 2: a quoted field is not closed',
    );
  });

  it('Attr in braces or JSON', () => {
    expect(parseAttr('{allocation_id:3,addr:0x10,size:512}')).toEqual({ allocation_id: '3', addr: '0x10', size: '512' });
    expect(parseAttr('{"size": "512", "owner": "PTA@a@b"}')).toEqual({ size: '512', owner: 'PTA@a@b' });
  });
});

const RECORD = [
  'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
  'PTA,1732000000000.5,10.5,20,12,281473439482912,NPU:0',
  'PTA,1732000000100.0,11.25,40,13,281473439482912,NPU:0',
  'GE,1732000000200.0,1,2,,0,NPU:1',
].join('\n');

describe('torch_npu profiler memory_record.csv', () => {
  it('reads rows with their device', () => {
    const file = opened(RECORD, 'ASCEND_PROFILER_OUTPUT/memory_record.csv');
    expect(file.kind).toBe('memory_record');
    if (file.kind !== 'memory_record') return;
    expect(file.rows.map((r) => [r.component, r.allocatedMB, r.reservedMB, r.activeMB, r.device])).toEqual([
      ['PTA', 10.5, 20, 12, 0],
      ['PTA', 11.25, 40, 13, 0],
      ['GE', 1, 2, undefined, 1],
    ]);
  });

  it('a missing column and a bad number', () => {
    expect(refused(RECORD.replace('Total Reserved(MB)', 'Reserved'), 'memory_record.csv').message).toMatch(
      /memory_record\.csv: missing column "Total Reserved\(MB\)"; columns found: "Component", "Timestamp\(us\)", "Total Allocated\(MB\)", "Reserved"/,
    );
    expect(refused(RECORD.replace('10.5', 'ten'), 'memory_record.csv').message).toContain(
      'line 2: "Total Allocated(MB)" is "ten", expected a number',
    );
  });
});

const OPERATOR = [
  'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type',
  'aten::empty_strided,4096,100.5,300.25,300.25,199.75,199.75,4,20,4,0,20,0,281473439482912,NPU:0',
  '"aten::add, fused",8,400,,,,,4,20,4,,,,281473439482912,NPU:0',
].join('\n');

describe('torch_npu profiler operator_memory.csv', () => {
  it('reads operators, quoted names with commas, and unreleased memory', () => {
    const file = opened(OPERATOR, 'operator_memory.csv');
    if (file.kind !== 'operator_memory') throw new Error(file.kind);
    expect(file.rows.map((r) => [r.name, r.sizeKB, r.allocationTimeUs, r.releaseTimeUs, r.device])).toEqual([
      ['aten::empty_strided', 4096, 100.5, 300.25, 0],
      ['aten::add, fused', 8, 400, undefined, 0],
    ]);
  });

  it('a missing column', () => {
    expect(refused(OPERATOR.replace('Size(KB)', 'Bytes'), 'operator_memory.csv').message).toContain('missing column "Size(KB)"');
  });
});
