import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from './agent-process.ts';

export const ARTIFACTS = join(REPO_ROOT, 'e2e', '.artifacts');

export function agentUrl(): { url: string; origin: string; token: string } {
  const url = process.env.PAGELENS_E2E_URL;
  const origin = process.env.PAGELENS_E2E_ORIGIN;
  const token = process.env.PAGELENS_E2E_TOKEN;
  if (url === undefined || origin === undefined || token === undefined) throw new Error('the e2e global setup did not start an agent');
  return { url, origin, token };
}

/** Saves a full-page screenshot under e2e/.artifacts/ for a person to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
