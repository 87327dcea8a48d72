import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export const playgroundStatus = (page: Page): Locator => page.getByTestId('pl-status');

/**
 * Steps the playground (n) until it is paused on a line whose text contains `text`; fails after
 * 40 steps. Each step waits for the paused line to move, never for a time.
 */
export async function stepTo(page: Page, text: string): Promise<void> {
  const status = playgroundStatus(page);
  for (let guard = 0; guard < 40; guard += 1) {
    const current = page.getByTestId('pl-editor').locator('.cm-line.pl-line-current');
    if ((await status.getAttribute('data-state')) === 'paused' && ((await current.textContent()) ?? '').includes(text)) return;
    const line = await status.getAttribute('data-line');
    await page.keyboard.press('n');
    await expect(status).toHaveAttribute('data-state', 'paused');
    await expect(status).not.toHaveAttribute('data-line', line ?? '');
  }
  throw new Error(`never paused on a line containing ${text}`);
}
