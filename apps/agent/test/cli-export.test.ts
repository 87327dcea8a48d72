import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PERFETTO_IN_BROWSER_BYTES } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { exportedMessage, runExport } from '../src/cli/export.ts';
import { spawnCli } from './support/cli-process.ts';

const FIXTURES = fileURLToPath(new URL('../../../packages/core/test/formats/fixtures/', import.meta.url));
const fixture = (name: string): string => join(FIXTURES, name);
/** What CPython summed over the same files (make_fixtures.py). */
const EXPECTED = JSON.parse(readFileSync(fixture('expected.json'), 'utf8'));

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly args: Record<string, string | number>;
}

async function run(file: string, perfetto: string) {
  let out = '';
  let err = '';
  const code = await runExport(
    file,
    { perfetto, profile: undefined, pageSize1g: false },
    { out: (t) => (out += t), err: (t) => (err += t) },
  );
  return { code, out, err };
}

describe('pagelens export FILE --perfetto OUT.json', () => {
  it('the command line writes JSON that parses; its last counters per device are the totals CPython summed', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pagelens-export-')), 'job.json');
    const cli = spawnCli(['export', fixture('torch_npu_small.pickle'), '--perfetto', out], process.env);
    expect(await cli.exited).toBe(0);
    expect(cli.output().stderr).toMatch(/job\.json: [\d,]+ trace events, [\d.]+ MB; open it at https:\/\/ui\.perfetto\.dev/);
    const text = readFileSync(out, 'utf8');
    // The size it states is the file's.
    expect(cli.output().stderr).toContain(`${(Buffer.byteLength(text) / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`);
    const trace = JSON.parse(text) as { traceEvents: TraceEvent[] };
    const want = EXPECTED['torch_npu_small.pickle'];
    want.devices.forEach(
      (device: { device: number; allocatedBytes: number; activeBytes: number; reservedBytes: number; traceEvents: number }) => {
        const memory = trace.traceEvents.filter((e) => e.pid === device.device && e.ph === 'C' && e.name === 'memory');
        expect(memory.at(-1)?.args).toEqual({
          allocated: device.allocatedBytes,
          active: device.activeBytes,
          reserved: device.reservedBytes,
        });
        expect(trace.traceEvents.filter((e) => e.pid === device.device && e.ph === 'i')).toHaveLength(device.traceEvents);
      },
    );
  });

  it('- writes to stdout', async () => {
    const { code, out } = await run(fixture('cuda_small.pickle'), '-');
    expect(code).toBe(0);
    const trace = JSON.parse(out);
    expect(trace.metadata.time).toBe('time_us');
  });

  it('exports what the page exports: memory_record.csv as its counters, an msMemScope dump as its trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-export-'));
    const record = await run(fixture('memory_record.csv'), join(dir, 'record.json'));
    expect(record.code).toBe(0);
    const counters = (JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents.filter(
      (e) => e.ph === 'C',
    );
    expect(counters.length).toBeGreaterThan(0);
    expect(counters.every((e) => e.name.startsWith('memory ') && typeof e.args.allocated === 'number')).toBe(true);
    const dump = join(dir, 'memscope_dump_1.csv');
    writeFileSync(
      dump,
      [
        'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)',
        '1,MALLOC,HAL,N/A,1000,1,1,0,0x12c000000000,"{addr:0x12c000000000,size:4194304,page_type:normal}",,',
        '2,MALLOC,PTA,N/A,2000,1,1,0,0x12c000000000,"{size:4096}","train.py(3): step",',
        '3,FREE,PTA,N/A,3000,1,1,0,0x12c000000000,"{size:4096}",,',
      ].join('\n'),
    );
    expect((await run(dump, join(dir, 'dump.json'))).code).toBe(0);
    const events = (JSON.parse(readFileSync(join(dir, 'dump.json'), 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    expect(events.filter((e) => e.ph === 'i').map((e) => e.name)).toEqual(['segment_alloc', 'alloc', 'free_requested', 'free_completed']);
    // The HAL row's recorded page size, in the page counters.
    expect(events.filter((e) => e.name === 'pages (modeled)').at(-1)?.args).toEqual({ normal: 4 * 1024 * 1024, huge: 0, giant: 0 });
  });

  it('refuses operator_memory.csv, a damaged file and a missing one with the reason; writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-export-'));
    const operators = join(dir, 'operator_memory.csv');
    writeFileSync(operators, 'Name,Size(KB),Allocation Time(us),Release Time(us),Device Type\nMatMul,64,1,9,NPU:0\n');
    expect(await run(operators, join(dir, 'a.json'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/operator_memory\.csv lists operators' allocations without counters or addresses/),
    });
    expect(await run(fixture('torch_npu_truncated.pickle'), join(dir, 'b.json'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/torch_npu_truncated\.pickle: truncated at byte/),
    });
    expect(await run(join(dir, 'none.pickle'), join(dir, 'c.json'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/cannot read .*none\.pickle/),
    });
    expect(() => readFileSync(join(dir, 'a.json'))).toThrow();
  });

  it('past what a browser tab holds, it points to a native trace_processor instead of the page', () => {
    expect(exportedMessage('job.json', 12, PERFETTO_IN_BROWSER_BYTES)).toBe(
      'job.json: 12 trace events, 1,073.7 MB; open it at https://ui.perfetto.dev\n',
    );
    const big = exportedMessage('big.json', 10_000_000, 15e9);
    expect(big).toMatch(/^big\.json: 10,000,000 trace events, 15,000 MB; more than ui\.perfetto\.dev can hold in a browser tab/);
    expect(big).toContain('Run `trace_processor --httpd big.json`');
    expect(big).not.toContain('open it at https://ui.perfetto.dev\n');
  });
});
