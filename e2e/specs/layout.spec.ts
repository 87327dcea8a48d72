import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';
import { type LayoutProblem, measureLayout } from '../support/layout-probe.ts';
import { stepTo } from '../support/playground-steps.ts';

const MiB = 1024 * 1024;
const PROP = { handleType: 0, allocationType: 0, memAttr: 'ACL_HBM_MEM_HUGE', location: { type: 1, id: 0 }, reserve: 0 };
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;
const VIEWS = ['pages', 'address', 'tlb', 'host', 'log', 'playground'] as const;
const ACTION_TABS = ['allocate', 'call', 'copy', 'host', 'vmm'] as const;
/** The views that can sit beside the playground's code (the split layout). */
const BESIDE = ['pages', 'address', 'log', 'tlb', 'host'] as const;

async function ok(page: Page, fn: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await callAcl(page, fn, args);
  expect(result.ok, `${fn}: ${result.message ?? ''}`).toBe(true);
  return result.out ?? {};
}

/**
 * Something in every view: allocations under several policies, a VMM mapping, pinned and pageable
 * host buffers and a copy between them, so tables, the inspector and the copy form have content.
 */
async function scene(page: Page): Promise<void> {
  await ok(page, 'aclInit', { configPath: null });
  await ok(page, 'aclrtSetDevice', { deviceId: 0 });
  const { devPtr } = await ok(page, 'aclrtMalloc', { size: 64 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await ok(page, 'aclrtMalloc', { size: MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST_P2P' });
  await ok(page, 'aclrtMalloc', { size: 64 * 1024, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
  const { handle } = await ok(page, 'aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
  const { virPtr } = await ok(page, 'aclrtReserveMemAddress', { size: 4 * MiB, alignment: 0, expectPtr: null, flags: 0 });
  await ok(page, 'aclrtMapMem', { virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
  const desc = [{ flags: 3, location: { type: 1, id: 0 }, rsv: [0, 0, 0, 0] }];
  await ok(page, 'aclrtMemSetAccess', { virPtr, size: 2 * MiB, desc, count: 1 });
  // A second mapping without aclrtMemSetAccess: its Access cell carries the longer modeled note (VM-7).
  const second = await ok(page, 'aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
  const bare = await ok(page, 'aclrtReserveMemAddress', { size: 2 * MiB, alignment: 0, expectPtr: null, flags: 0 });
  await ok(page, 'aclrtMapMem', { virPtr: bare.virPtr, size: 2 * MiB, offset: 0, handle: second.handle, flags: 0 });
  const { ptr } = await ok(page, 'malloc', { size: 64 * MiB });
  await ok(page, 'aclrtMallocHost', { size: MiB });
  await ok(page, 'aclrtMemcpy', { dst: devPtr, destMax: 64 * MiB, src: ptr, count: 64 * MiB, kind: 'ACL_MEMCPY_HOST_TO_DEVICE' });
  await idle(page);
}

/** The first allocation selected, so the inspector shows its policy, reasons and story. */
async function selectFirstAllocation(page: Page): Promise<void> {
  await page.getByTestId('tab-address').click();
  await page.getByTestId('mapping-table').locator('tr[data-kind="allocation"]').first().click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-kind', 'allocation');
}

async function setLanguage(page: Page, language: 'en' | 'zh'): Promise<void> {
  await page.getByTestId('language').selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('lang', language === 'zh' ? 'zh-CN' : 'en');
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  // The toggle's buttons read "Light"/"Dark" or "浅色"/"深色"; their order is fixed.
  await page
    .getByTestId('theme-toggle')
    .locator('button')
    .nth(theme === 'light' ? 0 : 1)
    .click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

async function showView(page: Page, view: (typeof VIEWS)[number]): Promise<void> {
  await page.getByTestId(`tab-${view}`).click();
  await expect(page.getByTestId(`tab-${view}`)).toHaveAttribute('aria-selected', 'true');
  // The lazy view has replaced Suspense's fallback (a bare muted line in the view body).
  await expect(page.locator('.view-body > p.muted, .split-loading')).toHaveCount(0);
  await idle(page);
}

/** The playground's layout as its toggle shows it: code beside memory (split) or alone (tab). */
async function setPlaygroundLayout(page: Page, layout: 'split' | 'tab'): Promise<void> {
  const toggle = page.getByTestId('split-toggle');
  if ((await toggle.getAttribute('aria-pressed')) !== String(layout === 'split')) await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', String(layout === 'split'));
  await expect(page.getByTestId('split-view')).toHaveCount(layout === 'split' ? 1 : 0);
}

async function showBeside(page: Page, view: (typeof BESIDE)[number]): Promise<void> {
  await page.getByTestId(`beside-tab-${view}`).click();
  await expect(page.getByTestId('split-beside')).toHaveAttribute('data-view', view);
  await expect(page.locator('.split-loading')).toHaveCount(0);
  await idle(page);
}

function listed(problems: readonly LayoutProblem[]): string {
  return problems.map((problem) => `${problem.kind} ${problem.where}: ${problem.detail}`).join('\n');
}

for (const size of SIZES) {
  test(`no horizontal overflow, clipped text or broken identifiers at ${size.width}×${size.height}, in both languages and themes`, async ({
    page,
    agent,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(size);
    await openExplorer(page, agent);
    await scene(page);
    await selectFirstAllocation(page);
    const found: string[] = [];
    for (const language of ['en', 'zh'] as const) {
      await setLanguage(page, language);
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        const at = `${size.width}x${size.height}-${language}-${theme}`;
        // The copy form has the longest select labels; keep it open while every centre view is looked at.
        await page.getByTestId('actions-tab-copy').click();
        for (const view of VIEWS) {
          await showView(page, view);
          // The playground alone here; beside memory in the split test below.
          if (view === 'playground') await setPlaygroundLayout(page, 'tab');
          const problems = await measureLayout(page);
          if (problems.length > 0) found.push(`${at} view ${view}:\n${listed(problems)}`);
          if (size.width < 1920) await snap(page, `layout-${at}-${view}`);
        }
        await showView(page, 'address');
        for (const tab of ACTION_TABS) {
          await page.getByTestId(`actions-tab-${tab}`).click();
          await expect(page.getByTestId(`actions-tab-${tab}`)).toHaveAttribute('aria-selected', 'true');
          const problems = await measureLayout(page);
          if (problems.length > 0) found.push(`${at} actions ${tab}:\n${listed(problems)}`);
        }
        // The VMM wizard in the left column, and the shortcut list over the page.
        await page.getByTestId('open-wizard').click();
        await expect(page.getByTestId('vmm-wizard')).toBeVisible();
        const wizard = await measureLayout(page);
        if (wizard.length > 0) found.push(`${at} wizard:\n${listed(wizard)}`);
        if (size.width < 1920) await snap(page, `layout-${at}-wizard`);
        await page.getByTestId('wizard-close').click();
        await page.getByTestId('help-button').click();
        await expect(page.getByTestId('help-overlay')).toBeVisible();
        const help = await measureLayout(page);
        if (help.length > 0) found.push(`${at} help:\n${listed(help)}`);
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('help-overlay')).toBeHidden();
      }
    }
    expect(found, found.join('\n\n')).toEqual([]);
  });
}

/**
 * The split layout (code beside a memory view): every view beside the code, without a selection and
 * with one (the inspector then lies over the memory pane below 1800 px, or sits in its column); the
 * code paused mid-run so its marks, variables and status line are shown.
 */
for (const size of SIZES) {
  test(`the playground beside each memory view fits at ${size.width}×${size.height}, in both languages and themes`, async ({
    page,
    agent,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(size);
    await openExplorer(page, agent);
    await scene(page);
    await showView(page, 'playground');
    await setPlaygroundLayout(page, 'split');
    await page.getByTestId('pl-scenario').selectOption('builtin:seed-device-memory');
    await page.getByTestId('pl-status').click();
    await stepTo(page, 'aclrtMemcpy(deviceA');
    const found: string[] = [];
    const check = async (at: string) => {
      const problems = await measureLayout(page);
      if (problems.length > 0) found.push(`${at}:\n${listed(problems)}`);
    };
    for (const language of ['en', 'zh'] as const) {
      await setLanguage(page, language);
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        const at = `${size.width}x${size.height}-${language}-${theme}`;
        for (const view of BESIDE) {
          await showBeside(page, view);
          await check(`${at} split beside ${view}`);
          await snap(page, `layout-split-${at}-${view}`);
        }
        await showBeside(page, 'address');
        await page.getByTestId('pl-var-object-deviceA').click();
        await expect(page.getByTestId('inspector')).toHaveAttribute('data-kind', 'allocation');
        await expect(page.getByTestId('inspector')).toBeVisible();
        await check(`${at} split beside address, allocation selected`);
        await snap(page, `layout-split-${at}-selected`);
        await page.getByTestId('pl-status').click();
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('split-inspector')).toHaveCount(0);
        await expect(page.getByTestId('inspector')).toHaveCount(size.width < 1800 ? 0 : 1);
      }
    }
    expect(found, found.join('\n\n')).toEqual([]);
  });
}
