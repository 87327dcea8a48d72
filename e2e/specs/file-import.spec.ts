import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { explainPeak, leaksBetween, reservedSteps } from '../../packages/core/src/formats/block-analysis.ts';
import { openMemoryFile } from '../../packages/core/src/formats/open-file.ts';
import { importSnapshot } from '../../packages/core/src/formats/snapshot-session.ts';
import { snapshotStats } from '../../packages/core/src/formats/snapshot-stats.ts';
import { stackFrames } from '../../packages/core/src/formats/stack-table.ts';
import { ASCEND_910B2 } from '../../packages/core/src/profiles/builtin.ts';
import { formatBytes } from '../../packages/core/src/units/bytes.ts';
import { writePickle } from '../../packages/core/test/formats/pickle-writer.ts';
import { A, C, PINNED_HOST_DATA } from '../../packages/core/test/formats/pinned-host-fixture.ts';
import { makeSnapshot } from '../../packages/core/test/formats/snapshot-fixtures.ts';
import { startAgent } from '../support/agent-process.ts';
import { allocate, expect, openExplorer, snap, test } from '../support/fixtures.ts';

const MiB = 1024 * 1024;

/** The page map's test hooks, as page-map.spec.ts declares them (the declarations must agree). */
interface MapHooks {
  locate(frame: number, page?: number): { x: number; y: number } | undefined;
  view(): { k: number; x: number; y: number; level: string };
}

declare global {
  interface Window {
    __pagelensPageMap?: MapHooks;
  }
}

/** A small torch_npu-shaped snapshot from the test-only writer, and its segments' bytes per device, summed here. */
function torchNpuSnapshot(): { bytes: Uint8Array; reserved: number[]; segments: number } {
  const fixture = makeSnapshot({ flavour: 'torch_npu', events: 400, seed: 5, devices: 2, expandableDevice: 1, liveTarget: 20 });
  const reserved = [0, 0];
  const segments = Array.isArray(fixture.data.segments) ? fixture.data.segments : [];
  for (const segment of segments) {
    if (typeof segment !== 'object' || segment === null || Array.isArray(segment) || segment instanceof Uint8Array) continue;
    if (!('device' in segment) || !('total_size' in segment)) continue;
    const device = Number(segment.device);
    reserved[device] = (reserved[device] ?? 0) + Number(segment.total_size);
  }
  return { bytes: writePickle(fixture.data), reserved, segments: segments.length };
}

/** Drops a file onto the page as a person dragging it from the desktop would. */
async function dropFile(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.evaluate(
    ({ name, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], name, { type: 'application/octet-stream' }));
      const target = document.querySelector('.app') ?? document.body;
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    { name, data: Array.from(bytes) },
  );
}

test('a dropped torch_npu snapshot opens read-only: its segments are huge pages on the page map, its blocks and stacks in the inspector', async ({
  page,
  agent,
}) => {
  const file = torchNpuSnapshot();
  await openExplorer(page, agent);
  await dropFile(page, 'job_oom.pickle', file.bytes);
  const banner = page.getByTestId('import-banner');
  await expect(banner).toContainText('job_oom.pickle');
  await expect(banner).toContainText('torch_npu snapshot');
  await expect(page.getByTestId('import-banner-modeled')).toContainText('page placement modeled');
  // Read-only: the actions panel gives way to the file's facts.
  await expect(page.getByTestId('actions')).toHaveCount(0);
  await expect(page.getByTestId('import-segments')).toHaveText(String(file.segments));

  // Every segment's bytes are huge pages (the generator's segments are 2 MiB multiples above 1 MiB), on the page map's legend.
  await page.getByTestId('tab-pages').click();
  const legend = page.getByTestId('page-map-legend');
  await expect(legend.getByTestId('legend-count-huge')).toHaveText(((file.reserved[0] ?? 0) / (2 * MiB)).toLocaleString('en-US'));
  await page.getByTestId('device-select').selectOption('1');
  await expect(legend.getByTestId('legend-count-huge')).toHaveText(((file.reserved[1] ?? 0) / (2 * MiB)).toLocaleString('en-US'));
  await page.getByTestId('device-select').selectOption('0');

  // Time travel works on the recording: before its first segment nothing is placed; Live brings them back.
  const slider = page.getByTestId('tt-slider');
  await slider.fill(String(await slider.getAttribute('min')));
  await expect(legend.getByTestId('legend-count-huge')).toHaveText('0');
  await page.getByTestId('tt-live').click();
  await expect(legend.getByTestId('legend-count-huge')).toHaveText(((file.reserved[0] ?? 0) / (2 * MiB)).toLocaleString('en-US'));

  // Huge pages come from the top: the highest frame belongs to the first segment placed. Clicking it
  // selects that allocation, and the inspector lists the segment's blocks.
  const top = Math.floor(ASCEND_910B2.capacityBytes / (2 * MiB)) - 1;
  await page.waitForFunction((frame) => window.__pagelensPageMap?.locate(frame) !== undefined, top);
  const at = await page.evaluate((frame) => window.__pagelensPageMap?.locate(frame), top);
  if (at === undefined) throw new Error('the segment is not on the page map');
  await page.mouse.click(at.x, at.y);
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-kind', 'allocation');
  await expect(inspector.getByTestId('segment-blocks')).toBeVisible();
  // A block's recorded stack, from the interned table: the generator's frames live under model/layers/.
  const block = inspector.getByTestId('segment-block').first();
  await block.locator('summary').click();
  await expect(block.getByTestId('block-stack')).toContainText('/home/user/project/model/layers/');
  await snap(page, 'file-import-dropped');
});

test('a real CUDA snapshot published by someone else opens whole: its segments as huge pages, its trace as a recording', async ({
  page,
  agent,
}) => {
  // packages/core/test/formats/fixtures/public (PROVENANCE.md): recorded by torch.cuda.memory._dump_snapshot.
  const name = 'cs336_cuda_memory_snapshot.pickle';
  const bytes = new Uint8Array(readFileSync(new URL(`../../packages/core/test/formats/fixtures/public/${name}`, import.meta.url)));
  const opened = openMemoryFile(bytes, name);
  if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error(opened.ok ? opened.file.kind : opened.message);
  const reserved = opened.file.segments.reduce((sum, segment) => sum + segment.totalSize, 0);
  await openExplorer(page, agent);
  await dropFile(page, name, bytes);
  const banner = page.getByTestId('import-banner');
  await expect(banner).toHaveAttribute('data-import-phase', 'complete');
  await expect(banner).toContainText('PyTorch CUDA snapshot');
  await expect(page.getByTestId('import-segments')).toHaveText(String(opened.file.segments.length));
  // Its allocator settings as the job recorded them.
  const settings = page.getByTestId('import-settings');
  await expect(settings.locator('.fact', { hasText: 'expandable_segments' }).locator('dd')).toHaveText('False');
  await expect(settings.locator('.fact', { hasText: 'max_split_size' }).locator('dd')).toHaveText('-1');
  await page.getByTestId('tab-pages').click();
  const huge = page.getByTestId('page-map-legend').getByTestId('legend-count-huge');
  await expect(huge).toHaveText(Math.ceil(reserved / (2 * MiB)).toLocaleString('en-US'));
  // Its trace is a recording to travel through. The recording began after every segment was reserved
  // (the trace holds allocs and frees only): those segments are the recording's first events, so
  // before them nothing is placed.
  const slider = page.getByTestId('tt-slider');
  expect(Number(await slider.getAttribute('max')) - Number(await slider.getAttribute('min'))).toBeGreaterThan(5000);
  await slider.fill(String(await slider.getAttribute('min')));
  await expect(huge).toHaveText('0');
  await page.getByTestId('tt-live').click();
  await expect(huge).toHaveText(Math.ceil(reserved / (2 * MiB)).toLocaleString('en-US'));
  await snap(page, 'file-import-public-cuda');
});

test('the same job modeled with page_size:1g or on another device: the file is read again and every view follows', async ({
  page,
  agent,
}) => {
  const file = torchNpuSnapshot();
  const opened = openMemoryFile(file.bytes, 'job.pickle');
  if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error('the fixture did not open');
  // What core's stats (pagelens stats --page-size-1g) give for device 0, to hold the legend to.
  const giant = snapshotStats(opened.file, { profile: ASCEND_910B2, pageSize1g: true }).pages.devices[0]?.byClass.giant.pages ?? 0;
  expect(giant).toBeGreaterThan(0);
  await openExplorer(page, agent);
  await dropFile(page, 'job.pickle', file.bytes);
  await expect(page.getByTestId('import-banner')).toHaveAttribute('data-import-phase', 'complete');
  await expect(page.getByTestId('import-settings')).toContainText('torch_npu writes no allocator_settings');
  await page.getByTestId('tab-pages').click();
  const legend = page.getByTestId('page-map-legend');
  await expect(legend.getByTestId('legend-count-giant')).toHaveText('0');
  await page.getByTestId('import-model-1g').check();
  await expect(page.getByTestId('import-banner-modeled')).toContainText('Ascend910B2, page_size:1g');
  await expect(page.getByTestId('import-banner')).toHaveAttribute('data-import-phase', 'complete');
  // The legend counts 2 MiB frames: a 1 GiB page is 512 of them.
  await expect(legend.getByTestId('legend-count-giant')).toHaveText((giant * 512).toLocaleString('en-US'));
  await expect(legend.locator('div', { has: page.getByTestId('legend-count-giant') })).toHaveAttribute(
    'title',
    `${(giant * 512).toLocaleString('en-US')} frames: ${giant} giant pages of 512`,
  );
  await expect(page.getByTestId('import-model-1g')).toBeChecked();
  await snap(page, 'file-import-page-size-1g');
  // Another device keeps page_size:1g.
  await page.getByTestId('import-model-profile').selectOption('Ascend910B4');
  await expect(page.getByTestId('import-banner-modeled')).toContainText('Ascend910B4, page_size:1g');
  await expect(page.getByTestId('device-select')).toContainText('Ascend910B4');
  await page.getByTestId('import-model-1g').uncheck();
  await expect(page.getByTestId('import-banner-modeled')).not.toContainText('page_size:1g');
  await expect(legend.getByTestId('legend-count-giant')).toHaveText('0');
});

test('pinned host memory a snapshot recorded (host_segments, host_traces) is in Host & copies, across time', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await dropFile(page, 'pinned.pickle', writePickle(PINNED_HOST_DATA));
  await expect(page.getByTestId('import-banner')).toHaveAttribute('data-import-phase', 'complete');
  // The fixture's host trace has 7 entries; A and C are its host segments at the end.
  await expect(page.getByTestId('import-pinned-host')).toContainText('7 trace entries · 2 buffers at the end');
  await page.getByTestId('tab-host').click();
  const buffers = page.getByTestId('host-buffers').locator('[data-testid^="host-buffer-"]');
  await expect(buffers).toHaveCount(2);
  await expect(page.getByTestId('host-buffers')).toContainText(`0x${A.toString(16)}`);
  await expect(page.getByTestId('host-buffers')).toContainText(`0x${C.toString(16)}`);
  // A recording names no host kernel and no simulated clock, and says why it has no copies.
  await expect(page.getByTestId('host-kernel')).toHaveCount(0);
  await expect(page.getByTestId('copy-time-kind')).toHaveCount(0);
  await expect(page.getByTestId('copy-timeline-empty')).toContainText('A memory recording holds no copies');
  await snap(page, 'file-import-pinned-host');
  // Before the recording's first event no buffer is live; B (8 MiB) is live between its alloc and free.
  const slider = page.getByTestId('tt-slider');
  await slider.fill(String(await slider.getAttribute('min')));
  await expect(buffers).toHaveCount(0);
  await page.getByTestId('tt-live').click();
  await expect(buffers).toHaveCount(2);
  await page.getByTestId('language').selectOption('zh');
  await expect(page.getByTestId('import-pinned-host')).toContainText('7 条跟踪条目 · 结束时 2 个缓冲区');
  await page.setViewportSize({ width: 1440, height: 900 });
  await snap(page, 'file-import-pinned-host-zh');
});

test("a truncated snapshot shows the reader's message: what it expected and where the file broke", async ({ page, agent }) => {
  const file = torchNpuSnapshot();
  await openExplorer(page, agent);
  // Cut inside its segments: nothing of the file is shown, the live session stays as it was.
  await page
    .getByTestId('open-file-input')
    .setInputFiles({ name: 'cut.pickle', mimeType: 'application/octet-stream', buffer: Buffer.from(file.bytes.subarray(0, 300)) });
  const error = page.getByTestId('import-error');
  await expect(error).toContainText('cut.pickle did not open');
  await expect(page.getByTestId('import-error-message')).toContainText(/truncated|ended/i);
  await expect(page.getByTestId('import-banner')).toHaveCount(0);
  await expect(page.getByTestId('actions')).toBeVisible();
});

test('a snapshot cut inside its trace keeps the final state its segments gave, and says the trace could not be read', async ({
  page,
  agent,
}) => {
  const file = torchNpuSnapshot();
  await openExplorer(page, agent);
  // The segments come first and read whole; the worker's stream delivers the half file in pieces.
  const cut = file.bytes.subarray(0, Math.floor(file.bytes.length * 0.9));
  await page
    .getByTestId('open-file-input')
    .setInputFiles({ name: 'cut.pickle', mimeType: 'application/octet-stream', buffer: Buffer.from(cut) });
  await expect(page.getByTestId('import-error-message')).toContainText(/truncated|ended/i);
  await expect(page.getByTestId('import-error')).toContainText('The trace of cut.pickle could not be read; its final state is shown');
  const banner = page.getByTestId('import-banner');
  await expect(banner).toHaveAttribute('data-import-phase', 'trace-failed');
  await expect(page.getByTestId('import-segments-only')).toContainText('its trace could not be read');
  await expect(page.getByTestId('import-segments')).toContainText(String(file.segments));
  await snap(page, 'file-import-cut-trace');
});

test('pagelens open FILE starts the explorer with the file loaded: no session, the file streamed from the agent', async ({ page }) => {
  const file = torchNpuSnapshot();
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-open-'));
  const path = join(dir, 'npu_job.pickle');
  writeFileSync(path, file.bytes);
  const agent = await startAgent(['open', path]);
  try {
    expect(new URL(agent.url).searchParams.get('open')).toBe('npu_job.pickle');
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(agent.url);
    const banner = page.getByTestId('import-banner');
    await expect(banner).toContainText('npu_job.pickle');
    await expect(banner).toContainText('torch_npu snapshot');
    await expect(page.getByTestId('import-segments')).toHaveText(String(file.segments));
    // No session: no connection badge, no "connecting" panel, no actions, and no socket was opened.
    await expect(page.getByTestId('connection')).toHaveCount(0);
    await expect(page.getByTestId('actions')).toHaveCount(0);
    expect(fetched).toContain('/file');
    expect(fetched).not.toContain('/ws');
    await page.getByTestId('tab-pages').click();
    await expect(page.getByTestId('page-map-legend').getByTestId('legend-count-huge')).toHaveText(
      ((file.reserved[0] ?? 0) / (2 * MiB)).toLocaleString('en-US'),
    );
    await snap(page, 'file-import-pagelens-open');
  } finally {
    await agent.stop();
  }
});

interface Exported {
  readonly traceEvents: { name: string; ph: string; pid: number; args: Record<string, number | string> }[];
}

/** Clicks Export to Perfetto and reads the JSON the browser downloads. */
async function exportPerfetto(page: Page): Promise<{ name: string; trace: Exported }> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-perfetto').click();
  const file = await download;
  const path = await file.path();
  return { name: file.suggestedFilename(), trace: JSON.parse(readFileSync(path, 'utf8')) };
}

test('Export to Perfetto: an imported file downloads as JSON whose last counters are its segments; a live session too', async ({
  page,
  agent,
}) => {
  const file = torchNpuSnapshot();
  await openExplorer(page, agent);
  await allocate(page, '3 MiB', 'HUGE_FIRST');
  const live = await exportPerfetto(page);
  expect(live.name).toBe('pagelens-session-sim.perfetto.json');
  const liveMemory = live.trace.traceEvents.filter((e) => e.ph === 'C' && e.name === 'memory (model)');
  expect(liveMemory.at(-1)?.args).toEqual({ allocated: 3 * MiB, reserved: 4 * MiB });

  await dropFile(page, 'job_oom.pickle', file.bytes);
  await expect(page.getByTestId('import-banner')).toContainText('job_oom.pickle');
  const exported = await exportPerfetto(page);
  expect(exported.name).toBe('job_oom.perfetto.json');
  for (const device of [0, 1]) {
    const memory = exported.trace.traceEvents.filter((e) => e.pid === device && e.ph === 'C' && e.name === 'memory');
    expect(memory.at(-1)?.args.reserved).toBe(file.reserved[device]);
    expect(exported.trace.traceEvents.some((e) => e.pid === device && e.ph === 'i' && e.name === 'alloc')).toBe(true);
  }
  await expect(page.getByTestId('export-perfetto')).toHaveAttribute('data-state', 'idle');
  await snap(page, 'file-import-export');
});

test('a recording explains its peak, lists leaks between A and B, filters blocks by stack text, and shows both addresses', async ({
  page,
  agent,
}) => {
  const file = torchNpuSnapshot();
  // The same file through the same core functions, for the figures the page must show.
  const opened = openMemoryFile(file.bytes, 'job.pickle');
  if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error('fixture did not open');
  const session = importSnapshot(opened.file, { profile: ASCEND_910B2, pageSize1g: false, name: 'job.pickle' });
  const framesOfStack = (stack: number) => stackFrames(session.stacks, stack);
  const peak = explainPeak(session.blocks, 0, reservedSteps(session.events, 0), framesOfStack, {
    profile: ASCEND_910B2,
    pageSize1g: false,
  });
  if (peak?.expandable === undefined) throw new Error('the fixture has no blocks');
  // Device 0's segments are not expandable (the fixture's expandable one is device 1's).
  expect(session.expandableDevices).toEqual([1]);
  const seqs = session.entrySeqs[0] ?? [];
  const [a = 0, b = 0] = [seqs[Math.floor(seqs.length / 4)], seqs[Math.floor((seqs.length * 3) / 4)]];
  const leaks = leaksBetween(session.blocks, 0, a, b, framesOfStack);

  await openExplorer(page, agent);
  await dropFile(page, 'job.pickle', file.bytes);
  const analysis = page.getByTestId('recording-analysis');
  await expect(analysis.getByTestId('peak')).toContainText(`after seq ${peak.seq.toLocaleString('en-US')}`);
  await expect(analysis.getByTestId('peak-fragmentation')).toContainText(`${(peak.fragmentationShare * 100).toFixed(1)}% of reserved`);
  await expect(analysis.getByTestId('peak-expandable')).toContainText(
    `at least ${formatBytes(peak.expandable.bytes)} would stay reserved at this peak`,
  );
  await expect(analysis.getByTestId('peak-expandable')).toContainText(`up to ${formatBytes(peak.expandable.saving)} less`);
  // Device 1's job already used expandable segments: no what-if, it says so.
  await page.getByTestId('device-select').selectOption('1');
  await expect(analysis.getByTestId('peak-expandable')).toContainText('already used expandable segments');
  await page.getByTestId('device-select').selectOption('0');
  await expect(analysis.getByTestId('peak-groups').getByTestId('frame-group')).toHaveCount(Math.min(8, peak.groups.length));
  await expect(analysis.getByTestId('peak-groups').getByTestId('frame-group').first()).toContainText(peak.groups[0]?.frame ?? '?');

  await expect(analysis.getByTestId('leaks')).toHaveCount(0);
  const slider = page.getByTestId('tt-slider');
  await slider.fill(String(a));
  await page.getByTestId('tt-mark-a').click();
  await slider.fill(String(b));
  await page.getByTestId('tt-mark-b').click();
  await expect(analysis.getByTestId('leaks')).toContainText(`${leaks.blocks.length} blocks`);
  await expect(analysis.getByTestId('leaks')).toContainText(`allocated after seq ${a.toLocaleString('en-US')}`);

  // Go to the peak, select the first segment: both of its addresses, then its blocks filtered by a frame's text.
  await analysis.getByTestId('go-to-peak').click();
  await expect(page.getByTestId('tt-position')).toContainText(peak.seq.toLocaleString('en-US'));
  const top = Math.floor(ASCEND_910B2.capacityBytes / (2 * MiB)) - 1;
  await page.getByTestId('tab-pages').click();
  await page.waitForFunction((frame) => window.__pagelensPageMap?.locate(frame) !== undefined, top);
  const at = await page.evaluate((frame) => window.__pagelensPageMap?.locate(frame), top);
  if (at === undefined) throw new Error('the segment is not on the page map');
  await page.mouse.click(at.x, at.y);
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('segment-model-address')).toHaveText(/^0x[0-9a-f]+$/);
  await expect(inspector.getByTestId('segment-recorded-address')).toHaveText(/^0x[0-9a-f]+$/);
  const recorded = await inspector.getByTestId('segment-recorded-address').textContent();
  expect(recorded).not.toBe(await inspector.getByTestId('segment-model-address').textContent());
  const all = await inspector.getByTestId('segment-block').count();
  const frame = peak.blocks.map((block) => framesOfStack(block.stack)).find((frames) => frames.length > 0)?.[0];
  await analysis.getByTestId('stack-filter').fill(frame?.name ?? '');
  await expect(analysis.getByTestId('stack-filter-count')).toBeVisible();
  const kept = await inspector.getByTestId('segment-block').count();
  expect(kept).toBeLessThanOrEqual(all);
  await analysis.getByTestId('stack-filter').fill('no frame holds this text');
  await expect(inspector.getByTestId('segment-block')).toHaveCount(0);
  await analysis.getByTestId('stack-filter').fill(frame?.name ?? '');
  await snap(page, 'file-import-analysis');
});
