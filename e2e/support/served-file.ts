import { expect, type Page } from '@playwright/test';
import { startAgent } from './agent-process.ts';

/**
 * `pagelens open PATH` with the page on it: `check` runs on the loaded page, then the page must have
 * fetched the file the agent serves and never opened a session's WebSocket; the agent stops after.
 */
export async function withServedFile(page: Page, path: string, check: () => Promise<void>): Promise<void> {
  const agent = await startAgent(['open', path]);
  try {
    const fetched: string[] = [];
    const note = (request: { url(): string }) => fetched.push(new URL(request.url()).pathname);
    page.on('request', note);
    await page.goto(agent.url);
    await check();
    page.off('request', note);
    expect(fetched).toContain('/file');
    expect(fetched).not.toContain('/ws');
  } finally {
    await agent.stop();
  }
}
