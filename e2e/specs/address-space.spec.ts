import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

const MiB = 1024 * 1024;
const PROP = { handleType: 0, allocationType: 0, memAttr: 'ACL_HBM_MEM_HUGE', location: { type: 1, id: 0 }, reserve: 0 };

/** Calls an ACL function in one of the session's simulated processes (0–3); fails the test on an ACL error. */
async function acl(page: Page, fn: string, args: Record<string, unknown>, process = 0): Promise<Record<string, unknown>> {
  const outcome = await page.evaluate(
    async ([p, name, values]) => {
      const hooks = window.__pagelens;
      if (hooks === undefined) throw new Error('PageLens test hooks are missing');
      const result = await hooks.agent.call(name, values, p);
      return { ok: result.ok, out: { ...(result.out ?? {}) }, message: result.message ?? '' };
    },
    [process, fn, args] as const,
  );
  expect(outcome.ok, `${fn}: ${outcome.message}`).toBe(true);
  return outcome.out;
}

async function start(page: Page, process = 0): Promise<void> {
  await acl(page, 'aclInit', { configPath: null }, process);
  await acl(page, 'aclrtSetDevice', { deviceId: 0 }, process);
}

/** A 3 MiB HUGE_FIRST and a 64 KiB NORMAL_ONLY allocation, and a 4 MiB reservation with a 2 MiB huge mapping at its start. */
async function scene(page: Page): Promise<{ huge: number; virPtr: number; handle: string }> {
  await start(page);
  const huge = await acl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await acl(page, 'aclrtMalloc', { size: 64 * 1024, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
  const { handle } = await acl(page, 'aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
  const { virPtr } = await acl(page, 'aclrtReserveMemAddress', { size: 4 * MiB, alignment: 0, expectPtr: null, flags: 0 });
  await acl(page, 'aclrtMapMem', { virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
  await idle(page);
  return { huge: Number(huge.devPtr), virPtr: Number(virPtr), handle: String(handle) };
}

/** PT-2: the index a level takes from a VA (bits 47–39, 38–30, 29–21, 20–12), computed here independently. */
function levelIndex(va: number, level: number): number {
  return Math.floor(va / 2 ** (39 - 9 * level)) % 512;
}

async function openAddressView(page: Page): Promise<void> {
  await page.getByTestId('tab-address').click();
  await expect(page.getByTestId('address-space')).toBeVisible();
}

test('allocations and a VMM reservation with its mapping appear in the strip and the table', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const { huge, virPtr, handle } = await scene(page);
  await openAddressView(page);
  const table = page.getByTestId('mapping-table');
  await expect(page.getByTestId('mapping-count')).toHaveText('4 of 4 rows');
  await expect(table.locator('tr[data-kind="allocation"]')).toHaveCount(2);
  const reservation = table.locator('tr[data-kind="reservation"]');
  await expect(reservation).toContainText('2 MiB unmapped of 4 MiB');
  const mapping = table.locator('tr[data-kind="mapping"]');
  await expect(mapping).toContainText(handle);
  await expect(mapping).toContainText('own device 0 (modeled, VM-7)');
  await expect(mapping).toContainText(`0x${virPtr.toString(16)}`);
  const hugeRow = table.locator('tr[data-kind="allocation"]', { hasText: `0x${huge.toString(16)} –` });
  await expect(hugeRow).toContainText('2 × 2 MiB');
  await expect(hugeRow).toContainText('4 MiB');
  // The strip opens fitted to what is allocated; 0 shows the whole 128 GiB window.
  const strip = page.getByTestId('address-strip');
  await expect.poll(async () => Number(await strip.getAttribute('data-zoom'))).toBeGreaterThan(1000);
  await page.keyboard.press('0');
  await expect(strip).toHaveAttribute('data-zoom', '1.000');
  await expect(page.getByTestId('address-strip-range')).toContainText('128 GiB');
  await expect(page.getByTestId('walk-table-count')).toContainText('L3');

  // Access grants from aclrtMemSetAccess replace the modeled own-device note.
  const desc = [{ flags: 3, location: { type: 1, id: 0 }, rsv: [0, 0, 0, 0] }];
  await acl(page, 'aclrtMemSetAccess', { virPtr: `0x${virPtr.toString(16)}`, size: 2 * MiB, desc, count: 1 });
  await expect(mapping).toContainText('dev 0 rw');
  await expect(mapping).not.toContainText('modeled');

  // Filtering by text keeps only matching rows.
  await page.getByTestId('mapping-filter').fill('aclrtMapMem');
  await expect(page.getByTestId('mapping-count')).toHaveText('1 of 4 rows');
  await page.getByTestId('mapping-filter').fill('');
  await snap(page, 'address-space-scene');
});

test('a second process gets a process selector and its own address space', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await scene(page);
  await start(page, 1);
  const other = await acl(page, 'aclrtMalloc', { size: 8 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' }, 1);
  await idle(page);
  await openAddressView(page);
  const selector = page.getByTestId('address-process');
  await expect(selector).toBeVisible();
  await expect(page.getByTestId('mapping-count')).toHaveText('4 of 4 rows');
  const options = selector.locator('option');
  await expect(options).toHaveCount(2);
  await selector.selectOption({ index: 1 });
  await expect(page.getByTestId('mapping-count')).toHaveText('1 of 1 rows');
  await expect(page.getByTestId('mapping-table')).toContainText(`0x${Number(other.devPtr).toString(16)}`);
});

test('IP-3: an IPC import is a row of the importer; choosing it inspects the exported allocation with its key and importer', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await start(page);
  await start(page, 1);
  const { devPtr } = await acl(page, 'aclrtMalloc', { size: 4 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
  const { key } = await acl(page, 'aclrtIpcMemGetExportKey', { devPtr, size: 4 * MiB, len: 65, flags: 1 });
  const { devPtr: imported } = await acl(page, 'aclrtIpcMemImportByKey', { key, flags: 0 }, 1);
  await idle(page);
  await openAddressView(page);
  await page.getByTestId('address-process').selectOption({ index: 1 });
  const table = page.getByTestId('mapping-table');
  await expect(page.getByTestId('mapping-count')).toHaveText('1 of 1 rows');
  const row = table.locator('tr[data-kind="ipcImport"]');
  await expect(row).toContainText(`0x${Number(imported).toString(16)}`);
  await expect(row).toContainText('none of its own (IP-3)');
  await expect(row).toContainText('aclrtIpcMemImportByKey');
  await row.click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toContainText(String(key));
  await expect(inspector).toContainText('any process (allow-list off)');
  await expect(inspector).toContainText(`at 0x${Number(imported).toString(16)}`);
  await expect(inspector).toContainText('IP-3');
});

test('zoom with the keyboard and the wheel, hover shows the allocation', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const { huge } = await scene(page);
  await openAddressView(page);
  const strip = page.getByTestId('address-strip');
  const zoomOf = async (): Promise<number> => Number(await strip.getAttribute('data-zoom'));

  await page.keyboard.press('0');
  await expect.poll(zoomOf).toBeCloseTo(1, 3);
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await expect.poll(zoomOf).toBeCloseTo(4, 3);
  await page.keyboard.press('-');
  await expect.poll(zoomOf).toBeCloseTo(2, 3);
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(zoomOf).toBeCloseTo(4, 3);

  const box = await strip.boundingBox();
  if (box === null) throw new Error('the strip has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(zoomOf).toBeGreaterThan(5);

  // Select the huge allocation in the table, zoom to it, hover its middle.
  await page
    .getByTestId('mapping-table')
    .locator('tr[data-kind="allocation"]', { hasText: `0x${huge.toString(16)} –` })
    .click();
  await page.keyboard.press('z');
  await expect.poll(zoomOf).toBeGreaterThan(10_000);
  const start = Number(await strip.getAttribute('data-view-start'));
  const end = Number(await strip.getAttribute('data-view-end'));
  expect(start).toBeLessThanOrEqual(huge);
  expect(end).toBeGreaterThanOrEqual(huge + 4 * MiB);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tooltip = page.getByTestId('address-tooltip');
  await expect(tooltip).toContainText('aclrtMalloc');
  await expect(tooltip).toContainText('2 × 2 MiB pages');
  await snap(page, 'address-space-zoomed');

  // Clicking the strip chooses that address for the walk (and selects what is there).
  await strip.click({ position: { x: box.width / 2, y: box.height / 2 } });
  await expect(page.getByTestId('walk-result')).toHaveAttribute('data-mapped', 'true');
  await expect(page.getByTestId('walk-backing')).toContainText('aclrtMalloc');

  // Back to the whole window; the help overlay lists the strip's keys.
  await page.keyboard.press('0');
  await expect.poll(zoomOf).toBeCloseTo(1, 3);
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-overlay')).toContainText('Zoom the address strip in');
  await page.keyboard.press('Escape');
});

test('typing an address shows its translation walk with the right level indices', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const { huge, virPtr } = await scene(page);
  await openAddressView(page);
  const input = page.getByTestId('walk-input');

  await input.fill('0x12g4');
  await input.press('Enter');
  await expect(page.getByTestId('walk-error')).toContainText('hex digits');

  // An address inside the huge allocation, typed with underscores: a 2 MiB page, so the walk ends with a level-2 block.
  const va = huge + 0x20_1234;
  const hex = va.toString(16);
  const grouped = `0x${hex.slice(0, -8)}_${hex.slice(-8, -4)}_${hex.slice(-4)}`;
  await input.fill(grouped);
  await input.press('Enter');
  await expect(page.getByTestId('walk-error')).toBeHidden();
  const result = page.getByTestId('walk-result');
  await expect(result).toHaveAttribute('data-mapped', 'true');
  for (const level of [0, 1, 2]) {
    await expect(page.getByTestId(`walk-level-${level}`)).toHaveAttribute('data-index', String(levelIndex(va, level)));
  }
  await expect(page.getByTestId('walk-level-2')).toHaveAttribute('data-entry', 'block');
  await expect(page.getByTestId('walk-level-3')).toHaveCount(0);
  await expect(page.getByTestId('walk-offset')).toContainText(`0x${(va % (2 * MiB)).toString(16)}`);
  await expect(page.getByTestId('walk-modeled')).toBeVisible();

  // Decimal works too; the unmapped half of the reservation is reported as not mapped.
  const reserved = virPtr + 3 * MiB + 4096 * 5;
  await input.fill(String(reserved));
  await input.press('Enter');
  await expect(result).toHaveAttribute('data-mapped', 'false');
  await expect(page.getByTestId('walk-backing')).toContainText('no aclrtMapMem covers it');
  await expect(page.getByTestId('walk-level-0')).toHaveAttribute('data-index', String(levelIndex(reserved, 0)));
  await snap(page, 'address-space-walk');
});

test('10,000 allocations: the table scrolls to the last row without freezing', async ({ page, agent }) => {
  test.setTimeout(120_000);
  await openExplorer(page, agent);
  await start(page);
  const failures = await page.evaluate(async () => {
    const hooks = window.__pagelens;
    if (hooks === undefined) throw new Error('PageLens test hooks are missing');
    let failed = 0;
    for (let batch = 0; batch < 20; batch += 1) {
      const calls = Array.from({ length: 500 }, () =>
        hooks.agent.call('aclrtMalloc', { size: 4096, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' }),
      );
      for (const outcome of await Promise.all(calls)) if (!outcome.ok) failed += 1;
    }
    return failed;
  });
  expect(failures).toBe(0);
  await idle(page);
  await openAddressView(page);
  await expect(page.getByTestId('mapping-count')).toHaveText('10,000 of 10,000 rows');
  const table = page.getByTestId('mapping-table');
  // Virtualised: only the rows in view are in the DOM.
  expect(await table.locator('tbody tr[data-kind]').count()).toBeLessThan(80);
  await table.focus();
  // Keyboard paging reaches both ends; how fast is the bench's business, not a timed assertion here.
  await page.keyboard.press('End');
  await expect(table.locator('tr[aria-rowindex="10001"]')).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(table.locator('tr[aria-rowindex="2"]')).toBeInViewport();
  await page.keyboard.press('PageDown');
  await page.keyboard.press('End');
  await expect(table.locator('tr[aria-rowindex="10001"]')).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(table.locator('tr[aria-rowindex="10001"]')).toHaveClass(/selected/);
  await snap(page, 'address-space-10k');
});

test('both themes look right', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const { huge } = await scene(page);
  await openAddressView(page);
  await page.getByTestId('walk-input').fill(`0x${(huge + 0x1234).toString(16)}`);
  await page.getByTestId('walk-input').press('Enter');
  await page.getByTestId('mapping-table').locator('tr[data-kind="mapping"]').click();
  await snap(page, 'address-space-light');
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  await page.keyboard.press('t');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await snap(page, 'address-space-dark');

  // Decimal addresses on the axis and in the table; then the Chinese interface.
  await page.keyboard.press('x');
  await expect(page.getByTestId('address-axis')).toContainText(',');
  await expect(page.getByTestId('mapping-table')).toContainText(huge.toLocaleString('en-US'));
  await page.getByTestId('language').selectOption('zh');
  await expect(page.getByTestId('tab-address')).toHaveText('地址空间');
  await expect(page.getByTestId('walk-panel')).toContainText('页表遍历');
  await snap(page, 'address-space-zh');
});

test('callAcl sets up a scene the view picks up', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await openAddressView(page);
  await expect(page.getByTestId('address-space')).toContainText('No mapped ranges');
  await expect(page.getByTestId('address-space')).toContainText('Nothing in this window yet');
  await callAcl(page, 'aclInit', { configPath: null });
  await callAcl(page, 'aclrtSetDevice', { deviceId: 0 });
  await callAcl(page, 'aclrtMalloc', { size: 2 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
  await expect(page.getByTestId('mapping-count')).toHaveText('1 of 1 rows');
});
