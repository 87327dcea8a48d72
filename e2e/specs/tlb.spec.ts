import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const PROP = { handleType: 0, allocationType: 0, memAttr: 'ACL_HBM_MEM_HUGE', location: { type: 1, id: 0 }, reserve: 0 };

/** Calls an ACL function for scene set-up and fails the test on an ACL error. */
async function acl(page: Page, fn: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await callAcl(page, fn, args);
  expect(outcome.ok, `${fn}: ${outcome.message ?? ''}`).toBe(true);
  return outcome.out ?? {};
}

async function start(page: Page): Promise<void> {
  await acl(page, 'aclInit', { configPath: null });
  await acl(page, 'aclrtSetDevice', { deviceId: 0 });
}

/** Opens the TLB tab as a person would: with its keyboard shortcut. */
async function openTlb(page: Page): Promise<void> {
  await page.keyboard.press('3');
  await expect(page.getByTestId('tab-tlb')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tlb')).toBeVisible();
}

test('1 GiB NORMAL_ONLY and 1 GiB HUGE_FIRST need 262,144 and 512 PTEs; editing the assumed TLB changes coverage', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await openTlb(page);
  await expect(page.getByTestId('tlb-coverage-empty')).toContainText('NORMAL_ONLY');
  await snap(page, 'tlb-empty');
  await start(page);
  // aclrtMallocAlign32 adds no padding (DM-3), so the sizes are exactly 1 GiB as in PT-1.
  await acl(page, 'aclrtMallocAlign32', { size: GiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
  await acl(page, 'aclrtMallocAlign32', { size: GiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await idle(page);

  await expect(page.getByTestId('tlb-summary')).toContainText('working set 2 GiB in 2 live objects');
  await expect(page.getByTestId('tlb-ptes-normal')).toHaveText('262,144');
  await expect(page.getByTestId('tlb-ptes-huge')).toHaveText('512');
  await expect(page.getByTestId('tlb-ptes-giant')).toHaveText('0');
  await expect(page.getByTestId('tlb-ptes-total')).toHaveText('262,656');
  const sameBytes = page.getByTestId('tlb-page-sizes');
  await expect(sameBytes.locator('tbody tr').nth(0)).toContainText('524,288');
  await expect(sameBytes.locator('tbody tr').nth(1)).toContainText('1,024');
  const rows = page.getByTestId('tlb-coverage-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('262,144');
  await expect(rows.nth(1)).toContainText('512');
  await expect(page.getByTestId('tlb-assumed').first()).toBeVisible();
  await snap(page, 'tlb-coverage-top');

  // 1,024 entries × 4 KiB = 4 MiB of reach over 1 GiB: 0.4 % (PT-3); huge pages: 1,024 × 2 MiB ≥ 1 GiB.
  const normal = page.getByTestId('tlb-class-normal');
  await expect(normal).toContainText('4 MiB');
  await expect(normal).toContainText('0.4%');
  await expect(page.getByTestId('tlb-class-huge')).toContainText('100%');
  await expect(rows.nth(0)).toContainText('no');

  // The person widens the normal-page TLB to 262,144 entries: the whole 1 GiB is covered.
  const entries = page.getByTestId('tlb-entries-normal');
  await entries.fill('262,144');
  await expect(normal).toContainText('1 GiB');
  await expect(normal).toContainText('100%');
  await expect(rows.nth(0)).toContainText('yes');
  await expect(page.getByText('edited', { exact: true })).toBeVisible();

  // Ways that do not divide the entries are refused with the rule, and the last valid geometry stays.
  await page.getByTestId('tlb-ways-normal').fill('3');
  await expect(page.getByTestId('tlb-geometry-errors')).toContainText('Normal ways (3) must divide the entries (262,144)');
  await expect(normal).toContainText('100%');
  await page.getByTestId('tlb-ways-normal').fill('8');
  await expect(page.getByTestId('tlb-geometry-errors')).toBeHidden();
  await entries.fill('0');
  await expect(page.getByTestId('tlb-geometry-errors')).toContainText('Normal entries must be from 1 to 1,048,576');

  await page.getByTestId('tlb-geometry-reset').click();
  await expect(entries).toHaveValue('1024');
  await expect(normal).toContainText('0.4%');
  await expect(page.getByTestId('tlb-geometry-errors')).toBeHidden();

  // Sorting by PTEs puts the huge allocation (512) first when ascending; clicking a row selects it everywhere.
  await page.getByTestId('tlb-sort-ptes').click();
  await expect(rows.nth(0)).toContainText('262,144');
  await page.getByTestId('tlb-sort-ptes').click();
  await expect(rows.nth(0)).toContainText('512');
  await rows.nth(0).getByRole('button').click();
  await expect(rows.nth(0)).toHaveClass(/selected/);
  await snap(page, 'tlb-coverage');
});

test('aclrtMalloc(1 GiB) pads 32 B and so needs 262,145 PTEs (DM-3)', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await start(page);
  await acl(page, 'aclrtMalloc', { size: GiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
  await acl(page, 'aclrtMalloc', { size: GiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await idle(page);
  await openTlb(page);
  await expect(page.getByTestId('tlb-ptes-normal')).toHaveText('262,145');
  await expect(page.getByTestId('tlb-ptes-huge')).toHaveText('513');
  // The requested 2 GiB still costs exactly PT-1's figures twice over.
  await expect(page.getByTestId('tlb-page-sizes').locator('tbody tr').nth(0)).toContainText('524,288');
});

test('the TLB simulator: a cold sequential pass misses once per page; huge pages hit', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await start(page);
  const normal = await acl(page, 'aclrtMallocAlign32', { size: 64 * MiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
  await acl(page, 'aclrtMallocAlign32', { size: 64 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
  await idle(page);
  await openTlb(page);
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await expect(page.getByTestId('tlb-section-sim')).toHaveAttribute('aria-selected', 'true');

  const buffer = page.getByTestId('tlb-sim-buffer');
  await expect(buffer.locator('option')).toHaveCount(2);
  await buffer.selectOption({ index: 0 });
  await expect(buffer.locator('option').nth(0)).toContainText(String(normal.devPtr));
  await expect(page.getByTestId('tlb-sim-buffer-info')).toContainText('64 MiB of 4 KiB pages');
  await expect(page.getByTestId('tlb-field-stride')).toHaveValue('4 KiB');
  await expect(page.getByText('16,384 accesses')).toBeVisible();
  await page.getByTestId('tlb-sim-run').click();
  // 64 MiB of 4 KiB pages = 16,384 pages, each touched once: every access is a cold miss and a walk.
  await expect(page.getByTestId('tlb-sim-misses-normal')).toHaveText('16,384');
  await expect(page.getByTestId('tlb-sim-hits-normal')).toHaveText('0');
  await expect(page.getByTestId('tlb-sim-distinct-normal')).toHaveText('16,384');
  await expect(page.getByTestId('tlb-sim-chart')).toBeVisible();

  // Invalid input says what is wrong and blocks the run.
  const stride = page.getByTestId('tlb-field-stride');
  await stride.fill('0');
  await expect(page.getByTestId('tlb-sim-errors')).toContainText('The stride must be more than 0 bytes');
  await expect(page.getByTestId('tlb-sim-run')).toBeDisabled();
  await expect(page.getByTestId('tlb-sim-stale')).toBeVisible();
  await stride.fill('4 pages');
  await expect(page.getByTestId('tlb-sim-errors')).toContainText('“4 pages” is not a size');
  await stride.fill('1');
  await expect(page.getByTestId('tlb-sim-errors')).toContainText('67,108,864 accesses are too many for one run (at most 16,777,216)');

  // The huge-page buffer, two passes at 4 KiB: 32 huge pages, so 32 cold misses and everything else hits.
  await stride.fill('4 KiB');
  await page.getByTestId('tlb-field-passes').fill('2');
  await buffer.selectOption({ index: 1 });
  await expect(page.getByTestId('tlb-sim-buffer-info')).toContainText('64 MiB of 2 MiB pages');
  // Shortcuts never fire while a field has focus: leave the list first, then press R.
  await page.getByTestId('tlb-sim-buffer-info').click();
  await page.keyboard.press('r');
  await expect(page.getByTestId('tlb-sim-misses-huge')).toHaveText('32');
  await expect(page.getByTestId('tlb-sim-hits-huge')).toHaveText('32,736');
  await expect(page.getByTestId('tlb-sim-summary')).toContainText('hit rate 99.9%');

  // Explicit offsets: one outside the buffer is named.
  await page.getByTestId('tlb-kind-explicit').check();
  await page.getByTestId('tlb-field-offsets').fill('0, 4096\n0x200000\n64 MiB');
  await expect(page.getByTestId('tlb-sim-errors')).toContainText(
    'Offset 4 (64 MiB) is outside the buffer: offsets run from 0 to 67,108,863',
  );
  await page.getByTestId('tlb-field-offsets').fill('0, 4096\n0x200000\n0');
  await page.getByTestId('tlb-sim-run').click();
  await expect(page.getByTestId('tlb-sim-summary')).toContainText('4 accesses · 2 hits · 2 misses');
  await snap(page, 'tlb-simulator');
});

test('a VMM reservation mapped with a huge handle is a buffer; a big run shows progress and can be cancelled', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await start(page);
  const { handle } = await acl(page, 'aclrtMallocPhysical', { size: 8 * MiB, prop: PROP, flags: 0 });
  const { virPtr } = await acl(page, 'aclrtReserveMemAddress', { size: 16 * MiB, alignment: 0, expectPtr: null, flags: 0 });
  await acl(page, 'aclrtMapMem', { virPtr, size: 8 * MiB, offset: 0, handle, flags: 0 });
  await idle(page);
  await openTlb(page);
  await page.getByTestId('tlb-section-sim').click();
  const buffer = page.getByTestId('tlb-sim-buffer');
  await expect(buffer).toContainText(`reservation ${String(virPtr)} · mapped 8 MiB`);
  await expect(page.getByTestId('tlb-sim-buffer-info')).toContainText('8 MiB of 2 MiB pages');

  // A 16 M-access run can end in well under a second, so the worker's script is held back until
  // Cancel was pressed: the run is certainly still going then, on any machine.
  let release = (): void => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const workerScript = /\/assets\/sim-worker-[^/]+\.js$/;
  let requested = 0;
  await page.route(workerScript, async (route) => {
    requested += 1;
    await held;
    // The cancelled run's worker is gone by now, and its request with it.
    await route.continue().catch(() => {});
  });
  await page.getByTestId('tlb-kind-random').check();
  await page.getByTestId('tlb-field-count').fill('16,000,000');
  await page.getByTestId('tlb-sim-run').click();
  await expect(page.getByTestId('tlb-sim-running')).toContainText('16,000,000');
  // The run outlives leaving its section: switching away and back shows it still going.
  await page.getByTestId('tlb-section-coverage').click();
  await expect(page.getByTestId('tlb-coverage')).toBeVisible();
  await page.getByTestId('tlb-section-sim').click();
  await expect(page.getByTestId('tlb-sim-running')).toContainText('16,000,000');
  await page.getByTestId('tlb-sim-cancel').click();
  await expect(page.getByText('Run cancelled.')).toBeVisible();
  expect(requested).toBe(1);
  release();
  await page.unroute(workerScript);
  await page.getByTestId('tlb-field-count').fill('1,000,000');
  await page.getByTestId('tlb-sim-run').click();
  // 4 huge pages fit a 1,024-entry TLB: only the 4 cold misses.
  await expect(page.getByTestId('tlb-sim-misses-huge')).toHaveText('4');
  await expect(page.getByTestId('tlb-sim-hits-huge')).toHaveText('999,996');
});

test('the policy what-if compares the live allocations under each policy', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await start(page);
  await acl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  for (let i = 0; i < 4; i += 1) await acl(page, 'aclrtMalloc', { size: 64 * 1024, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
  await acl(page, 'aclrtMalloc', { size: 1 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await idle(page);
  await openTlb(page);
  // Select the 3 MiB allocation in the coverage table: the what-if then shows it alone too.
  await page.getByTestId('tlb-coverage-row').nth(0).getByRole('button').click();
  await page.getByTestId('tlb-section-whatIf').click();
  await expect(page.getByTestId('tlb-whatif-selected')).toContainText('HUGE_FIRST 2 PTEs, 1 MiB waste');
  await expect(page.getByTestId('tlb-whatif-selected')).toContainText('NORMAL_ONLY 769 PTEs');
  const chart = page.getByTestId('tlb-whatif-chart');
  await expect(chart).toBeVisible();
  for (const policy of ['live', 'HUGE_FIRST', 'HUGE_ONLY', 'NORMAL_ONLY', 'HUGE1G_ONLY']) {
    await expect(page.getByTestId(`tlb-whatif-row-${policy}`)).toBeVisible();
  }
  // HUGE1G_ONLY: six requests, six 1 GiB pages (DM-7); NORMAL_ONLY: 3 MiB + 32 B → 769 pages, 64 KiB + 32 B → 17 each, 1 MiB + 32 B → 257.
  await expect(page.getByTestId('tlb-whatif-ptes-HUGE1G_ONLY')).toHaveText('6');
  await expect(page.getByTestId('tlb-whatif-ptes-NORMAL_ONLY')).toHaveText('1,094');
  await expect(page.getByTestId('tlb-whatif-table')).toContainText('HUGE1G_ONLY');
  await expect(page.getByTestId('tlb-advice')).toContainText('HUGE_FIRST for most compute inputs');
  await snap(page, 'tlb-whatif');
});

test('both languages and themes: screenshots of every section', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await start(page);
  await acl(page, 'aclrtMallocAlign32', { size: GiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
  await acl(page, 'aclrtMallocAlign32', { size: GiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await acl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await idle(page);
  await page.getByTestId('language').selectOption('zh');
  await openTlb(page);
  await expect(page.getByTestId('tlb-section-coverage')).toHaveText('覆盖率');
  await expect(page.getByTestId('tlb-ptes-normal')).toHaveText('262,144');
  await expect(page.getByTestId('tlb-assumed').first()).toHaveText('假设');
  await snap(page, 'tlb-coverage-zh');
  await page.getByTestId('tlb-section-whatIf').click();
  await expect(page.getByTestId('tlb-whatif-chart')).toBeVisible();
  await expect(page.getByTestId('tlb-advice')).toContainText('大多数计算');
  await snap(page, 'tlb-whatif-zh');
  await page.getByTestId('tlb-section-sim').click();
  await page.getByTestId('tlb-sim-buffer').selectOption({ index: 2 });
  await page.getByTestId('tlb-field-passes').fill('3');
  await page.getByTestId('tlb-sim-run').click();
  await expect(page.getByTestId('tlb-sim-misses-huge')).toHaveText('2');
  await expect(page.getByTestId('tlb-sim-summary')).toContainText('命中率');
  await snap(page, 'tlb-simulator-zh');
  await page.keyboard.press('t');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await snap(page, 'tlb-simulator-zh-dark');
  await page.getByTestId('language').selectOption('en');
  await page.getByTestId('tlb-section-whatIf').click();
  await snap(page, 'tlb-whatif-dark');
});
