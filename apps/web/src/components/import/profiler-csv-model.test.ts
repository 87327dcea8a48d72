import { readMemoryRecord, readOperatorMemory } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { counterSeries, largestOperators, linePath } from './profiler-csv-model.ts';

const MiB = 1024 * 1024;

describe('profiler CSV panel model', () => {
  it('one series per device and component, in time order, in bytes, with peaks', () => {
    const record = readMemoryRecord(
      [
        'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
        'PTA,200,11,40,13,1,NPU:0',
        'PTA,100,10,20,,1,NPU:0',
        'GE,150,1,2,1,0,NPU:1',
      ].join('\n'),
    );
    const series = counterSeries(record);
    expect(series.map((s) => [s.key, s.t, s.reserved, s.peakReserved, s.peakAllocated])).toEqual([
      ['0/PTA', [100, 200], [20 * MiB, 40 * MiB], 40 * MiB, 11 * MiB],
      ['1/GE', [150], [2 * MiB], 2 * MiB, 1 * MiB],
    ]);
    expect(series[0]?.active[0]).toBeNaN();
  });

  it('operators largest first, cut to the limit, with the total', () => {
    const file = readOperatorMemory(
      ['Name,Size(KB),Allocation Time(us),Release Time(us),Device Type', 'a,8,1,2,NPU:0', 'b,4096,3,,NPU:0', 'c,8,0,5,NPU:0'].join('\n'),
    );
    const { rows, total } = largestOperators(file, 2);
    expect(rows.map((row) => row.name)).toEqual(['b', 'c']);
    expect(total).toBe(3);
  });

  it('a line breaks where a value is missing', () => {
    expect(linePath([0, 1, 2, 3], [5, Number.NaN, 7, 8])).toBe('M0.0,5.0M2.0,7.0L3.0,8.0');
  });
});
