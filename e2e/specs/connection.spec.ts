import { expect, openExplorer, snap, test } from '../support/fixtures.ts';

test('opening the printed URL shows the connected state', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const badge = page.getByTestId('connection');
  await expect(badge).toHaveAttribute('data-state', 'connected');
  await expect(badge).toContainText('simulator');
  await expect(badge).toContainText('protocol 1');
  await expect(page.getByTestId('provenance-banner')).toContainText('Simulated host');
  await snap(page, 'connection-connected');
});

test('a wrong token shows the not-authorised state with what to do', async ({ page, agent }) => {
  await page.goto(`${agent.origin}/?token=not-the-token`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'unauthorized');
  await expect(page.getByRole('alert')).toContainText('open the URL it printed most recently');
  await snap(page, 'connection-unauthorized');
});

test('a page without a token explains where to get one', async ({ page, agent }) => {
  await page.goto(`${agent.origin}/`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'no-token');
  await expect(page.getByRole('alert')).toContainText('?token=');
  await snap(page, 'connection-no-token');
});

test('the help overlay lists the shortcuts and closes with Escape', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help).toBeVisible();
  await expect(help).toContainText('Switch GiB / GB');
  await snap(page, 'help-overlay');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

test('the language switch is remembered: 中文 after a reload', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await page.getByTestId('language').selectOption('zh');
  await expect(page.getByTestId('tab-pages')).toHaveText('页面图');
  await page.reload();
  await expect(page.getByTestId('tab-pages')).toHaveText('页面图');
  await expect(page.getByTestId('connection')).toContainText('已连接');
  await snap(page, 'language-zh');
});

test('no key is bound twice on any view', async ({ page, agent }) => {
  await openExplorer(page, agent);
  const views = ['pages', 'address', 'tlb', 'host', 'log', 'playground'];
  for (const [index, view] of views.entries()) {
    await page.keyboard.press(String(index + 1));
    await expect(page.getByTestId(`tab-${view}`)).toHaveAttribute('aria-selected', 'true');
    const conflicts = await page.evaluate(() => window.__pagelens?.shortcutConflicts() ?? ['no hooks']);
    expect(conflicts, `view ${view}`).toEqual([]);
  }
});

test('a second driver tab is told another client is driving, and can watch as a viewer instead', async ({ page, agent, context }) => {
  await openExplorer(page, agent);
  const second = await context.newPage();
  await second.goto(`${agent.origin}/?token=${agent.token}`);
  await expect(second.getByTestId('connection')).toHaveAttribute('data-state', 'driver-busy');
  const panel = second.getByTestId('driver-busy');
  await expect(panel).toContainText('Another client is driving');
  await expect(panel).toContainText('another driver session is active');
  await expect(panel).not.toContainText('Is the agent still running');
  // The agent's refusal is in the panel, not repeated as a notice.
  await expect(second.getByTestId('notices')).toHaveCount(0);
  await snap(second, 'connection-driver-busy');
  await second.getByTestId('watch-as-viewer').click();
  await expect(second).toHaveURL(/role=viewer/);
  await expect(second.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(second.getByTestId('connection')).toContainText('viewer');
  await second.close();
});
