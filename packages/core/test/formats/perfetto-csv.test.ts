import { describe, expect, it } from 'vitest';
import { readMemoryRecord } from '../../src/formats/ascend-csv.ts';
import { chromeTraceJson } from '../../src/formats/perfetto.ts';
import { memoryRecordToChromeTrace } from '../../src/formats/perfetto-csv.ts';

const MiB = 1024 * 1024;
const RECORD = [
  'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
  'PTA,100.5,10.5,20,12,281473439482912,NPU:0',
  'PTA,200,11.25,40,13,281473439482912,NPU:0',
  'GE,300,1,2,,0,NPU:1',
  'APP,400,3,4,,0,CPU',
].join('\n');

describe('memory_record.csv to Perfetto', () => {
  const record = readMemoryRecord(RECORD);
  const trace = memoryRecordToChromeTrace(record);
  const parsed = JSON.parse([...chromeTraceJson(trace)].join('')) as {
    traceEvents: { ph: string; name: string; pid: number; ts: number; args: Record<string, unknown> }[];
  };

  it('parses, with one counter sample per row, in bytes, on the device the row names', () => {
    const counters = parsed.traceEvents.filter((event) => event.ph === 'C');
    expect(counters).toHaveLength(record.rows.length);
    expect(counters.map((event) => [event.name, event.pid, event.ts, event.args])).toEqual([
      ['memory PTA', 0, 100.5, { allocated: 10.5 * MiB, reserved: 20 * MiB, active: 12 * MiB }],
      ['memory PTA', 0, 200, { allocated: 11.25 * MiB, reserved: 40 * MiB, active: 13 * MiB }],
      ['memory GE', 1, 300, { allocated: MiB, reserved: 2 * MiB }],
      ['memory APP', 1000, 400, { allocated: 3 * MiB, reserved: 4 * MiB }],
    ]);
  });

  it('names one process per device, and the rows without one apart', () => {
    const names = parsed.traceEvents.filter((event) => event.ph === 'M').map((event) => [event.pid, event.args.name]);
    expect(names).toEqual([
      [0, 'NPU 0'],
      [1, 'NPU 1'],
      [1000, 'host / unknown (CPU)'],
    ]);
  });
});
