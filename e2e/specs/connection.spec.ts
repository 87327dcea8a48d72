import { expect, test } from '@playwright/test';
import { agentUrl, snap } from '../support/fixtures.ts';

test('opening the printed URL shows the connected state', async ({ page }) => {
  const { url } = agentUrl();
  await page.goto(url);
  const badge = page.getByTestId('connection');
  await expect(badge).toHaveAttribute('data-state', 'connected');
  await expect(badge).toContainText('simulator');
  await expect(badge).toContainText('protocol 1');
  await snap(page, 'connection-connected');
});

test('a wrong token shows the not-authorised state with what to do', async ({ page }) => {
  const { origin } = agentUrl();
  await page.goto(`${origin}/?token=not-the-token`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'unauthorized');
  await expect(page.getByRole('alert')).toContainText('open the URL it printed most recently');
  await snap(page, 'connection-unauthorized');
});

test('a page without a token explains where to get one', async ({ page }) => {
  const { origin } = agentUrl();
  await page.goto(`${origin}/`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'no-token');
  await expect(page.getByRole('alert')).toContainText('?token=');
  await snap(page, 'connection-no-token');
});
