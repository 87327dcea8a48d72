import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ASCEND_910B2 } from '../../packages/core/src/profiles/builtin.ts';
import { expect, openExplorer, snap, test } from '../support/fixtures.ts';
import { withServedFile } from '../support/served-file.ts';

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

const MiB = 1024 * 1024;
const HEADER = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
const T0 = 1732000000000000000n;

/** msMemScope rows: a 40 MiB HAL region on device 0 with framework blocks in it, a HOST malloc and MSTX marks the model does not place. */
function memScopeDump(): string {
  const rows = [HEADER];
  let id = 0;
  const row = (event: string, type: string, ptr: bigint | undefined, attr: string, stack = '') => {
    id += 1;
    rows.push(
      `${id},${event},${type},N/A,${T0 + BigInt(id * 1000)},7,7,0,${ptr === undefined ? 'N/A' : `0x${ptr.toString(16)}`},"{${attr}}","${stack}",`,
    );
  };
  const base = 0x12c000000000n;
  row('MALLOC', 'HAL', base, `size:${40 * MiB}`);
  for (let i = 0; i < 6; i += 1) {
    const stack = i === 3 ? 'eval.py(5): evaluate' : `train.py(${10 + i}): step\nmodel.py(42): forward`;
    row('MALLOC', 'PTA', base + BigInt(i * 4 * MiB), `size:${2 * MiB}`, stack);
    row('MSTX', 'Mark', undefined, '');
  }
  row('FREE', 'PTA', base, `size:${2 * MiB}`);
  row('MALLOC', 'HOST', 0x7f0000000000n, 'size:64');
  return rows.join('\n');
}

const RECORD = [
  'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type',
  ...Array.from({ length: 40 }, (_, i) => `PTA,${1000 + i * 50},${10 + (i % 10)},${20 + Math.floor(i / 4) * 2},${11 + (i % 10)},1,NPU:0`),
  ...Array.from({ length: 20 }, (_, i) => `GE,${1000 + i * 100},${1 + (i % 3)},4,,0,NPU:1`),
].join('\n');

const OPERATORS = [
  'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Stream Ptr,Device Type',
  'aten::empty_strided,4096,100,300,300,200,200,1,NPU:0',
  'aten::matmul,65536,400,,,,,1,NPU:0',
  'aten::add,8,500,510,510,10,10,1,NPU:0',
].join('\n');

/** Drops a file onto the page as a person dragging it from the desktop would. */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(
    ({ name, text }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'text/csv' }));
      const target = document.querySelector('.app') ?? document.body;
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    { name, text },
  );
}

test('a dropped msMemScope dump opens as a read-only session: its HAL region as huge pages, its blocks in the log, unplaced rows named', async ({
  page,
  agent,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(page, agent);
  await dropFile(page, 'memscope_dump_20261201.csv', memScopeDump());
  const banner = page.getByTestId('import-banner');
  await expect(banner).toContainText('memscope_dump_20261201.csv');
  await expect(banner).toContainText('msMemScope dump');
  await expect(page.getByTestId('import-banner-modeled')).toContainText('HAL allocation');
  await expect(page.getByTestId('actions')).toHaveCount(0);
  await expect(page.getByTestId('import-segments')).toHaveText('1');
  const unplaced = page.getByTestId('import-unplaced');
  await expect(unplaced.locator('[data-reason="not-malloc-free"]')).toContainText('rows: 6 · first at line 5');
  await expect(unplaced.locator('[data-reason="host"]')).toContainText('rows: 1');
  await page.getByTestId('tab-pages').click();
  await expect(page.getByTestId('page-map-legend').getByTestId('legend-count-huge')).toHaveText(String((40 * MiB) / (2 * MiB)));
  await snap(page, 'csv-memscope-1280');

  // The HAL region holds the top huge frames: clicking one selects it, and the inspector draws its blocks as a bar.
  const top = Math.floor(ASCEND_910B2.capacityBytes / (2 * MiB)) - 1;
  await page.waitForFunction((frame) => window.__pagelensPageMap?.locate(frame) !== undefined, top);
  const at = await page.evaluate((frame) => window.__pagelensPageMap?.locate(frame), top);
  if (at === undefined) throw new Error('the HAL region is not on the page map');
  await page.mouse.click(at.x, at.y);
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-kind', 'allocation');
  const bar = inspector.getByTestId('segment-bar');
  // Six blocks were made, the first freed: five live ones, in address order, each 2 MiB of the 40 MiB region.
  await expect(bar.getByTestId('segment-piece')).toHaveCount(5);
  const first = bar.getByTestId('segment-piece').first();
  await expect(first).toHaveAttribute('style', /left: 10%; width: 5%/);
  // Keyboard: into the bar, → to the second piece (the evaluate block), Enter opens it in the list with its stack.
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(bar.getByTestId('segment-piece').nth(2)).toHaveAttribute('aria-pressed', 'true');
  const chosen = inspector.locator('[data-testid="segment-block"][data-chosen="true"]');
  await expect(chosen).toHaveCount(1);
  await expect(chosen.getByTestId('block-stack')).toContainText('evaluate');
  await snap(page, 'csv-memscope-segment-bar-1280');

  await page.getByTestId('tab-log').click();
  const log = page.getByTestId('log');
  await expect(log.getByTestId('log-row').filter({ hasText: 'segment_alloc' })).toHaveCount(1);
  // The log is virtualised: the first rows are in view, the framework blocks' alloc calls among them.
  await expect(log.locator('[data-testid="log-row"] strong', { hasText: /^alloc$/ }).first()).toBeVisible();
  // The recording's stack filter narrows the log to the calls of the blocks whose stack holds it: one alloc here.
  await log.getByTestId('log-filter-stack').fill('evaluate');
  await expect(log.getByTestId('log-row')).toHaveCount(1);
  await expect(log.getByTestId('log-row')).toContainText('alloc');
  await expect(page.getByTestId('stack-filter').first()).toHaveValue('evaluate');
  await snap(page, 'csv-memscope-log-stack-1280');
  await log.getByTestId('log-filter-stack').fill('forward');
  // Five blocks hold forward: five allocs, and the first one's free (requested and completed).
  await expect(log.getByTestId('log-row')).toHaveCount(7);
  await log.getByTestId('log-filter-stack').fill('');

  await page.getByTestId('language').selectOption('zh');
  await expect(banner).toContainText('msMemScope 转储');
  await expect(unplaced.locator('[data-reason="host"]')).toContainText('HOST 内存');
  await snap(page, 'csv-memscope-zh-1280');
});

test('memory_record.csv opens as counters over time (no session: no addresses), and exports to Perfetto', async ({ page, agent }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(page, agent);
  await dropFile(page, 'memory_record.csv', RECORD);
  const panel = page.getByTestId('profiler-csv');
  await expect(panel).toHaveAttribute('data-kind', 'memory_record');
  await expect(page.getByTestId('profiler-csv-note')).toContainText('holds no addresses');
  await expect(panel.getByTestId('profiler-series')).toHaveCount(2);
  await expect(panel.getByTestId('profiler-peak-reserved').first()).toHaveText('38 MiB');
  await expect(panel.locator('path[data-field="reserved"]')).toHaveCount(2);
  // The live session is still there underneath: a profiler CSV replaces nothing.
  await expect(page.getByTestId('import-banner')).toHaveCount(0);
  await snap(page, 'csv-memory-record-1280');
  const download = page.waitForEvent('download');
  await panel.getByTestId('profiler-csv-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('memory_record.perfetto.json');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('language').selectOption('zh');
  await expect(page.getByTestId('profiler-csv-note')).toContainText('不含地址');
  await snap(page, 'csv-memory-record-zh-1440');
  await panel.getByTestId('profiler-csv-close').click();
  await expect(panel).toHaveCount(0);
});

test('operator_memory.csv lists operators largest first, said to be unplaced; a damaged CSV names its column and line', async ({
  page,
  agent,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(page, agent);
  await dropFile(page, 'operator_memory.csv', OPERATORS);
  const panel = page.getByTestId('profiler-csv');
  await expect(panel).toHaveAttribute('data-kind', 'operator_memory');
  await expect(panel.getByTestId('profiler-operator').first()).toContainText('aten::matmul');
  await expect(panel.getByTestId('profiler-operator').first()).toContainText('not released');
  await expect(panel.getByTestId('profiler-operator').last()).toContainText('aten::add');
  await snap(page, 'csv-operators-1280');

  await dropFile(page, 'memory_record.csv', RECORD.replace('Total Reserved(MB)', 'Reserved'));
  await expect(page.getByTestId('import-error-message')).toContainText('missing column "Total Reserved(MB)"');
  await expect(page.getByTestId('import-error')).toContainText('line 1');
  await dropFile(page, 'memscope_dump_2.csv', `${HEADER}\n1,MALLOC,PTA,N/A,notatime,1,1,0,0x1,{},,`);
  await expect(page.getByTestId('import-error-message')).toContainText('line 2: "Timestamp(ns)" is "notatime", expected an integer');
  await snap(page, 'csv-error-1280');
});

test('pagelens open FILE.csv starts the explorer with a profiler CSV (named anything) or an msMemScope dump loaded', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-open-csv-'));
  // Told by its header line: the profiler's memory_record.csv saved under another name.
  const record = join(dir, 'rank0_memory.csv');
  writeFileSync(record, RECORD);
  await withServedFile(page, record, async () => {
    const panel = page.getByTestId('profiler-csv');
    await expect(panel).toHaveAttribute('data-kind', 'memory_record');
    await expect(panel.getByTestId('profiler-series')).toHaveCount(2);
    await expect(page.getByTestId('actions')).toHaveCount(0);
    await snap(page, 'csv-pagelens-open-record');
    // Closed, the only file leaves a note and a way to open another, not a blank page.
    await panel.getByTestId('profiler-csv-close').click();
    await expect(page.getByTestId('nothing-open')).toBeVisible();
    await expect(page.getByTestId('open-file-again')).toBeVisible();
    await snap(page, 'csv-pagelens-open-nothing');
  });
  const dump = join(dir, 'memscope_dump_20261203.csv');
  writeFileSync(dump, memScopeDump());
  await withServedFile(page, dump, async () => {
    const banner = page.getByTestId('import-banner');
    await expect(banner).toContainText('memscope_dump_20261203.csv');
    await expect(banner).toContainText('msMemScope dump');
    await expect(page.getByTestId('import-segments')).toHaveText('1');
  });
});
