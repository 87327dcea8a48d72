import type { Locator, Page } from '@playwright/test';
import { allocate, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

// Issue 17 item 2: a scenario declares the host it needs; the scenario bar says how the session's
// host differs and offers one button that resets to exactly that host and prepares the scenario.

interface StoreHooks {
  store: {
    getState(): {
      timeline?: {
        events: readonly { kind: string; fn?: string; ret?: number; size?: number; pageClass?: string; fallback?: { from: string } }[];
      };
    };
  };
}

/** The ACL codes of every aclrtMalloc the replica holds since the host's last reset, in order. */
async function mallocCodes(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const events = (window.__pagelens as unknown as StoreHooks).store.getState().timeline?.events ?? [];
    return events.filter((event) => event.kind === 'call' && event.fn === 'aclrtMalloc').map((event) => event.ret ?? -1);
  });
}

/** The allocations of `size` bytes made since the reset: their page class and what they fell back from. */
async function allocationsOf(page: Page, size: number): Promise<{ pageClass?: string; fallbackFrom?: string }[]> {
  return page.evaluate((bytes) => {
    const events = (window.__pagelens as unknown as StoreHooks).store.getState().timeline?.events ?? [];
    return events
      .filter((event) => event.kind === 'alloc' && event.size === bytes)
      .map((event) => ({
        ...(event.pageClass === undefined ? {} : { pageClass: event.pageClass }),
        ...(event.fallback === undefined ? {} : { fallbackFrom: event.fallback.from }),
      }));
  }, size);
}

async function openPlayground(page: Page): Promise<void> {
  await page.keyboard.press('6');
  await expect(page.getByTestId('playground')).toBeVisible();
}

async function pickScenario(page: Page, id: string): Promise<void> {
  await page.getByTestId('pl-scenario').selectOption(`builtin:${id}`);
  await page.getByTestId('pl-status').click();
}

const status = (page: Page): Locator => page.getByTestId('pl-status');

async function runToEnd(page: Page): Promise<void> {
  await page.getByTestId('pl-run').click();
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await idle(page);
}

test('a used host turns "HUGE_FIRST falls back" backwards; one click gives the declared fresh host and the lesson comes out as designed', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  // What ran before the lesson: a 1 MiB NORMAL_ONLY buffer, and pinned host memory from the Host tab (its ✓ box).
  await allocate(page, '1 MiB', 'NORMAL_ONLY');
  await page.getByTestId('actions-tab-host').click();
  await page.getByTestId('host-size').fill('4 MiB');
  await page.getByTestId('host-aclrtMallocHost').click();
  await idle(page);
  await expect(page.getByTestId('host-result')).toContainText('aclrtMallocHost → ACL_SUCCESS');

  await openPlayground(page);
  await pickScenario(page, 'huge-first-fallback');
  const differs = page.getByTestId('pl-host-differs');
  await expect(differs).toContainText('This scenario was written for a fresh host, Ascend910B2, 1 device. This host differs:');
  await expect(differs.locator('li')).toHaveCount(1);
  await expect(differs.locator('li[data-kind="used"]')).toContainText(/^\d+ calls ran on it since its last reset/);

  // On this host the lesson comes out backwards: the 1.5 MiB HUGE_FIRST fails like HUGE_ONLY.
  await runToEnd(page);
  expect(await mallocCodes(page)).toEqual([0, 0, 0, 207001, 207001]);
  await snap(page, 'scenario-host-differs');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('button', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // Nothing in the box is cut: it wraps rather than scrolls sideways.
  expect(await differs.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
  await snap(page, 'scenario-host-differs-dark-1440');

  // One button, reached from the keyboard.
  const reset = page.getByTestId('pl-host-reset');
  await expect(reset).toHaveText('Reset host to Ascend910B2, 1 device');
  await reset.focus();
  await page.keyboard.press('Enter');
  // Reset, then prepared: the setup ran on the fresh host and the code waits at its first line.
  await expect(status(page)).toHaveAttribute('data-state', 'paused');
  await expect(page.getByTestId('pl-host-match')).toHaveText('Fresh host ready and the scenario prepared: press Run.');
  await expect(differs).toHaveCount(0);
  // The Host tab forgot the ✓ box of a buffer the reset destroyed.
  await expect(page.getByTestId('host-result')).toBeEmpty();
  await snap(page, 'scenario-host-prepared');

  await runToEnd(page);
  // As designed: small, filler and the fallback succeed; only HUGE_ONLY fails (DM-4, DM-5).
  expect(await mallocCodes(page)).toEqual([0, 0, 0, 207001]);
  expect(await allocationsOf(page, 1536 * 1024)).toEqual([{ pageClass: 'normal', fallbackFrom: 'huge' }]);
  await expect(page.getByTestId('pl-acl-errors')).toHaveAttribute('data-count', '1');
  // Its own run used the host: running it again as designed takes another reset, and the bar says so.
  await expect(differs.locator('li[data-kind="used"]')).toBeVisible();
});

test.describe('on a host of another model and size', () => {
  test.use({ agentArgs: ['--profile', 'Ascend310P3', '--devices', '2'] });

  test('the bar names the profile and the device count in Chinese; a viewer sees the differences and the reset, without the button', async ({
    page,
    agent,
    browser,
  }) => {
    await openExplorer(page, agent);
    await page.getByTestId('language').selectOption('zh');
    await openPlayground(page);
    await pickScenario(page, 'policies');
    const differs = page.getByTestId('pl-host-differs');
    await expect(differs.locator('li[data-kind="profile"]')).toHaveText('设备型号为 Ascend310P3，而非 Ascend910B2');
    await expect(differs.locator('li[data-kind="devices"]')).toHaveText('有 2 个设备，而非 1 个');
    // Nothing ran yet: a fresh host is not asked for twice.
    await expect(differs.locator('li[data-kind="used"]')).toHaveCount(0);

    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const viewer = await viewerContext.newPage();
    await openExplorer(viewer, agent, 'viewer');
    await openPlayground(viewer);
    // The viewer follows the driver's playground, so it shows the driver's scenario with its host note.
    await expect(viewer.getByTestId('pl-follow')).toHaveAttribute('data-mode', 'following');
    await expect(viewer.getByTestId('pl-follow-scenario')).toHaveAttribute('data-scenario', 'policies');
    const viewerDiffers = viewer.getByTestId('pl-host-differs');
    await expect(viewerDiffers).toContainText('Only the driver can reset the host.');
    await expect(viewer.getByTestId('pl-host-reset')).toHaveCount(0);
    await snap(page, 'scenario-host-profile-zh');

    await page.getByTestId('pl-host-reset').click();
    await expect(status(page)).toHaveAttribute('data-state', 'paused');
    await expect(page.getByTestId('pl-host-match')).toHaveText('全新 Host 已就绪，场景已准备好：请按“运行”。');
    // The viewer's replica was replaced with the new host: the bar now agrees with the scenario.
    await expect(viewer.getByTestId('pl-host-match')).toBeVisible();
    await expect(viewer.getByTestId('pl-host-match')).toContainText('Ascend910B2, 1 device');
    // The welcome's facts about the host follow the reset: one device, the new model, the new host note.
    for (const p of [page, viewer]) {
      await expect(p.getByTestId('device-select').locator('option')).toHaveCount(1);
      await expect(p.getByTestId('device-select').locator('option')).toContainText('Ascend910B2');
      await expect(p.getByTestId('provenance-banner')).toContainText('910B2');
    }
    await snap(viewer, 'scenario-host-viewer-after-reset');
    await viewerContext.close();
  });
});
