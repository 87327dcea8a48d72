import type { Locator, Page } from '@playwright/test';
import { allocate, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

/**
 * Each guided lesson completed by a scripted student, in English and in Chinese: the playground
 * stepped one statement at a time (n) or run (r), and the Actions panel's Malloc form. Every goal
 * must turn ✓ in the lessons panel, and the next one must not be ✓ before its move.
 */

type Language = 'en' | 'zh';

const WORDS: Readonly<Record<Language, { met: string; allMet: string; title: string; key: string }>> = {
  en: { met: '✓ met', allMet: 'All goals of this lesson are met.', title: 'Lessons', key: 'Open or close the lessons' },
  zh: { met: '✓ 已达成', allMet: '本课程的所有目标均已达成。', title: '课程', key: '打开或关闭课程' },
};

const chip = (page: Page, step: string): Locator => page.getByTestId(`lesson-chip-${step}`);
const status = (page: Page): Locator => page.getByTestId('pl-status');

async function start(page: Page, agent: Parameters<typeof openExplorer>[1], language: Language, lessonId: string): Promise<void> {
  await openExplorer(page, agent);
  if (language === 'zh') await page.getByTestId('language').selectOption('zh');
  await page.keyboard.press('Shift+L');
  const panel = page.getByTestId('lessons');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: WORDS[language].title })).toBeVisible();
  await page.getByTestId('lesson-pick').selectOption(lessonId);
  await expect(panel).toHaveAttribute('data-lesson', lessonId);
  // Away from the picker, so the playground's keys reach the page (a focused <select> eats them).
  await page.getByTestId('lesson-step').click();
}

/** The goal of `step` is shown as met, in the panel's language. */
async function expectMet(page: Page, language: Language, step: string): Promise<void> {
  await expect(chip(page, step)).toHaveAttribute('data-met', 'true');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-step', step);
  await expect(page.getByTestId('lesson-goal-status')).toHaveText(WORDS[language].met);
}

async function next(page: Page): Promise<void> {
  await page.getByTestId('lesson-next').click();
}

/** The step's scenario, opened from the lessons panel into the playground. */
async function openScenario(page: Page): Promise<void> {
  await page.getByTestId('lesson-open-scenario').click();
  await expect(page.getByTestId('playground')).toBeVisible();
  await status(page).click();
}

/**
 * Waits until the replica is idle and the goal chips were read at its version or later: the panel
 * checks goals at most every 250 ms under a stream of changes, so right after a step it may still
 * show the state before it.
 */
async function goalsCurrent(page: Page): Promise<void> {
  await idle(page);
  const version = await page.evaluate(() => {
    // The store's version counts changes to the replica's timeline.
    const hooks: { idle(): Promise<void>; store?: { getState(): { version: number } } } | undefined = window.__pagelens;
    return hooks?.store?.getState().version ?? 0;
  });
  await expect
    .poll(async () => Number((await page.getByTestId('lesson-steps').getAttribute('data-version')) ?? -1))
    .toBeGreaterThanOrEqual(version);
}

/**
 * Steps the playground (n) until `step`'s goal is met; `later` must not be met at that point. A
 * statement at a time: wait for the execution to move on and the replica to catch up each time.
 */
async function stepUntilMet(page: Page, step: string, later?: string): Promise<void> {
  for (let guard = 0; guard < 80; guard += 1) {
    await goalsCurrent(page);
    if ((await chip(page, step).getAttribute('data-met')) === 'true') break;
    const state = await status(page).getAttribute('data-state');
    expect(state, `the scenario ended before ${step} was met`).not.toBe('finished');
    const line = await status(page).getAttribute('data-line');
    await page.keyboard.press('n');
    await expect(async () => {
      const now = [await status(page).getAttribute('data-state'), await status(page).getAttribute('data-line')];
      expect(now[0] === 'paused' || now[0] === 'finished').toBe(true);
      expect(now[0] !== state || now[1] !== line).toBe(true);
    }).toPass();
  }
  await expect(chip(page, step)).toHaveAttribute('data-met', 'true');
  await goalsCurrent(page);
  if (later !== undefined) await expect(chip(page, later)).toHaveAttribute('data-met', 'false');
}

/** Runs the open scenario to its end (r) and waits for the replica. */
async function runScenario(page: Page): Promise<void> {
  await status(page).click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await idle(page);
}

/** The lesson position this driver publishes (the classroom slice's `ownLesson`). */
async function ownLesson(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    // The store is not in e2e's declaration of the page hooks (e2e does not import the app).
    const hooks = window.__pagelens as unknown as { store: { getState(): { ownLesson: unknown } } } | undefined;
    return hooks?.store.getState().ownLesson ?? null;
  });
}

async function chooseFn(page: Page, fn: string): Promise<void> {
  await page.getByTestId('actions-tab-allocate').click();
  await page.getByTestId('malloc-fn').selectOption(fn);
}

async function allDone(page: Page, language: Language, steps: readonly string[]): Promise<void> {
  for (const step of steps) await expect(chip(page, step)).toHaveAttribute('data-met', 'true');
  await expect(page.getByTestId('lesson-all-met')).toHaveText(WORDS[language].allMet);
}

for (const language of ['en', 'zh'] as const) {
  test.describe(`lessons in ${language}`, () => {
    test(`page policies and the 1 MiB threshold (${language})`, async ({ page, agent }) => {
      await start(page, agent, language, 'page-policies');
      // The key is listed in the help (?), and bound once, beside the playground's keys too.
      await page.keyboard.press('?');
      await expect(page.getByTestId('help-overlay')).toContainText(WORDS[language].key);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('help-overlay')).toBeHidden();
      await expect(chip(page, 'padding-crosses')).toHaveAttribute('data-met', 'false');
      await openScenario(page);
      expect(await page.evaluate(() => window.__pagelens?.shortcutConflicts() ?? ['no hooks'])).toEqual([]);
      await stepUntilMet(page, 'padding-crosses', 'align32-stays');
      await expectMet(page, language, 'padding-crosses');
      await next(page);
      await stepUntilMet(page, 'align32-stays', 'normal-only');
      await next(page);
      await stepUntilMet(page, 'normal-only', 'threshold-edge');
      await next(page);
      // At 1280×720 the playground is the split, and the lesson's step, the line being stepped and the
      // Actions panel this next step uses are all on screen together.
      await expect(page.locator('.explorer')).toHaveAttribute('data-layout', 'split-lesson');
      for (const id of ['lesson-step', 'split-beside', 'actions-tab-allocate']) await expect(page.getByTestId(id)).toBeInViewport();
      await expect(page.getByTestId('pl-editor').locator('.cm-line.pl-line-current')).toBeInViewport();
      await allocate(page, '1048545', 'HUGE_FIRST');
      await expect(chip(page, 'threshold-edge')).toHaveAttribute('data-met', 'false');
      await allocate(page, '1048544', 'HUGE_FIRST');
      await expectMet(page, language, 'threshold-edge');
      await allDone(page, language, ['padding-crosses', 'align32-stays', 'normal-only', 'threshold-edge']);
      await expect(page.getByTestId('lesson-why')).toContainText('DM-3, DM-4');
      await snap(page, `lessons-page-policies-${language}`);
      await page.setViewportSize({ width: 1440, height: 900 });
      await snap(page, `lessons-page-policies-${language}-1440`);
      const overflow = await page.getByTestId('lessons').evaluate((panel) => panel.scrollWidth > panel.clientWidth);
      expect(overflow, 'the lessons panel scrolls sideways').toBe(false);
    });

    test(`rounding waste (${language})`, async ({ page, agent }) => {
      await start(page, agent, language, 'rounding-waste');
      await openScenario(page);
      await runScenario(page);
      await expectMet(page, language, 'three-mib');
      await expect(chip(page, 'small-normal')).toHaveAttribute('data-met', 'false');
      await next(page);
      await allocate(page, '4 KiB', 'NORMAL_ONLY');
      await expectMet(page, language, 'small-normal');
      await next(page);
      await chooseFn(page, 'aclrtMallocAlign32');
      await allocate(page, '4 KiB', 'NORMAL_ONLY');
      await expectMet(page, language, 'align32-exact');
      await next(page);
      await chooseFn(page, 'aclrtMalloc');
      await allocate(page, '2 MiB', 'HUGE_ONLY');
      await expect(chip(page, 'huge-edge')).toHaveAttribute('data-met', 'false');
      await allocate(page, '2097120', 'HUGE_ONLY');
      await expectMet(page, language, 'huge-edge');
      await allDone(page, language, ['three-mib', 'small-normal', 'align32-exact', 'huge-edge']);
    });

    test(`fragmentation: HUGE_ONLY fails while memory is free (${language})`, async ({ page, agent }) => {
      await start(page, agent, language, 'fragmentation');
      await openScenario(page);
      await stepUntilMet(page, 'fallback', 'huge-only-fails');
      await next(page);
      await stepUntilMet(page, 'huge-only-fails', 'fragmented');
      await next(page);
      await runScenario(page);
      await expect(chip(page, 'fragmented')).toHaveAttribute('data-met', 'false');
      await allocate(page, '1 MiB', 'NORMAL_ONLY', 8);
      await expect(chip(page, 'fragmented')).toHaveAttribute('data-met', 'false');
      await runScenario(page);
      await expectMet(page, language, 'fragmented');
      await allDone(page, language, ['fallback', 'huge-only-fails', 'fragmented']);
      // A fresh host (the lesson's own button, through the host reset) leaves no goal met.
      await page.getByTestId('lesson-fresh-host').click();
      await page.getByTestId('lesson-fresh-confirm').click();
      for (const step of ['fallback', 'huge-only-fails', 'fragmented']) await expect(chip(page, step)).toHaveAttribute('data-met', 'false');
    });

    test(`TLB reach and 1 GiB pages (${language})`, async ({ page, agent }) => {
      await start(page, agent, language, 'tlb-reach');
      // 4 MiB − 64 B: 1,024 pages after padding, exactly the assumed normal TLB (4 MiB itself pads to 1,025).
      await allocate(page, '4194240', 'NORMAL_ONLY');
      await expect(chip(page, 'normal-overflow')).toHaveAttribute('data-met', 'false');
      await allocate(page, '64 MiB', 'NORMAL_ONLY');
      await expectMet(page, language, 'normal-overflow');
      await next(page);
      await allocate(page, '64 MiB', 'HUGE_FIRST');
      await expectMet(page, language, 'huge-covers');
      await expect(chip(page, 'huge-overflow')).toHaveAttribute('data-met', 'false');
      await next(page);
      await allocate(page, '4 GiB', 'HUGE_ONLY');
      await expectMet(page, language, 'huge-overflow');
      await expect(chip(page, 'giant')).toHaveAttribute('data-met', 'false');
      await next(page);
      await allocate(page, '4 GiB', 'HUGE1G_ONLY');
      await expectMet(page, language, 'giant');
      await allDone(page, language, ['normal-overflow', 'huge-covers', 'huge-overflow', 'giant']);
      await page.getByTestId('lesson-step').click();
      await page.keyboard.press('t');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await snap(page, `lessons-tlb-${language}-dark`);
    });

    test(`pinned versus pageable copies (${language})`, async ({ page, agent }) => {
      await start(page, agent, language, 'pinned-copies');
      await openScenario(page);
      await stepUntilMet(page, 'staged', 'pinned');
      await next(page);
      await stepUntilMet(page, 'pinned', 'async-pinned');
      await next(page);
      await stepUntilMet(page, 'async-pinned', 'async-pageable');
      await next(page);
      await stepUntilMet(page, 'async-pageable');
      await expectMet(page, language, 'async-pageable');
      await allDone(page, language, ['staged', 'pinned', 'async-pinned', 'async-pageable']);
    });

    test(`VMM reserve, map, unmap and the deferred free (${language})`, async ({ page, agent }) => {
      await start(page, agent, language, 'vmm-lifecycle');
      // The trainer starts it for all: from now on the driver's position is what viewers are sent.
      expect(await ownLesson(page)).toBeNull();
      await page.getByTestId('lesson-start-all').click();
      await expect(page.getByTestId('lesson-teaching')).toBeVisible();
      await openScenario(page);
      const steps = ['map', 'deferred', 'release-refused', 'unmap-frees', 'release'];
      for (const [index, step] of steps.entries()) {
        expect(await ownLesson(page)).toEqual({ lessonId: 'vmm-lifecycle', step: index });
        await stepUntilMet(page, step, steps[index + 1]);
        await expectMet(page, language, step);
        if (index < steps.length - 1) await next(page);
      }
      await allDone(page, language, steps);
      await snap(page, `lessons-vmm-${language}`);
    });
  });
}
