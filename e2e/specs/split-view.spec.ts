import type { Locator, Page } from '@playwright/test';
import { expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';
import { playgroundStatus as status, stepTo } from '../support/playground-steps.ts';

/**
 * The playground's code beside a memory view (issue 17, item 3): stepping the code changes the page
 * map, address space and log shown beside it; the layout and the view beside are remembered and
 * have keys; at 1280×720 the side columns give the two panes their room.
 */

const beside = (page: Page): Locator => page.getByTestId('split-beside');

async function openSplit(page: Page): Promise<void> {
  await page.keyboard.press('6');
  await expect(page.getByTestId('split-view')).toBeVisible();
  await expect(page.getByTestId('playground')).toBeVisible();
  await page.getByTestId('pl-scenario').selectOption('builtin:seed-device-memory');
  // Away from the picker, so the keys reach the shortcuts (a focused <select> eats them).
  await status(page).click();
}

/** The page map's canvas fills its box inside the pane beside the code (it is sized by its own box, not the window). */
async function expectMapFitsPane(page: Page): Promise<void> {
  const sizes = await page.evaluate(() => {
    const pane = document.querySelector('[data-testid="split-beside"]')?.getBoundingClientRect();
    const wrap = document.querySelector('[data-testid="page-map-canvas"]');
    const canvas = wrap?.querySelector('canvas');
    return {
      pane: pane === undefined ? undefined : { left: pane.left, right: pane.right },
      wrap: wrap === null || wrap === undefined ? undefined : { width: wrap.clientWidth, left: wrap.getBoundingClientRect().left },
      canvas: canvas === null || canvas === undefined ? undefined : { css: canvas.getBoundingClientRect().width, px: canvas.width },
      ratio: window.devicePixelRatio,
    };
  });
  expect(sizes.pane).toBeDefined();
  expect(sizes.wrap?.width ?? 0).toBeGreaterThan(300);
  expect(sizes.wrap?.left ?? 0).toBeGreaterThanOrEqual(sizes.pane?.left ?? Number.POSITIVE_INFINITY);
  expect((sizes.wrap?.left ?? 0) + (sizes.wrap?.width ?? 0)).toBeLessThanOrEqual((sizes.pane?.right ?? 0) + 1);
  expect(Math.abs((sizes.canvas?.css ?? 0) - (sizes.wrap?.width ?? -10))).toBeLessThanOrEqual(1);
  expect(Math.abs((sizes.canvas?.px ?? 0) - (sizes.wrap?.width ?? 0) * sizes.ratio)).toBeLessThanOrEqual(2);
}

test('stepping the code changes the page map, address space and log beside it', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await openSplit(page);
  // The split is the playground's first layout; the page map is the first view beside the code.
  await expect(page.getByTestId('split-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(beside(page)).toHaveAttribute('data-view', 'pages');
  await expect(beside(page).getByTestId('legend-count-pages')).toHaveText(/^0 \//);
  await expectMapFitsPane(page);

  await stepTo(page, 'aclrtMalloc(&deviceA');
  await expect(beside(page).getByTestId('legend-count-pages')).toHaveText(/^0 \//);
  // One statement more: the first aclrtMalloc takes one normal page, seen beside the code at once.
  await page.keyboard.press('n');
  await expect(beside(page).getByTestId('legend-count-pages')).toHaveText(/^1 \//);
  await page.keyboard.press('n');
  await expect(beside(page).getByTestId('legend-count-pages')).toHaveText(/^2 \//);
  await expectMapFitsPane(page);
  await snap(page, 'split-1280-pages-stepped');

  // v: the next view beside the code, the address space, holding both allocations.
  await page.keyboard.press('v');
  await expect(beside(page)).toHaveAttribute('data-view', 'address');
  await expect(page.getByTestId('beside-tab-address')).toHaveAttribute('aria-selected', 'true');
  await expect(beside(page).getByTestId('mapping-table').locator('tr[data-kind="allocation"]')).toHaveCount(2);
  await expect(beside(page).getByTestId('address-strip')).toBeVisible();
  await page.keyboard.press('n');
  await expect(beside(page).getByTestId('mapping-table').locator('tr[data-kind="allocation"]')).toHaveCount(3);
  // The address view's `g` gives way to the playground's (time cursor to the code's line): no key bound twice.
  expect(await page.evaluate(() => window.__pagelens?.shortcutConflicts())).toEqual([]);
  await snap(page, 'split-1280-address');

  // The log beside the code: the three aclrtMalloc calls, and the next step's call arrives in it.
  await page.getByTestId('beside-tab-log').click();
  await expect(beside(page)).toHaveAttribute('data-view', 'log');
  const mallocs = beside(page).getByTestId('log-row').filter({ hasText: 'aclrtMalloc(' });
  await expect(mallocs).toHaveCount(3);
  const copies = beside(page).getByTestId('log-row').filter({ hasText: 'aclrtMemcpy(' });
  await expect(copies).toHaveCount(0);
  await status(page).click();
  await page.keyboard.press('n');
  await expect(copies).toHaveCount(1);
  expect(await page.evaluate(() => window.__pagelens?.shortcutConflicts())).toEqual([]);
  await idle(page);
  await snap(page, 'split-1280-log');

  // TLB and host copies fit beside the code too; the TLB's `r` gives way to the playground's Run.
  for (const view of ['tlb', 'host'] as const) {
    await page.getByTestId(`beside-tab-${view}`).click();
    await expect(beside(page)).toHaveAttribute('data-view', view);
    await expect(beside(page).locator('.split-loading')).toHaveCount(0);
    expect(await page.evaluate(() => window.__pagelens?.shortcutConflicts())).toEqual([]);
  }
  await status(page).click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
});

test('the layout and the view beside the code are remembered, toggled with s and listed in the help', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await openSplit(page);
  await page.getByTestId('beside-tab-address').click();
  await page.reload();
  await expect(page.locator('.explorer')).toHaveAttribute('data-ready', 'true');
  await page.keyboard.press('6');
  await expect(beside(page)).toHaveAttribute('data-view', 'address');

  // The help lists both keys while the split is shown, in English and in Chinese.
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help.locator('.shortcut-row').filter({ has: page.locator('kbd', { hasText: /^s$/ }) })).toContainText(
    'code beside a memory view',
  );
  await expect(help.locator('.shortcut-row').filter({ has: page.locator('kbd', { hasText: /^v$/ }) })).toContainText(
    'Next view beside the code',
  );
  await page.keyboard.press('Escape');
  await page.getByTestId('language').selectOption('zh');
  await page.keyboard.press('?');
  await expect(help.locator('.shortcut-row').filter({ has: page.locator('kbd', { hasText: /^s$/ }) })).toContainText('代码旁显示内存视图');
  await expect(page.getByTestId('split-toggle')).toHaveText('代码与内存并排');
  await page.keyboard.press('Escape');

  // s: the playground alone (the side columns come back); remembered over a reload.
  await page.keyboard.press('s');
  await expect(page.getByTestId('split-view')).toHaveCount(0);
  await expect(page.getByTestId('playground')).toBeVisible();
  await expect(page.getByTestId('split-toggle')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('.column.left')).toBeVisible();
  await page.reload();
  await expect(page.locator('.explorer')).toHaveAttribute('data-ready', 'true');
  await page.keyboard.press('6');
  await expect(page.getByTestId('playground')).toBeVisible();
  await expect(page.getByTestId('split-view')).toHaveCount(0);
  // From another view, s opens the playground beside memory.
  await page.keyboard.press('1');
  await page.keyboard.press('s');
  await expect(page.getByTestId('tab-playground')).toHaveAttribute('aria-selected', 'true');
  await expect(beside(page)).toHaveAttribute('data-view', 'address');
});

test("at 1280×720 the code and memory take the side columns; a selection's inspector lies over the memory view", async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await openSplit(page);
  await expect(page.locator('.column.left')).toBeHidden();
  await expect(page.locator('.column.right')).toHaveCount(0);
  await expect(page.getByTestId('inspector')).toHaveCount(0);
  // The hidden column's keys are off: m (allocate) does nothing and is not listed.
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-overlay').locator('kbd', { hasText: /^m$/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  const paneWidths = () =>
    page.evaluate(() =>
      ['split-code', 'split-beside'].map((name) => document.querySelector(`.${name}`)?.getBoundingClientRect().width ?? 0),
    );
  const panes = await paneWidths();
  // Both panes get room enough for C lines and the map (the two split the 1280 px).
  for (const width of panes) expect(width).toBeGreaterThan(520);
  await stepTo(page, 'aclrtMalloc(&deviceB');
  await page.getByTestId('pl-var-object-deviceA').click();
  const over = page.getByTestId('split-inspector');
  await expect(over).toBeVisible();
  await expect(over.getByTestId('inspector')).toHaveAttribute('data-kind', 'allocation');
  // Over the memory view only: the panes keep their widths, the tabs and the split toggle stay usable.
  expect(await paneWidths()).toEqual(panes);
  await page.getByTestId('beside-tab-address').click({ trial: true });
  await page.getByTestId('split-toggle').click({ trial: true });
  await expectMapFitsPane(page);
  await snap(page, 'split-1280-inspector');
  await status(page).click();
  await page.keyboard.press('Escape');
  await expect(over).toHaveCount(0);
});

test('at 1920×1080 the split keeps the pools, actions and inspector', async ({ page, agent }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openExplorer(page, agent);
  await openSplit(page);
  await expect(page.locator('.column.left')).toBeVisible();
  await expect(page.locator('.column.right')).toBeVisible();
  await expect(page.locator('.explorer')).toHaveAttribute('data-layout', 'split-wide');
  await expectMapFitsPane(page);
  await snap(page, 'split-1920');
});
