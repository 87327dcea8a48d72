import type { Page } from '@playwright/test';
import { expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

interface Sized {
  readonly size: number;
}

/** The part of the app's store this spec reads; declared here because e2e does not import the app. */
interface StoreHooks {
  readonly store: {
    getState(): {
      timeline?: {
        live: {
          devices: {
            frames: { free: { count: number }; hugeFrames: number; giantFrames: number; normalPagesUsed: number; splitFrames: number };
          }[];
          handles: Sized;
          physical: Sized;
          reservations: Sized;
          mappings: Sized;
          hostBuffers: Sized;
          allocations: Sized;
        };
      };
    };
  };
}

/** Device 0's pools and the live VMM and host objects in the page's replica. */
async function pools(page: Page) {
  return page.evaluate(() => {
    const live = (window.__pagelens as unknown as StoreHooks).store.getState().timeline?.live;
    const device = live?.devices[0];
    if (live === undefined || device === undefined) throw new Error('no replica');
    const { frames } = device;
    return {
      freeFrames: frames.free.count,
      hugeFrames: frames.hugeFrames,
      giantFrames: frames.giantFrames,
      normalPagesUsed: frames.normalPagesUsed,
      splitFrames: frames.splitFrames,
      objects:
        live.handles.size +
        live.physical.size +
        live.reservations.size +
        live.mappings.size +
        live.hostBuffers.size +
        live.allocations.size,
    };
  });
}

const STEPS: readonly (readonly [string, readonly string[]])[] = [
  ['granularity', ['aclrtSetDevice', 'aclrtMemGetAllocationGranularity']],
  ['physical', ['aclrtMallocPhysical']],
  ['reserve', ['aclrtReserveMemAddress']],
  ['map', ['aclrtMapMem']],
  ['access', ['aclrtMemSetAccess']],
  ['use', ['aclrtMallocHost', 'aclrtMemcpy']],
  ['unmap', ['aclrtUnmapMem']],
  ['release', ['aclrtReleaseMemAddress']],
  ['freePhysical', ['aclrtFreePhysical', 'aclrtFreeHost']],
];

test('a full VMM wizard run, by keyboard, from granularity to free physical: every pool back at baseline', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const baseline = await pools(page);
  await page.keyboard.press('w');
  const wizard = page.getByTestId('vmm-wizard');
  await expect(wizard).toBeVisible();
  await expect(wizard.getByTestId('wizard-call')).toContainText(
    'aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity);',
  );
  await expect(wizard).toContainText('.memAttr = ACL_HBM_MEM_HUGE');
  await expect(wizard).toContainText('VM-2');
  for (const [step, fns] of STEPS) {
    await expect(wizard.getByTestId(`wizard-step-${step}`)).toHaveAttribute('data-status', 'current');
    await expect(wizard.getByTestId('wizard-next')).toBeFocused();
    if (step === 'use') await expect(wizard.getByTestId('wizard-call')).toContainText('aclrtMemcpy(');
    if (step === 'freePhysical') await snap(page, 'vmm-wizard-free-physical');
    await page.keyboard.press('Enter');
    await idle(page);
    const result = wizard.getByTestId('wizard-result');
    await expect(result).toHaveAttribute('data-step', step);
    for (const fn of fns) await expect(result).toContainText(`${fn} → ACL_SUCCESS`);
    await expect(wizard.getByTestId(`wizard-step-${step}`)).toHaveAttribute('data-status', 'done');
    if (step === 'granularity') await expect(result).toContainText('granularity = 2097152');
    if (step === 'physical') {
      await expect(result).toContainText('handle = 0x');
      expect((await pools(page)).hugeFrames).toBe(baseline.hugeFrames + 1);
    }
    if (step === 'reserve') await expect(result).toContainText('virPtr = 0x');
    if (step === 'map') await snap(page, 'vmm-wizard-mapped');
  }
  await expect(wizard.getByTestId('wizard-done')).toContainText('Done');
  await expect(wizard.getByTestId('wizard-baseline')).toHaveAttribute('data-at-baseline', 'true');
  expect(await pools(page)).toEqual(baseline);
  await snap(page, 'vmm-wizard-done');
  await page.keyboard.press('Escape');
  await expect(wizard).toBeHidden();
});

test('misuse lessons: release while mapped fails (VM-8); free physical while mapped is deferred to the unmap (VM-8)', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  const baseline = await pools(page);
  await page.getByTestId('actions-tab-vmm').click();
  await page.getByTestId('open-wizard').click();
  const wizard = page.getByTestId('vmm-wizard');
  const next = wizard.getByTestId('wizard-next');
  for (const step of ['granularity', 'physical', 'reserve', 'map']) {
    await expect(wizard.getByTestId(`wizard-step-${step}`)).toHaveAttribute('data-status', 'current');
    await next.click();
    await idle(page);
  }
  await wizard.getByTestId('lesson-release-while-mapped').click();
  await idle(page);
  const lesson = wizard.getByTestId('lesson-result');
  await expect(lesson).toContainText('ACL_ERROR_INVALID_PARAM (100000)');
  await expect(lesson).toContainText('call aclrtUnmapMem first (VM-8)');
  await expect(lesson).toContainText('As expected.');
  await wizard.getByTestId('lesson-free-physical-while-mapped').click();
  await idle(page);
  await expect(lesson).toContainText('aclrtFreePhysical → ACL_SUCCESS');
  await expect(lesson).toContainText('aclrtUnmapMem releases them (VM-8)');
  // The memory is still there, held by the mapping.
  expect((await pools(page)).hugeFrames).toBe(baseline.hugeFrames + 1);
  await snap(page, 'vmm-wizard-lessons');
  for (const step of ['access', 'use', 'unmap', 'release', 'freePhysical']) {
    await expect(wizard.getByTestId(`wizard-step-${step}`)).toHaveAttribute('data-status', 'current');
    if (step === 'freePhysical') await expect(wizard).toContainText('already freed while mapped');
    await next.click();
    await idle(page);
    if (step === 'unmap') expect((await pools(page)).hugeFrames).toBe(baseline.hugeFrames);
  }
  await expect(wizard.getByTestId('wizard-done')).toBeVisible();
  expect(await pools(page)).toEqual(baseline);
});

test('the unaligned-size lesson at the physical step shows VM-2 without moving on', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.keyboard.press('w');
  const wizard = page.getByTestId('vmm-wizard');
  await wizard.getByTestId('wizard-attr-ACL_HBM_MEM_NORMAL').check();
  await expect(wizard.getByTestId('wizard-call')).toContainText('.memAttr = ACL_HBM_MEM_NORMAL');
  await wizard.getByTestId('wizard-next').click();
  await idle(page);
  await expect(wizard.getByTestId('wizard-result')).toContainText('granularity = 2097152');
  await wizard.getByTestId('lesson-physical-unaligned').click();
  await idle(page);
  const lesson = wizard.getByTestId('lesson-result');
  await expect(lesson).toContainText('ACL_ERROR_INVALID_PARAM (100000)');
  await expect(lesson).toContainText('multiple of the granularity 2097152 (VM-2)');
  await expect(wizard.getByTestId('wizard-step-physical')).toHaveAttribute('data-status', 'current');
});

test.describe('on a product without VMM', () => {
  test.use({ agentArgs: ['--profile', 'Ascend310P3'] });

  test('a failing step stays put and shows the ACL error (VM-10)', async ({ page, agent }) => {
    await openExplorer(page, agent);
    await page.keyboard.press('w');
    const wizard = page.getByTestId('vmm-wizard');
    await wizard.getByTestId('wizard-next').click();
    await idle(page);
    await expect(wizard.getByRole('alert')).toContainText(
      'ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): Ascend310P3 has no virtual memory management (VM-10)',
    );
    await expect(wizard.getByTestId('wizard-step-granularity')).toHaveAttribute('data-status', 'failed');
    await expect(wizard.getByTestId('wizard-next')).toHaveText('Try Granularity again');
    await expect(wizard).toContainText('The call failed, so the wizard stays on this step.');
    await snap(page, 'vmm-wizard-failed');
  });
});

/** Resets the host from the Host tab, as a driver would, and waits until the page holds the fresh host. */
async function resetHost(page: Page): Promise<void> {
  await page.getByTestId('actions-tab-host').click();
  await page.locator('.act-reset > summary').click();
  await page.getByTestId('reset-host').click();
  await page.getByTestId('reset-confirm').click();
  await page.waitForFunction(
    () => (window.__pagelens as unknown as { store: { getState(): { hostResets: number } } }).store.getState().hostResets === 1,
  );
  await idle(page);
}

test('a side panel, not a modal: the address space shows each step while the wizard stays open', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.keyboard.press('w');
  const wizard = page.getByTestId('vmm-wizard');
  await wizard.getByTestId('wizard-watch').click();
  await expect(page.getByTestId('tab-address')).toHaveAttribute('aria-selected', 'true');
  for (const step of ['granularity', 'physical', 'reserve', 'map']) {
    await wizard.getByTestId('wizard-next').click();
    await idle(page);
    await expect(wizard.getByTestId(`wizard-step-${step}`)).toHaveAttribute('data-status', 'done');
  }
  // The centre is usable beside the wizard: the mapping just made is in the table, and its row can be clicked.
  await expect(wizard).toBeVisible();
  const mapping = page.getByTestId('mapping-table').locator('tr[data-kind="mapping"]');
  await expect(mapping).toHaveCount(1);
  await mapping.click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-kind', 'mapping');
  const box = await wizard.boundingBox();
  const centre = await page.locator('.column.center').boundingBox();
  if (box === null || centre === null) throw new Error('not laid out');
  expect(box.x + box.width).toBeLessThanOrEqual(centre.x);
  await snap(page, 'vmm-wizard-side-panel');

  // A done step opens again, read-only, with what it answered; "back" returns to the current step.
  await wizard.getByTestId('wizard-step-granularity').click();
  await expect(wizard.getByTestId('wizard-reopened')).toHaveAttribute('data-step', 'granularity');
  await expect(wizard.getByTestId('wizard-reopened')).toContainText('granularity = 2097152');
  await expect(wizard.getByTestId('wizard-next')).toHaveCount(0);
  await wizard.getByTestId('wizard-back').click();
  await expect(wizard.getByTestId('wizard-step-access')).toHaveAttribute('data-status', 'current');

  // Start over: step 1 again, nothing marked done.
  await wizard.getByTestId('wizard-start-over').click();
  await expect(wizard.getByTestId('wizard-step-granularity')).toHaveAttribute('data-status', 'current');
  await expect(wizard.locator('[data-status="done"]')).toHaveCount(0);
});

test('after a host reset the wizard starts fresh and a whole run succeeds on the new host', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.keyboard.press('w');
  const wizard = page.getByTestId('vmm-wizard');
  for (const step of ['granularity', 'physical', 'reserve', 'map']) {
    await wizard.getByTestId('wizard-next').click();
    await idle(page);
    await expect(wizard.getByTestId(`wizard-step-${step}`)).toHaveAttribute('data-status', 'done');
  }
  await page.keyboard.press('Escape');
  await expect(wizard).toBeHidden();
  await resetHost(page);
  expect((await pools(page)).objects).toBe(0);

  await page.keyboard.press('w');
  await expect(wizard).toBeVisible();
  await expect(wizard.getByTestId('wizard-reset-note')).toContainText('The host was reset');
  await expect(wizard.getByTestId('wizard-step-granularity')).toHaveAttribute('data-status', 'current');
  await expect(wizard.locator('[data-status="done"]')).toHaveCount(0);
  await expect(wizard.getByTestId('wizard-result')).toHaveCount(0);
  await snap(page, 'vmm-wizard-after-reset');
  for (const [step, fns] of STEPS) {
    await expect(wizard.getByTestId(`wizard-step-${step}`)).toHaveAttribute('data-status', 'current');
    await wizard.getByTestId('wizard-next').click();
    await idle(page);
    for (const fn of fns) await expect(wizard.getByTestId('wizard-result')).toContainText(`${fn} → ACL_SUCCESS`);
  }
  await expect(wizard.getByTestId('wizard-done')).toBeVisible();
  await expect(wizard.getByTestId('wizard-baseline')).toHaveAttribute('data-at-baseline', 'true');
});

test('a host reset clears the Host tab’s last result', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.getByTestId('actions-tab-host').click();
  await page.getByTestId('host-aclrtMallocHost').click();
  await idle(page);
  await expect(page.getByTestId('host-result')).toContainText('aclrtMallocHost → ACL_SUCCESS');
  await resetHost(page);
  await expect(page.getByTestId('host-result')).toBeEmpty();
  await expect(page.getByTestId('host-helpers')).toContainText('No host buffers yet');
});
