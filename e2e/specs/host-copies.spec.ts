import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

const MiB = 1024 * 1024;
const SIZE = 64 * MiB;

/** Runs an ACL call for the scene and returns one out-parameter (the call must succeed). */
async function out(page: Page, fn: string, args: Record<string, unknown>, name: string): Promise<string> {
  const result = await callAcl(page, fn, args);
  expect(result.ok, `${fn}: ${result.message ?? ''}`).toBe(true);
  const value = result.out?.[name];
  if (typeof value !== 'string') throw new Error(`${fn} gave no ${name}`);
  return value;
}

async function ok(page: Page, fn: string, args: Record<string, unknown>): Promise<void> {
  const result = await callAcl(page, fn, args);
  expect(result.ok, `${fn}: ${result.message ?? ''}`).toBe(true);
}

async function device(page: Page): Promise<void> {
  await ok(page, 'aclInit', { configPath: null });
  await ok(page, 'aclrtSetDevice', { deviceId: 0 });
}

/** The buffer (its rows) whose allocating function is `fn`. */
function buffer(page: Page, fn: string): Locator {
  return page.locator('[data-testid^="host-buffer-"]').filter({ has: page.getByText(fn, { exact: true }) });
}

/** Goes to the view as a person would: the "Host & copies" tab. */
async function openHostView(page: Page): Promise<void> {
  await idle(page);
  await page.getByTestId('tab-host').click();
  await expect(page.getByTestId('host-copies')).toBeVisible();
}

/** The tooltip's text with the pointer at (x, y), or null when none shows (one move, one read). */
async function tipAt(page: Page, x: number, y: number): Promise<string | null> {
  await page.mouse.move(x, y);
  return page.evaluate(() => document.querySelector('[data-testid="copy-tooltip"]')?.textContent ?? null);
}

/** Pixels between the first looks along a lane; every bar in these scenes is several times wider. */
const SCAN_STEP = 16;

/**
 * Moves the mouse along one lane of the timeline, as a person scanning it, and returns the
 * tooltip text of each different copy under the pointer with the first x (to the pixel) it shows
 * at. Coarse steps find the copies and a bisection finds where each begins: a few dozen moves a
 * lane. (A move every 6 px with two reads each took ~40 s of the test's 60 s on a busy machine.)
 */
async function scanLane(page: Page, lane: Locator): Promise<{ x: number; text: string }[]> {
  const plot = await page.getByTestId('copy-plot').boundingBox();
  const row = await lane.boundingBox();
  if (plot === null || row === null) throw new Error('timeline not laid out');
  const y = row.y + row.height / 2;
  const found: { x: number; text: string }[] = [];
  let before: number | undefined;
  for (let x = plot.x + 2; x < plot.x + plot.width - 2; x += SCAN_STEP) {
    const text = await tipAt(page, x, y);
    if (text !== null && found.at(-1)?.text !== text) {
      // The copy begins in (before, x]: halve that interval down to one pixel.
      let [outside, inside] = [before ?? x, x];
      while (inside - outside > 1) {
        const middle = (outside + inside) / 2;
        if ((await tipAt(page, middle, y)) === text) inside = middle;
        else outside = middle;
      }
      found.push({ x: inside, text });
    }
    before = x;
  }
  return found;
}

function gbps(text: string): number {
  const match = /([\d.]+) GB\/s/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no GB/s in: ${text}`);
  return Number(match[1]);
}

test('a pinned and a pageable 64 MiB H2D copy: different bandwidths, the pageable one staged', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await device(page);
  const pageable = await out(page, 'malloc', { size: SIZE }, 'ptr');
  const pinned = await out(page, 'aclrtMallocHost', { size: SIZE }, 'hostPtr');
  const dev = await out(page, 'aclrtMalloc', { size: SIZE, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' }, 'devPtr');
  await ok(page, 'aclrtMemcpy', { dst: dev, destMax: SIZE, src: pageable, count: SIZE, kind: 'ACL_MEMCPY_HOST_TO_DEVICE' });
  await ok(page, 'aclrtMemcpy', { dst: dev, destMax: SIZE, src: pinned, count: SIZE, kind: 'ACL_MEMCPY_HOST_TO_DEVICE' });
  await openHostView(page);

  await expect(buffer(page, 'malloc')).toContainText('pageable');
  await expect(buffer(page, 'aclrtMallocHost')).toContainText('pinned');
  await expect(page.getByTestId('copy-time-kind')).toHaveText('simulated time');

  // Both synchronous copies ran on the host thread: hover along its lane and read each tooltip.
  const seen = await scanLane(page, page.locator('[data-testid^="lane-host-"]').first());
  expect(seen.map((s) => s.text)).toEqual([
    expect.stringMatching(/^Copy #\d+ · aclrtMemcpy(?!Async)/),
    expect.stringMatching(/^Copy #\d+ · aclrtMemcpy(?!Async)/),
  ]);
  const [first, second] = seen;
  expect(first?.text).toContain('staged through a bounce buffer in 32 chunks of 2 MiB');
  expect(second?.text).toContain('pinned host memory, straight to DMA');
  const pageableRate = gbps(first?.text ?? '');
  const pinnedRate = gbps(second?.text ?? '');
  expect(pinnedRate).toBeGreaterThan(pageableRate);
  expect(pinnedRate).toBe(55.3);

  // Hovering the pageable bar shows every number of it.
  const hostRow = await page.locator('[data-testid^="lane-host-"]').first().boundingBox();
  await page.mouse.move((first?.x ?? 0) + 20, (hostRow?.y ?? 0) + (hostRow?.height ?? 0) / 2);
  await expect(page.getByTestId('copy-tooltip')).toContainText(`${pageableRate} GB/s`);
  await snap(page, 'host-copies-tooltip');

  // The keyboard walks the same copies and keeps the numbers in the details card.
  await page.getByTestId('copy-plot').focus();
  await page.keyboard.press(']');
  const details = page.getByTestId('copy-details');
  await expect(details.locator('[data-fact="path"]')).toContainText('32 chunks');
  await expect(details.locator('[data-fact="bandwidth"]')).toContainText(`${pageableRate} GB/s`);
  await page.keyboard.press(']');
  await expect(details.locator('[data-fact="bandwidth"]')).toContainText(`${pinnedRate} GB/s`);
  await expect(details.locator('[data-fact="host"]')).toContainText('blocked for');
  await page.mouse.move(0, 0);
  await snap(page, 'host-copies-pinned-vs-pageable');
  await page.getByRole('button', { name: 'Dark' }).click();
  await snap(page, 'host-copies-pinned-vs-pageable-dark');
});

test('an async pinned copy runs on its stream while the host lane is free; a sync copy blocks it', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await device(page);
  const pageable = await out(page, 'malloc', { size: SIZE }, 'ptr');
  const pinned = await out(page, 'aclrtMallocHost', { size: SIZE }, 'hostPtr');
  const pinnedBack = await out(page, 'aclrtMallocHost', { size: SIZE }, 'hostPtr');
  const dev = await out(page, 'aclrtMalloc', { size: SIZE, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' }, 'devPtr');
  const up = await out(page, 'aclrtCreateStream', {}, 'stream');
  const down = await out(page, 'aclrtCreateStream', {}, 'stream');
  // Synchronous D2H into pageable memory: the host thread waits for it.
  await ok(page, 'aclrtMemcpy', { dst: pageable, destMax: SIZE, src: dev, count: SIZE, kind: 'ACL_MEMCPY_DEVICE_TO_HOST' });
  // Two async pinned copies on two streams, opposite directions: they overlap, and the call returns at once.
  await ok(page, 'aclrtMemcpyAsync', { dst: dev, destMax: SIZE, src: pinned, count: SIZE, kind: 'ACL_MEMCPY_HOST_TO_DEVICE', stream: up });
  await ok(page, 'aclrtMemcpyAsync', {
    dst: pinnedBack,
    destMax: SIZE,
    src: dev,
    count: SIZE,
    kind: 'ACL_MEMCPY_DEVICE_TO_HOST',
    stream: down,
  });
  // One more H2D on the default stream: the host link is taken, so it queues (CP-4).
  await ok(page, 'aclrtMemcpyAsync', {
    dst: dev,
    destMax: SIZE,
    src: pinned,
    count: SIZE,
    kind: 'ACL_MEMCPY_HOST_TO_DEVICE',
    stream: null,
  });
  await openHostView(page);

  const streamLanes = page.locator('[data-testid^="lane-stream-"]');
  await expect(streamLanes).toHaveCount(3); // default stream + the two created ones
  const hostLane = page.locator('[data-testid^="lane-host-"]').first();
  const onHost = await scanLane(page, hostLane);
  expect(onHost).toHaveLength(1);
  expect(onHost[0]?.text).toContain('synchronous (aclrtMemcpy)');
  expect(onHost[0]?.text).toContain('blocked for');

  const onUp = await scanLane(page, streamLanes.nth(1));
  expect(onUp).toHaveLength(1);
  const asyncCopy = onUp[0];
  expect(asyncCopy?.text).toContain('free: the call returned at once');
  expect(asyncCopy?.text).toContain('ran alongside 1 other copy');
  const onDown = await scanLane(page, streamLanes.nth(2));
  expect(onDown).toHaveLength(1);
  // Different directions, different links: both bars start at the same x.
  expect(Math.abs((onDown[0]?.x ?? 0) - (asyncCopy?.x ?? 0))).toBeLessThanOrEqual(6);
  const onDefault = await scanLane(page, streamLanes.nth(0));
  expect(onDefault).toHaveLength(1);
  expect(onDefault[0]?.text).toMatch(/Queued\s*[\d.]+ ms waiting for the host link/);

  // Straight above the async copy the host lane is free: no bar, no blocked band, no tooltip.
  const row = await hostLane.boundingBox();
  await page.mouse.move((asyncCopy?.x ?? 0) + 8, (row?.y ?? 0) + (row?.height ?? 0) / 2);
  await expect(page.getByTestId('copy-tooltip')).toBeHidden();

  // Synchronize: the host lane now shows the thread blocked until the streams are done.
  await ok(page, 'aclrtSynchronizeStream', { stream: down });
  await idle(page);
  await page.mouse.move((asyncCopy?.x ?? 0) + 8, (row?.y ?? 0) + (row?.height ?? 0) / 2);
  await expect(page.getByTestId('copy-tooltip')).toContainText('blocked');
  await expect(page.getByTestId('copy-tooltip')).toContainText('aclrtSynchronizeStream');

  await page.getByTestId('copy-plot').focus();
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await expect(page.getByTestId('copy-details').locator('[data-fact="host"]')).toContainText('free');
  await page.mouse.move(0, 0);
  await snap(page, 'host-copies-overlap');
  await page.getByRole('button', { name: 'Dark' }).click();
  await snap(page, 'host-copies-overlap-dark');
  // The same picture in Chinese: lane names, legend and facts are translated, numbers are not.
  await page.getByTestId('language').selectOption('zh');
  await expect(page.getByTestId('copy-time-kind')).toHaveText('模拟时间');
  await expect(page.getByTestId('copy-details').locator('[data-fact="host"]')).toContainText('空闲');
  await snap(page, 'host-copies-overlap-zh');
});

test('registered buffers show their device pointer: different by default, equal for VA_FLAG = 1 memory', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await device(page);
  const malloced = await out(page, 'malloc', { size: 2 * MiB }, 'ptr');
  await ok(page, 'aclrtHostRegisterV2', { ptr: malloced, size: 2 * MiB, flag: 0x1000_0002 });
  const cfg = { attrs: [{ attr: 'ACL_RT_MEM_ATTR_VA_FLAG', value: { vaFlag: 1 } }], numAttrs: 1 };
  const sameVa = await out(page, 'aclrtMallocHostWithCfg', { size: 2 * MiB, cfg }, 'ptr');
  await ok(page, 'aclrtHostRegisterV2', { ptr: sameVa, size: 2 * MiB, flag: 0x2 });
  await openHostView(page);

  const registered = buffer(page, 'malloc');
  await expect(registered).toContainText('pinned (registered)');
  await expect(registered.locator('[data-testid^="reg-flags-"]')).toHaveText('ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED');
  const hostPtr = await registered.locator('[data-testid^="host-ptr-"]').textContent();
  const devPtr = await registered.locator('[data-testid^="device-ptr-"]').textContent();
  expect(hostPtr).toBe(malloced);
  expect(devPtr).not.toBe(hostPtr);
  await expect(registered.locator('[data-testid^="va-relation-"]')).toHaveText('≠ host VA (HM-6)');
  await expect(registered).toContainText('the device pointer is for kernels only, not for memcpy (HM-7)');

  const consistent = buffer(page, 'aclrtMallocHostWithCfg');
  await expect(consistent).toContainText('VA_FLAG = 1');
  const cfgHost = await consistent.locator('[data-testid^="host-ptr-"]').textContent();
  const cfgDev = await consistent.locator('[data-testid^="device-ptr-"]').textContent();
  expect(cfgHost).toBe(sameVa);
  expect(cfgDev).toBe(cfgHost);
  await expect(consistent.locator('[data-testid^="va-relation-"]')).toHaveText('= host VA (HM-6)');
  await expect(consistent).toContainText('one address for host and device (HM-6)');

  // Selecting a buffer with the keyboard marks its row.
  const row = consistent.getByRole('row').first();
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('copy-timeline')).toContainText('No copies yet');
  await snap(page, 'host-copies-registered');
  await page.getByRole('button', { name: 'Dark' }).click();
  await snap(page, 'host-copies-registered-dark');
});

const OLD_KERNEL_PROFILE = join(tmpdir(), 'pagelens-e2e-old-kernel.json');
writeFileSync(OLD_KERNEL_PROFILE, JSON.stringify({ extends: 'Ascend910B2', name: 'OldKernel910B2', host: { kernelVersion: '5.10.0' } }));

test.describe('on a host kernel of 5.10', () => {
  test.use({ agentArgs: ['--profile', OLD_KERNEL_PROFILE] });

  test('HM-5: the view says registering malloc memory fails, and the call does', async ({ page, agent }) => {
    await openExplorer(page, agent);
    await device(page);
    const malloced = await out(page, 'malloc', { size: 2 * MiB }, 'ptr');
    const refused = await callAcl(page, 'aclrtHostRegisterV2', { ptr: malloced, size: 2 * MiB, flag: 0x1000_0002 });
    expect(refused.ok).toBe(false);
    await openHostView(page);
    await expect(page.getByTestId('host-kernel')).toContainText('5.10.0');
    await expect(page.getByTestId('kernel-note')).toContainText('use aclrtMallocHost');
    await expect(buffer(page, 'malloc')).toContainText('not registered');
  });
});
