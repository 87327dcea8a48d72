import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runExport } from '../src/cli/export.ts';
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
    expect(cli.output().stderr).toMatch(/job\.json: [\d,]+ trace events; open it at https:\/\/ui\.perfetto\.dev/);
    const trace = JSON.parse(readFileSync(out, 'utf8')) as { traceEvents: TraceEvent[] };
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

  it('refuses a CSV, a damaged file and a missing one with the reason; writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-export-'));
    expect(await run(fixture('memory_record.csv'), join(dir, 'a.json'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/is a memory_record file; the Perfetto export reads torch_npu \/ PyTorch snapshot pickles/),
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
});
