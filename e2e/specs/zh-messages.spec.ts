import type { Locator } from '@playwright/test';
import { buildDouble } from '../../apps/agent/test/acl/support/acl-double.ts';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

/** Three lowercase Latin words in a row: an English sentence, where identifiers and numbers are not. */
const ENGLISH = /\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b/;

async function noEnglish(where: Locator): Promise<void> {
  const text = (await where.textContent()) ?? '';
  expect(text, text).not.toMatch(ENGLISH);
}

test('in 中文 the agent’s texts read in Chinese: the host note, a failed call in the log, the host-reset notice', async ({
  page,
  agent,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(page, agent);
  const note = page.getByTestId('host-note');
  await expect(note).toContainText('the agent runs on Linux');
  await page.getByTestId('language').selectOption('zh');

  // The host note of the welcome.
  await expect(note).toContainText('模拟的');
  await expect(note).toContainText('Agent 运行于 Linux');
  await noEnglish(note);

  // An ACL error: aclrtFree of an address that was never allocated (DM-13), in the log.
  const failed = await callAcl(page, 'aclrtFree', { devPtr: '0x1234' });
  expect(failed.ok).toBe(false);
  // Scripted clients still get the English text.
  expect(failed.message).toContain('is not the start of a live device allocation');
  await idle(page);
  await page.getByTestId('tab-log').click();
  const row = page.getByTestId('log-row').filter({ hasText: 'aclrtFree' });
  await expect(row).toHaveCount(1);
  const message = row.locator('.log-message');
  await expect(message).toHaveText('devPtr 0x1234 不是本进程一个有效 Device 分配的起始地址（重复释放，或从未分配）（DM-13）');
  await noEnglish(message);
  await expect(row).toHaveAttribute('title', /不是本进程/);
  // The same message in the inspector, once the row is selected.
  await row.click();
  const fact = page.getByTestId('fact-message');
  await expect(fact).toContainText('不是本进程一个有效 Device 分配的起始地址');
  await noEnglish(fact);
  await snap(page, 'zh-messages-log');

  // A host reset through the Host actions: the notice every client gets.
  await page.getByTestId('actions-tab-host').click();
  await page.locator('.act-reset summary').click();
  await page.getByTestId('reset-host').click();
  await page.getByTestId('reset-confirm').click();
  const banner = page.getByTestId('notices').locator('.notice[data-code="reset"]');
  await expect(banner).toHaveText(/^Host 已重置（Ascend\S+ × 1）/);
  await noEnglish(banner);
  await noEnglish(note);
  await snap(page, 'zh-messages-reset');

  // Back in English, the same texts read in English again (rendered from their codes, not stored translated).
  await page.getByTestId('language').selectOption('en');
  await expect(banner).toContainText('the host was reset');
  await expect(note).toContainText('the agent runs on Linux');
});

test('in 中文 a second driver tab reads the agent’s refusal in Chinese', async ({ page, agent, context }) => {
  await openExplorer(page, agent);
  // The language is remembered per browser profile, so the second tab opens in 中文 too.
  await page.getByTestId('language').selectOption('zh');
  const second = await context.newPage();
  await second.goto(`${agent.origin}/?token=${agent.token}`);
  await expect(second.getByTestId('connection')).toHaveAttribute('data-state', 'driver-busy');
  const refusal = second.getByTestId('driver-busy').locator('p').first();
  await expect(refusal).toContainText('已有另一个驱动会话');
  await expect(refusal).toContainText('--allow-takeover');
  await noEnglish(refusal);
  await snap(second, 'zh-messages-driver-busy');
  await second.close();
});

test.describe('on the C test double of the ACL library (not hardware)', () => {
  test.use({
    // Built lazily, as in acl-double.spec.ts, so the other tests never need a C compiler.
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    agentArgs: async ({}, use) => use(['--backend', 'acl', '--acl-lib', buildDouble()]),
  });

  test('in 中文 the host note still says plainly that it is a test double, in Chinese', async ({ page, agent }) => {
    await openExplorer(page, agent);
    const note = page.getByTestId('host-note');
    await expect(note).toContainText('TEST DOUBLE, not hardware');
    await page.getByTestId('language').selectOption('zh');
    await expect(note).toContainText('测试替身，不是硬件');
    await expect(note).toContainText('通过 ACL 无法观察物理帧');
    await expect(note).toContainText('只读');
    // The one English left is the library's own description of itself, quoted as it answered.
    const text = ((await note.textContent()) ?? '').replace(/"[^"]*"/g, '""');
    expect(text, text).not.toMatch(ENGLISH);
  });
});
