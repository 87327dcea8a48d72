import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

// Issue 17 item 8: the words a student reads beside the numbers.
const MiB = 1024 * 1024;

async function ok(page: Page, fn: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await callAcl(page, fn, args);
  expect(result.ok, `${fn}: ${result.message ?? ''}`).toBe(true);
  return result.out ?? {};
}

test('one 1 MiB HUGE_FIRST: the giant pool says 1 GiB is no longer available to 1 GiB pages, and why', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await ok(page, 'aclInit', { configPath: null });
  await ok(page, 'aclrtSetDevice', { deviceId: 0 });
  await ok(page, 'aclrtMalloc', { size: MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await idle(page);
  const giant = page.getByTestId('device-card-0').getByTestId('pool-giant');
  await expect(giant).toContainText('1 GiB no longer available to 1 GiB pages');
  await expect(giant).not.toContainText('used');
  await expect(giant.getByTestId('pool-giant-breakdown')).toHaveText(
    'That is 2 MiB held by other page kinds, 1022 MiB free but not in whole 1 GiB pages.',
  );
  await page.getByTestId('language').selectOption('zh');
  await expect(giant.getByTestId('pool-giant-breakdown')).toContainText('其他页类型占用 2 MiB');
});

test('the preview of 1 TiB HUGE_FIRST says it will fail, with formatted counts', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.getByTestId('malloc-size').fill('1 TiB');
  await page.getByTestId('policy').selectOption({ label: 'HUGE_FIRST' });
  const preview = page.getByTestId('malloc-preview');
  await expect(preview).toContainText('524,289 × 2 MiB huge');
  await expect(preview.getByTestId('malloc-verdict')).toHaveAttribute('data-verdict', 'fail');
  await expect(preview.getByTestId('malloc-verdict')).toContainText('Will fail');
  await expect(preview.getByTestId('malloc-verdict')).toContainText('268,435,457 needed');
  await expect(preview).not.toContainText('will fall back to normal pages');
  await snap(page, 'words-preview-1tib');
});

test('the translation walk ends at the modeled physical frame; a pageable copy names its modeled jitter', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await ok(page, 'aclInit', { configPath: null });
  await ok(page, 'aclrtSetDevice', { deviceId: 0 });
  const { devPtr } = await ok(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await idle(page);
  await page.getByTestId('tab-address').click();
  const input = page.getByTestId('walk-input');
  // The second huge page: the simulator placed the two pages in the top frames, 32,766 and 32,767.
  await input.fill(`0x${(Number(devPtr) + 2 * MiB + 0x10).toString(16)}`);
  await input.press('Enter');
  const physical = page.getByTestId('walk-physical');
  await expect(physical).toHaveAttribute('data-frame', '32767');
  await expect(physical).toContainText('frame 32,767 (one 2 MiB huge page), physical address');
  await expect(physical).toContainText('modeled');
  await physical.getByTestId('walk-physical-frame').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-kind', 'frame');

  // A pageable copy through the Copy tab: its result says the rate is one draw of modeled jitter.
  await page.getByTestId('actions-tab-host').click();
  await page.getByTestId('host-malloc').click();
  await idle(page);
  await page.getByTestId('actions-tab-copy').click();
  await page.getByTestId('memcpy-submit').click();
  await idle(page);
  await expect(page.getByTestId('memcpy-result')).toContainText('aclrtMemcpy → ACL_SUCCESS');
  await expect(page.getByTestId('rate-spread')).toContainText('Modeled jitter');
  await snap(page, 'words-walk-and-jitter');
});
