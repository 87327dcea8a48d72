import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

const MiB = 1024 * 1024;

/**
 * Six calls: aclInit, aclrtSetDevice, X = 2 MiB HUGE_ONLY, Y = 4 MiB HUGE_FIRST,
 * Z = 1 MiB NORMAL_ONLY, aclrtFree(X).
 */
async function scene(page: Page): Promise<void> {
  expect((await callAcl(page, 'aclInit', { configPath: null })).ok).toBe(true);
  expect((await callAcl(page, 'aclrtSetDevice', { deviceId: 0 })).ok).toBe(true);
  const x = await callAcl(page, 'aclrtMalloc', { size: 2 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
  expect((await callAcl(page, 'aclrtMalloc', { size: 4 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' })).ok).toBe(true);
  expect((await callAcl(page, 'aclrtMalloc', { size: MiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' })).ok).toBe(true);
  expect((await callAcl(page, 'aclrtFree', { devPtr: x.out?.devPtr })).ok).toBe(true);
  await idle(page);
  await page.getByTestId('tab-log').click();
}

/** Live allocations in the state the views show (what the overview and maps draw). */
async function allocationsAtCursor(page: Page): Promise<number> {
  return page.evaluate(() => {
    interface Sizes {
      readonly allocations: { readonly size: number };
    }
    // The app's hooks also carry its store (apps/web/src/app/test-hooks.ts); e2e declares only what it needs.
    const hooks:
      | {
          idle(): Promise<void>;
          store?: { getState(): { cursor: 'live' | number; timeline?: { live: Sizes; stateAt(seq: number): Sizes } } };
        }
      | undefined = window.__pagelens;
    const state = hooks?.store?.getState();
    const timeline = state?.timeline;
    if (state === undefined || timeline === undefined) return -1;
    return (state.cursor === 'live' ? timeline.live : timeline.stateAt(state.cursor)).allocations.size;
  });
}

test('stepping back and forward with the keys moves every view; play runs to live; Live returns', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await scene(page);
  const bar = page.getByTestId('time-travel');
  const position = page.getByTestId('tt-position');
  const inspector = page.getByTestId('inspector');
  await expect(bar).toHaveAttribute('data-live', 'true');
  await expect(position).toContainText('call 6 / 6');
  expect(await allocationsAtCursor(page)).toBe(2);

  // Select X through its log row: the cursor moves to right after it was allocated.
  const rowX = page.getByTestId('log-row').filter({ hasText: 'size = 2 MiB' });
  await rowX.locator('.log-effect').click();
  await expect(inspector).toHaveAttribute('data-kind', 'allocation');
  await expect(position).toContainText('call 3 / 6');
  await expect(bar).toHaveAttribute('data-live', 'false');
  // 2 MiB + 32 B of padding (DM-3) needs a second huge page (DM-5).
  await expect(inspector.getByTestId('fact-pages')).toContainText('2 × 2 MiB');
  await expect(inspector.getByTestId('inspector-presence')).toHaveCount(0);
  expect(await allocationsAtCursor(page)).toBe(1);
  await expect(page.locator('.log-row.future')).toHaveCount(3);

  // → three times: Y, Z, then the free of X, which is the live end.
  await page.keyboard.press('ArrowRight');
  await expect(position).toContainText('call 4 / 6');
  expect(await allocationsAtCursor(page)).toBe(2);
  await page.keyboard.press('ArrowRight');
  await expect(position).toContainText('call 5 / 6');
  expect(await allocationsAtCursor(page)).toBe(3);
  await page.keyboard.press('ArrowRight');
  await expect(bar).toHaveAttribute('data-live', 'true');
  await expect(inspector.getByTestId('inspector-presence')).toHaveAttribute('data-status', 'gone');
  expect(await allocationsAtCursor(page)).toBe(2);

  // ← back one call: X exists again; Shift+← steps one event (into call 5, before Z existed).
  await page.keyboard.press('ArrowLeft');
  await expect(position).toContainText('call 5 / 6');
  await expect(inspector.getByTestId('inspector-presence')).toHaveCount(0);
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(position).toContainText('call 4 / 6');
  expect(await allocationsAtCursor(page)).toBe(2);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(position).toContainText('call 5 / 6');
  expect(await allocationsAtCursor(page)).toBe(3);

  // Back before X was made: the inspector says so and still tells its story.
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowLeft');
  await expect(position).toContainText('call 2 / 6');
  await expect(inspector.getByTestId('inspector-presence')).toHaveAttribute('data-status', 'future');
  await expect(inspector.getByTestId('inspector-story')).toContainText('aclrtFree → ACL_SUCCESS');
  expect(await allocationsAtCursor(page)).toBe(0);
  await snap(page, 'time-travel-stepping');

  // A story step moves the cursor there.
  await inspector.getByTestId('story-entry').filter({ hasText: 'allocated 2 MiB' }).click();
  await expect(position).toContainText('call 3 / 6');

  // Play (Space) runs call by call to live and stops.
  await page.keyboard.press(' ');
  await expect(bar).toHaveAttribute('data-playing', 'true');
  await expect(bar).toHaveAttribute('data-live', 'true');
  await expect(bar).toHaveAttribute('data-playing', 'false');

  // Live in one click.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(bar).toHaveAttribute('data-live', 'false');
  await page.getByTestId('tt-live').click();
  await expect(bar).toHaveAttribute('data-live', 'true');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('l');
  await expect(bar).toHaveAttribute('data-live', 'true');
});

test('Compare A/B lists what was allocated, freed and the bytes per page class between two points', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await scene(page);
  const position = page.getByTestId('tt-position');
  // A: right after X was allocated (three calls back from live).
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowLeft');
  await expect(position).toContainText('call 3 / 6');
  await page.keyboard.press('a');
  await page.keyboard.press('l');
  await page.keyboard.press('b');
  await page.getByTestId('tt-compare').click();

  const panel = page.getByTestId('compare-panel');
  await expect(panel).toBeVisible();
  const allocated = panel.getByTestId('compare-allocated').getByTestId('compare-item');
  await expect(allocated).toHaveCount(2);
  await expect(allocated.nth(0)).toContainText('4 MiB');
  await expect(allocated.nth(1)).toContainText('1 MiB');
  const freed = panel.getByTestId('compare-freed').getByTestId('compare-item');
  await expect(freed).toHaveCount(1);
  await expect(freed).toContainText('2 MiB');
  await expect(panel.getByTestId('compare-bytes-huge')).toContainText('+2 MiB');
  await expect(panel.getByTestId('compare-bytes-normal')).toContainText('+1 MiB');
  await snap(page, 'time-travel-compare');

  // Choosing an item selects the object.
  await freed.click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-kind', 'allocation');
  await expect(inspector.getByTestId('inspector-presence')).toHaveAttribute('data-status', 'gone');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});
