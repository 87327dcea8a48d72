import type { Locator, Page } from '@playwright/test';
import { expect, openExplorer, snap, test } from '../support/fixtures.ts';

// Issue 17 item 1: a viewer follows the driver's playground line by line, detaches to explore on
// its own, and follows again.

/** The playground tab, by its key (6). */
async function openPlayground(page: Page): Promise<void> {
  await page.keyboard.press('6');
  await expect(page.getByTestId('playground')).toBeVisible();
}

/** Moves focus off any field (a focused <select> or editor would eat the page's keys). */
async function clickAway(page: Page): Promise<void> {
  await page.locator('body').click({ position: { x: 1, y: 1 } });
}

const driverStatus = (page: Page): Locator => page.getByTestId('pl-status');
const followStatus = (page: Page): Locator => page.getByTestId('pl-follow-status');
/** The line the editor marks as the one the run is paused before (its text: CodeMirror does not number line elements). */
const currentLine = (page: Page): Locator => page.getByTestId('pl-editor').locator('.cm-line.pl-line-current');
const markOf = (page: Page, line: number): Locator => page.getByTestId('pl-editor').locator(`.pl-mark[data-line="${line}"]`);

/** The lesson positions a page's store holds (apps/web/src/store/classroom-slice.ts). */
async function lessons(page: Page): Promise<{ own: unknown; driver: unknown }> {
  return page.evaluate(() => {
    const hooks = window.__pagelens as { store?: { getState(): { ownLesson: unknown; driverLesson: unknown } } } | undefined;
    const state = hooks?.store?.getState();
    return { own: state?.ownLesson ?? null, driver: state?.driverLesson ?? null };
  });
}

test('a viewer follows the driver stepping line by line, detaches to explore, and follows again', async ({ page, agent, context }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(page, agent);
  await openPlayground(page);
  await page.getByTestId('pl-scenario').selectOption('builtin:seed-device-memory');
  await clickAway(page);

  const viewer = await context.newPage();
  await viewer.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(viewer, agent, 'viewer');
  await openPlayground(viewer);
  const bar = viewer.getByTestId('pl-follow');
  // The viewer joined after the driver picked the scenario: it gets the driver's latest state on join.
  await expect(bar).toHaveAttribute('data-mode', 'following');
  await expect(bar).toContainText('Following the driver');
  await expect(viewer.getByTestId('pl-follow-scenario')).toHaveAttribute('data-scenario', 'seed-device-memory');
  await expect(followStatus(viewer)).toHaveAttribute('data-state', 'idle');
  await expect(viewer.getByTestId('pl-editor')).toHaveAttribute('data-readonly', 'true');

  // The driver steps (n); after each step the viewer shows the same current line and the mark of the line just run.
  const visited: number[] = [];
  let previous: number | undefined;
  for (let step = 0; step < 8; step += 1) {
    await page.keyboard.press('n');
    // The step is done once the driver is paused on another line (while it runs, it is on none).
    if (previous !== undefined) await expect(driverStatus(page)).not.toHaveAttribute('data-line', String(previous));
    await expect(driverStatus(page)).toHaveAttribute('data-state', 'paused');
    const line = Number(await driverStatus(page).getAttribute('data-line'));
    expect(line).toBeGreaterThan(0);
    await expect(followStatus(viewer)).toHaveAttribute('data-line', String(line));
    await expect(followStatus(viewer)).toHaveAttribute('data-state', 'paused');
    await expect(currentLine(viewer)).toHaveCount(1);
    await expect(currentLine(viewer)).toHaveText((await currentLine(page).textContent()) ?? '');
    // In the split (the playground's default) the viewer's code scrolls to the driver's line.
    await expect(viewer.getByTestId('split-view')).toBeVisible();
    await expect(currentLine(viewer)).toBeInViewport();
    if (previous !== undefined) {
      const kind = await markOf(page, previous).getAttribute('data-kind');
      await expect(markOf(viewer, previous)).toHaveAttribute('data-kind', kind ?? 'missing');
      await expect(markOf(viewer, previous)).toHaveClass(/pl-mark-executed/);
    }
    visited.push(line);
    previous = line;
  }
  expect(new Set(visited).size).toBe(visited.length);
  await snap(viewer, 'follow-viewer-following');

  // The driver's lesson position travels with its playground: the trainer starts a lesson for all
  // from the lessons panel (the position's one owner) and goes to its third step.
  await clickAway(page);
  await page.keyboard.press('Shift+L');
  await page.getByTestId('lesson-pick').selectOption('page-policies');
  await page.getByTestId('lesson-start-all').click();
  await page.getByTestId('lesson-chip-normal-only').click();
  await expect.poll(async () => (await lessons(viewer)).driver).toEqual({ lessonId: 'page-policies', step: 2 });
  expect((await lessons(viewer)).own).toBeNull();
  // Publishing the lesson leaves the driver's playground where it was.
  await expect(driverStatus(page)).toHaveAttribute('data-line', String(previous));

  // Detach (e, listed in ?): the viewer's own playground, starting from the driver's code, editable.
  await clickAway(viewer);
  await viewer.keyboard.press('?');
  await expect(viewer.getByTestId('help-overlay')).toContainText('Detach from the driver and explore on your own, or follow again');
  await viewer.keyboard.press('Escape');
  await viewer.keyboard.press('e');
  await expect(bar).toHaveAttribute('data-mode', 'detached');
  await expect(viewer.getByTestId('pl-scenario')).toHaveValue('builtin:seed-device-memory');
  await expect(viewer.getByTestId('pl-editor')).toHaveAttribute('data-readonly', 'false');
  await viewer.getByTestId('pl-editor').locator('.cm-content').click();
  await viewer.keyboard.press('ControlOrMeta+End');
  await viewer.keyboard.insertText('\n// the viewer was here');
  await expect(viewer.getByTestId('pl-editor')).toContainText('the viewer was here');

  // The driver goes on, unaffected; the detached viewer is told where it is.
  const before = Number(await driverStatus(page).getAttribute('data-line'));
  await page.keyboard.press('n');
  await expect(driverStatus(page)).not.toHaveAttribute('data-line', String(before));
  await expect(driverStatus(page)).toHaveAttribute('data-state', 'paused');
  const now = Number(await driverStatus(page).getAttribute('data-line'));
  expect(now).toBeGreaterThan(0);
  await expect(viewer.getByTestId('pl-follow-driver-status')).toContainText(`Paused before line ${now}`);
  await expect(page.getByTestId('pl-editor')).not.toContainText('the viewer was here');
  await clickAway(viewer);
  await snap(viewer, 'follow-viewer-detached');

  // Follow again: straight to the driver's current state.
  await viewer.getByTestId('pl-follow-again').click();
  await expect(bar).toHaveAttribute('data-mode', 'following');
  await expect(followStatus(viewer)).toHaveAttribute('data-line', String(now));
  await expect(currentLine(viewer)).toHaveText((await currentLine(page).textContent()) ?? '');
  await expect(viewer.getByTestId('pl-editor')).not.toContainText('the viewer was here');
  // The detach button is reachable from the keyboard too.
  await viewer.getByTestId('pl-detach').focus();
  await viewer.keyboard.press('Enter');
  await expect(bar).toHaveAttribute('data-mode', 'detached');
});

test('在中文界面中跟随驱动者', async ({ page, agent, context }) => {
  await openExplorer(page, agent);
  await openPlayground(page);
  await page.getByTestId('pl-scenario').selectOption('builtin:seed-device-memory');
  await clickAway(page);
  await page.keyboard.press('n');
  await expect(driverStatus(page)).toHaveAttribute('data-state', 'paused');
  const line = await driverStatus(page).getAttribute('data-line');

  const viewer = await context.newPage();
  await viewer.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(viewer, agent, 'viewer');
  await viewer.getByTestId('language').selectOption('zh');
  await openPlayground(viewer);
  await expect(viewer.getByTestId('pl-follow')).toContainText('正在跟随驱动者');
  await expect(followStatus(viewer)).toHaveAttribute('data-line', line ?? '');
  await expect(followStatus(viewer)).toContainText(`暂停在第${line}行之前`);
  await expect(viewer.getByTestId('pl-detach')).toContainText('脱离跟随');
  await snap(viewer, 'follow-viewer-following-zh');
});

test("a viewer follows the driver's own code as it is typed, with the compiler's marks", async ({ page, agent, context }) => {
  await openExplorer(page, agent);
  await openPlayground(page);
  const viewer = await context.newPage();
  await openExplorer(viewer, agent, 'viewer');
  await openPlayground(viewer);
  await expect(viewer.getByTestId('pl-follow')).toHaveAttribute('data-mode', 'following');

  await page.getByTestId('pl-editor').locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('aclInit(nullptr);\naclrtSetDevice(0);\nsize_t n = 4096 +;');
  // Not a built-in scenario any more: the code itself travels, and the viewer marks the same error line.
  await expect(viewer.getByTestId('pl-follow-scenario')).toHaveAttribute('data-scenario', '');
  await expect(viewer.getByTestId('pl-editor')).toContainText('size_t n = 4096 +;');
  await expect(page.getByTestId('pl-editor').locator('.pl-mark[data-line="3"]')).toHaveAttribute('data-kind', 'error');
  await expect(viewer.getByTestId('pl-editor').locator('.pl-mark[data-line="3"]')).toHaveAttribute('data-kind', 'error');
  await expect(viewer.getByTestId('pl-editor')).toHaveAttribute('data-readonly', 'true');
});
