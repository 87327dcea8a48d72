import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

const MiB = 1024 * 1024;

/** aclInit and aclrtSetDevice(0): what every program does first (LT-1, LT-2). */
async function startProgram(page: Page): Promise<void> {
  expect((await callAcl(page, 'aclInit', { configPath: null })).ok).toBe(true);
  expect((await callAcl(page, 'aclrtSetDevice', { deviceId: 0 })).ok).toBe(true);
}

async function openLog(page: Page): Promise<void> {
  await idle(page);
  await page.getByTestId('tab-log').click();
  await expect(page.getByTestId('log-list')).toBeVisible();
}

test('3 MiB HUGE_FIRST: its log row leads to an inspector with 2 huge pages, 4 MiB occupied, 1 MiB waste and DM-3/DM-4', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await expect(page.getByTestId('inspector')).toContainText('Nothing selected');
  await startProgram(page);
  expect((await callAcl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' })).ok).toBe(true);
  await openLog(page);

  const row = page.getByTestId('log-row').filter({ hasText: 'aclrtMalloc' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('size = 3 MiB');
  await expect(row).toContainText('policy = ACL_MEM_MALLOC_HUGE_FIRST');
  await expect(row).toContainText('ACL_SUCCESS (0)');
  await expect(row.locator('.log-rules')).toHaveText('DM-3 DM-4 DM-11');

  // Clicking the row selects the call; the inspector shows the call and what it made.
  await row.click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-kind', 'call');
  await expect(inspector.getByTestId('fact-result')).toContainText('ACL_SUCCESS (0)');
  await expect(inspector.getByTestId('inspector-made')).toContainText('2 × 2 MiB');

  // Its effect chip selects the allocation itself.
  await row.locator('.log-effect', { hasText: 'alloc' }).click();
  await expect(inspector).toHaveAttribute('data-kind', 'allocation');
  await expect(inspector.getByTestId('fact-pageClass')).toHaveText(/2 MiB huge pages/);
  await expect(inspector.getByTestId('fact-pages')).toContainText('2 × 2 MiB');
  await expect(inspector.getByTestId('fact-occupied')).toContainText('4 MiB');
  await expect(inspector.getByTestId('fact-occupied')).toContainText('4,194,304 B');
  await expect(inspector.getByTestId('fact-waste')).toContainText('1 MiB');
  await expect(inspector.getByTestId('fact-placement')).toContainText('modeled');
  const reasons = inspector.getByTestId('inspector-reason');
  await expect(reasons.nth(0)).toHaveText('3,145,728 B + 32 B padding, rounded up to 32 B = 3,145,760 B (DM-3)');
  await expect(reasons.nth(1)).toHaveText('3,145,760 B > 1 MiB → HUGE_FIRST takes 2 MiB huge pages (DM-4)');
  await expect(inspector.getByTestId('inspector-story')).toContainText('aclrtMalloc → ACL_SUCCESS');
  await snap(page, 'log-inspector-3mib-huge-first');
});

test('1 MiB HUGE_FIRST takes a huge page because padding makes it 1,048,608 B', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await startProgram(page);
  expect((await callAcl(page, 'aclrtMalloc', { size: MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' })).ok).toBe(true);
  await openLog(page);
  const row = page.getByTestId('log-row').filter({ hasText: 'aclrtMalloc' });
  await expect(row).toContainText('size = 1 MiB');
  await row.locator('.log-effect', { hasText: 'alloc' }).click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('fact-padded')).toContainText('1,048,608 B');
  await expect(inspector.getByTestId('fact-pages')).toContainText('1 × 2 MiB');
  await expect(inspector.getByTestId('fact-waste')).toContainText('1,048,576 B');
  const decision = inspector.getByTestId('inspector-decision');
  await expect(decision).toContainText('1,048,576 B + 32 B padding, rounded up to 32 B = 1,048,608 B (DM-3)');
  await expect(decision).toContainText('1,048,608 B > 1 MiB → HUGE_FIRST takes 2 MiB huge pages (DM-4)');
  await snap(page, 'log-inspector-1mib-padding');
});

test('a failing call shows its ACL code name, number and message; the filters find it', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await startProgram(page);
  expect((await callAcl(page, 'aclrtMalloc', { size: 2 * MiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' })).ok).toBe(true);
  const failed = await callAcl(page, 'aclrtMalloc', { size: 0, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
  expect(failed.ret).toBe(100000);
  await openLog(page);

  const row = page.getByTestId('log-row').filter({ hasText: 'size = 0 B' });
  await expect(row).toHaveAttribute('data-ok', 'false');
  await expect(row).toContainText('ACL_ERROR_INVALID_PARAM (100000)');
  await expect(row).toContainText('size must be greater than 0 (DM-2)');

  await page.getByTestId('log-filter-result').selectOption('error');
  await expect(page.getByTestId('log-row')).toHaveCount(1);
  await expect(page.getByTestId('log-count')).toHaveText('1 of 4 calls');
  await page.getByTestId('log-filter-result').selectOption('all');
  await page.getByTestId('log-filter-text').fill('NORMAL_ONLY');
  await expect(page.getByTestId('log-row')).toHaveCount(1);
  await expect(page.getByTestId('log-row')).toContainText('size = 2 MiB');
  await page.getByTestId('log-filter-text').fill('');

  await row.click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByTestId('fact-result')).toHaveText(/ACL_ERROR_INVALID_PARAM \(100000\)/);
  await expect(inspector.getByTestId('fact-message')).toContainText('size must be greater than 0');
  await expect(inspector.getByTestId('inspector-reason')).toHaveText('size 0 is not allowed (DM-2)');
  await snap(page, 'log-inspector-error');
});

test('the keyboard moves through the log, and thousands of calls stay a handful of DOM rows', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await startProgram(page);
  // A big scene, set up fast: 800 small allocations.
  await page.evaluate(async () => {
    const hooks = window.__pagelens;
    if (hooks === undefined) throw new Error('test hooks missing');
    for (let i = 0; i < 800; i += 1) await hooks.agent.call('aclrtMalloc', { size: 4096 * (1 + (i % 8)), policy: 2 });
  });
  await openLog(page);
  await expect(page.getByTestId('log-count')).toHaveText('802 calls');
  const rendered = await page.getByTestId('log-row').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(80);
  // Following live: the newest call is in view.
  await expect(page.locator('[data-testid="log-row"]').last()).toContainText('aclrtMalloc');
  await expect(page.locator('[data-seq]').last()).toBeInViewport();

  await page.getByTestId('log-list').focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-kind', 'call');
  await expect(page.getByTestId('time-travel')).toHaveAttribute('data-live', 'false');
  await page.keyboard.press('Home');
  await expect(page.locator('.log-row.selected')).toContainText('aclInit');
  await expect(inspector.getByTestId('fact-function')).toContainText('aclInit');
  await snap(page, 'log-inspector-keyboard');
  await page.keyboard.press('End');
  await expect(page.getByTestId('time-travel')).toHaveAttribute('data-live', 'true');
});
