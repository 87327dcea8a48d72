import type { Page } from '@playwright/test';
import { allocate, chooseBuffer, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

/** The part of the app's store these specs read; declared here because e2e does not import the app. */
interface StoreHooks {
  readonly store: {
    getState(): {
      selection?: { kind: string; id: number };
      timeline?: {
        live: {
          allocations: Map<number, { addr: number; size: number; pageClass: string; pages: number }>;
          copies: { fn: string; path: string; bytes: number; bytesPerSec: number }[];
          hostBuffers: Map<number, { vaFlag: boolean }>;
        };
      };
    };
  };
}

/** What the page's replica holds (the same data every view draws from). */
async function replica(page: Page) {
  return page.evaluate(() => {
    const state = (window.__pagelens as unknown as StoreHooks).store.getState();
    const live = state.timeline?.live;
    if (live === undefined) throw new Error('no replica');
    const allocations = [...live.allocations.values()].map((a) => ({ addr: a.addr, size: a.size, pageClass: a.pageClass, pages: a.pages }));
    const copies = live.copies.map((c) => ({ fn: c.fn, path: c.path, bytes: c.bytes, bytesPerSec: c.bytesPerSec }));
    const vaFlags = [...live.hostBuffers.values()].map((b) => b.vaFlag);
    return { allocations, copies, vaFlags, selection: state.selection };
  });
}

test('type 3 MiB, choose HUGE_FIRST, press Enter: a new allocation of 2 huge pages is selected', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const panel = page.getByTestId('actions');
  await page.getByTestId('malloc-size').fill('3 MiB');
  await page.getByTestId('policy').selectOption({ label: 'HUGE_FIRST' });
  // The preview tells what will happen before anything is called (DM-3, DM-4, DM-11).
  const preview = page.getByTestId('malloc-preview');
  await expect(preview).toContainText('3,145,760 B');
  await expect(preview).toContainText('2 × 2 MiB huge');
  await expect(preview).toContainText('1,048,576 B');
  await expect(preview).toContainText('HUGE_FIRST takes 2 MiB huge pages (DM-4)');
  await expect(page.getByTestId('policy-explain')).toContainText('falling back to normal pages');
  await page.getByTestId('malloc-size').press('Enter');
  await idle(page);
  const result = page.getByTestId('malloc-result');
  await expect(result).toContainText('aclrtMalloc → ACL_SUCCESS');
  await expect(result).toContainText('devPtr');
  await expect(page.getByTestId('malloc-selected')).toContainText('2 × 2 MiB huge pages, 4 MiB occupied, 1,048,576 B waste');
  const state = await replica(page);
  expect(state.allocations).toHaveLength(1);
  expect(state.allocations[0]).toMatchObject({ size: 3 * 1024 * 1024, pageClass: 'huge', pages: 2 });
  expect(state.selection?.kind).toBe('allocation');
  await expect(panel).toBeVisible();
  await snap(page, 'actions-allocate-3mib');
});

test('a size the field cannot read says what is allowed, inline and accessibly', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const field = page.getByTestId('malloc-size');
  await field.fill('3 mb');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const note = page.getByTestId('malloc-size-note');
  await expect(note).toContainText('“mb” is not a unit here');
  await expect(note).toContainText('Did you mean 3 MiB (3,145,728 B) or 3 MB (3,000,000 B)?');
  await expect(note).toContainText('KiB, MiB, GiB, TiB (powers of 1024) or KB, MB, GB, TB');
  const describedBy = await field.getAttribute('aria-describedby');
  expect(describedBy).not.toBeNull();
  await expect(page.locator(`[id="${describedBy}"]`)).toContainText('not a unit');
  await expect(page.getByTestId('malloc-submit')).toBeDisabled();
  await field.press('Enter');
  expect((await replica(page)).allocations).toHaveLength(0);
  for (const good of ['3MiB', '3145728', '0x300000']) {
    await field.fill(good);
    await expect(note).toContainText('= 3,145,728 B');
  }
  await field.fill('3 mb');
  await snap(page, 'actions-size-error');
});

test('the count field allocates 100 × 64 KiB NORMAL_ONLY at once', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.getByTestId('malloc-size').fill('64 KiB');
  await page.getByTestId('policy').selectOption({ label: 'NORMAL_ONLY' });
  await page.getByTestId('malloc-count').fill('100');
  await expect(page.getByTestId('malloc-preview')).toContainText('17 × 4 KiB normal');
  await expect(page.getByTestId('malloc-submit')).toHaveText('Allocate 100');
  await page.getByTestId('malloc-submit').click();
  await idle(page);
  await expect(page.getByTestId('malloc-result')).toContainText('100 of 100 allocated');
  const state = await replica(page);
  expect(state.allocations).toHaveLength(100);
  expect(state.allocations.every((a) => a.pageClass === 'normal' && a.pages === 17)).toBe(true);
  await snap(page, 'actions-count-100');
});

test.describe('on a product without 1 GiB pages', () => {
  test.use({ agentArgs: ['--profile', 'Ascend310P3'] });

  test('HUGE1G_ONLY fails with the ACL code name, number, message and reasons', async ({ page, agent }) => {
    await openExplorer(page, agent);
    await page.getByTestId('malloc-size').fill('1 GiB');
    await page.getByTestId('policy').selectOption({ label: 'HUGE1G_ONLY — not on Ascend310P3' });
    await expect(page.getByTestId('malloc-preview')).toContainText('Will fail: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)');
    await page.getByTestId('malloc-size').press('Enter');
    await idle(page);
    const alert = page.getByTestId('malloc-result').getByRole('alert');
    await expect(alert).toContainText('ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): Ascend310P3 has no 1 GiB pages (DM-7)');
    await expect(alert).toContainText('Ascend310P3 has no 1 GiB pages (DM-7)');
    expect((await replica(page)).allocations).toHaveLength(0);
    await snap(page, 'actions-huge1g-310p');
  });
});

test('a pinned and a pageable H2D copy through the memcpy form', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.getByTestId('actions-tab-host').click();
  await page.getByTestId('host-size').fill('4 MiB');
  await page.getByTestId('host-aclrtMallocHost').click();
  await idle(page);
  await expect(page.getByTestId('host-result')).toContainText('aclrtMallocHost → ACL_SUCCESS');
  await page.getByTestId('host-malloc').click();
  await idle(page);
  await expect(page.getByTestId('host-result')).toContainText('malloc → ACL_SUCCESS');
  await allocate(page, '4 MiB', 'HUGE_FIRST');

  await page.getByTestId('actions-tab-copy').click();
  const dst = page.getByTestId('memcpy-dst');
  const src = page.getByTestId('memcpy-src');
  await chooseBuffer(dst, 'aclrtMalloc');
  await chooseBuffer(src, 'aclrtMallocHost');
  await expect(page.getByTestId('memcpy-kind')).toHaveValue('1');
  await expect(page.getByTestId('memcpy-count')).toHaveValue('4194304');
  await page.getByTestId('memcpy-submit').click();
  await idle(page);
  await expect(page.getByTestId('memcpy-result')).toContainText('aclrtMemcpy → ACL_SUCCESS');
  await expect(page.getByTestId('copy-timing')).toContainText('4 MiB moved in');
  await expect(page.getByTestId('copy-timing')).toContainText('pinned host memory: DMA straight from the buffer');

  await chooseBuffer(src, 'malloc');
  await expect(page.getByTestId('memcpy')).toContainText('Pageable host memory: staged through a bounce buffer');
  await page.getByTestId('memcpy-submit').click();
  await idle(page);
  await expect(page.getByTestId('memcpy-result')).toContainText('aclrtMemcpy → ACL_SUCCESS');
  await expect(page.getByTestId('copy-timing')).toContainText('staged through a bounce buffer');
  const { copies } = await replica(page);
  expect(copies.map((c) => c.path)).toEqual(['pinned', 'pageable-staged']);
  expect(copies.every((c) => c.bytes === 4 * 1024 * 1024)).toBe(true);
  expect(copies[0]?.bytesPerSec ?? 0).toBeGreaterThan(copies[1]?.bytesPerSec ?? 0);
  await snap(page, 'actions-memcpy');
});

test('a viewer sees the forms disabled and mirrors the driver’s allocation live', async ({ page, agent, context }) => {
  await openExplorer(page, agent);
  const viewer = await context.newPage();
  await openExplorer(viewer, agent, 'viewer');
  await expect(viewer.getByTestId('viewer-note')).toContainText('Viewers cannot call');
  await expect(viewer.getByTestId('malloc-submit')).toBeDisabled();
  await expect(viewer.getByTestId('malloc-size')).toBeDisabled();
  await expect(viewer.getByTestId('open-wizard')).toHaveCount(0);

  await allocate(page, '3 MiB', 'HUGE_FIRST');
  const devPtr = await page.getByTestId('malloc-result').locator('[data-out="devPtr"]').textContent();
  expect(devPtr).toMatch(/^0x[0-9a-f]+$/);
  // The viewer's aclrtFree form offers the driver's new allocation as soon as its events arrive.
  await viewer.getByTestId('actions-tab-call').click();
  await viewer.getByTestId('call-fn').selectOption('aclrtFree');
  await expect(viewer.locator('#act-aclrtFree-devPtr')).toContainText(devPtr ?? 'missing');
  await expect(viewer.getByTestId('call-submit')).toBeDisabled();
  expect((await replica(viewer)).allocations).toEqual((await replica(page)).allocations);
  await snap(viewer, 'actions-viewer');
});

test('any function through the generated form: find aclrtMallocPhysical, fill its struct, call it, see the handle', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await page.getByTestId('actions-tab-call').click();
  const search = page.getByTestId('call-search');
  await search.fill('mallocphys');
  await search.press('Enter');
  await expect(page.getByTestId('call-fn')).toHaveValue('aclrtMallocPhysical');
  await expect(page.getByTestId('call-signature')).toContainText('aclError aclrtMallocPhysical(');
  await expect(page.getByTestId('call-signature')).toContainText('const aclrtPhysicalMemProp* prop,');
  await expect(page.getByTestId('call-preview')).toContainText('.memAttr = ACL_HBM_MEM_HUGE');
  await page.locator('#act-aclrtMallocPhysical-size').fill('4 MiB');
  await page.locator('#act-aclrtMallocPhysical-prop-memAttr').selectOption({ label: 'ACL_HBM_MEM_NORMAL' });
  await expect(page.getByTestId('call-preview')).toContainText('aclrtMallocPhysical(&handle, 4194304, &prop, 0);');
  // Memory calls need a current device first (LT-2): the form says so and offers the call.
  await page.getByRole('button', { name: 'aclrtSetDevice(0)' }).click();
  await idle(page);
  await page.getByTestId('call-submit').click();
  await idle(page);
  const result = page.getByTestId('call-result');
  await expect(result).toContainText('aclrtMallocPhysical → ACL_SUCCESS');
  await expect(result.locator('[data-out="handle"]')).toHaveText(/^0x[0-9a-f]+$/);
  const handle = (await result.locator('[data-out="handle"]').textContent()) ?? 'missing';
  // The handle is now offered to aclrtFreePhysical.
  await search.fill('');
  await page.getByTestId('call-fn').selectOption('aclrtFreePhysical');
  // The newest live handle is picked for it, so the call is ready to make.
  await expect(page.locator('#act-aclrtFreePhysical-handle')).toHaveValue(handle);
  await expect(page.getByTestId('call-preview')).toHaveText(`aclrtFreePhysical(${handle});`);
  await snap(page, 'actions-generic-call');
});

test('the panel in Chinese and the dark theme', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.getByTestId('language').selectOption('zh');
  await page.keyboard.press('t');
  await page.getByTestId('malloc-size').fill('3 mb');
  await expect(page.getByTestId('malloc-size-note')).toContainText('你是想写 3 MiB (3,145,728 B) 还是 3 MB (3,000,000 B) 吗？');
  await page.getByTestId('malloc-size').fill('3 MiB');
  await expect(page.getByTestId('policy-explain')).toContainText('2 MiB 大页');
  await expect(page.getByTestId('actions-tab-allocate')).toHaveText('分配');
  await snap(page, 'actions-zh-dark');
});

test('host helpers: malloc, register PINNED | MAPPED, unregister, free; VA_FLAG pinned memory', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.getByTestId('actions-tab-host').click();
  await page.getByTestId('host-size').fill('1 MiB');
  await page.getByTestId('host-malloc').click();
  await idle(page);
  const result = page.getByTestId('host-result');
  await expect(result).toContainText('malloc → ACL_SUCCESS');
  await page.getByTestId('host-register').click();
  await idle(page);
  await expect(result).toContainText('aclrtHostRegisterV2 → ACL_SUCCESS');
  await expect(page.getByTestId('host-buffer')).toContainText('registered');
  await expect(page.getByTestId('host-register')).toBeDisabled();
  await page.getByTestId('host-unregister').click();
  await idle(page);
  await expect(result).toContainText('aclrtHostUnregister → ACL_SUCCESS');
  await page.getByTestId('host-free').click();
  await idle(page);
  await expect(result).toContainText('free → ACL_SUCCESS');
  await page.getByTestId('host-aclrtMallocHostWithCfg').click();
  await idle(page);
  await expect(result).toContainText('aclrtMallocHostWithCfg → ACL_SUCCESS');
  expect((await replica(page)).vaFlags).toEqual([true]);
  await snap(page, 'actions-host');
});
