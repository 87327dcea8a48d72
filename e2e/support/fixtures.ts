import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { REPO_ROOT, type RunningAgent, startAgent } from './agent-process.ts';

export const ARTIFACTS = join(REPO_ROOT, 'e2e', '.artifacts');

/** Saves a full-page screenshot under e2e/.artifacts/ for a person to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export interface AgentOptions {
  /** Extra `pagelens` flags for this test's agent, e.g. ['--profile', 'Ascend310P3', '--devices', '2']. */
  readonly agentArgs: readonly string[];
}

/**
 * Every test gets its own agent (a real `pagelens` process on a free port), so sessions and
 * state never leak between tests. `--resume-grace 0` makes a closed driver page release its
 * session at once.
 */
export const test = base.extend<AgentOptions & { agent: RunningAgent }>({
  agentArgs: [[], { option: true }],
  agent: async ({ agentArgs }, use) => {
    const agent = await startAgent(['--resume-grace', '0', '--max-calls-per-sec', '0', ...agentArgs]);
    await use(agent);
    await agent.stop();
  },
});

export { expect };

/** Opens the explorer as the agent printed it and waits until the first snapshot is shown. */
export async function openExplorer(page: Page, agent: RunningAgent, role: 'driver' | 'viewer' = 'driver'): Promise<void> {
  await page.goto(role === 'viewer' ? `${agent.url}&role=viewer` : agent.url);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(page.locator('.explorer')).toHaveAttribute('data-ready', 'true');
}

/** Waits until no call is pending and the replica is current (the app's own idle hook). */
export async function idle(page: Page): Promise<void> {
  await page.waitForFunction(() => window.__pagelens?.idle().then(() => true));
}

/** aclrtMalloc through the Actions panel's Malloc tab: size, policy and count, then Enter. */
export async function allocate(page: Page, size: string, policy: string, count = 1): Promise<void> {
  await page.getByTestId('actions-tab-allocate').click();
  const field = page.getByTestId('malloc-size');
  await field.fill(size);
  await page.getByTestId('policy').selectOption({ label: policy });
  await page.getByTestId('malloc-count').fill(String(count));
  await field.press('Enter');
  await idle(page);
}

/** Picks, in a buffer dropdown (memcpy source or destination), the first buffer made by `fn`. */
export async function chooseBuffer(select: Locator, fn: string): Promise<void> {
  const option = select.locator('option', { hasText: new RegExp(`· ${fn}$`) }).first();
  await select.selectOption({ label: (await option.textContent()) ?? '' });
}

/** Calls an ACL function through the page's agent connection (for setting up a scene quickly). */
export async function callAcl(
  page: Page,
  fn: string,
  args: Record<string, unknown>,
): Promise<{ ok: boolean; ret?: number; out?: Record<string, unknown>; message?: string }> {
  return page.evaluate(
    async ([name, values]) => {
      const hooks = window.__pagelens;
      if (hooks === undefined) throw new Error('PageLens test hooks are missing');
      const outcome = await hooks.agent.call(name, values);
      return {
        ok: outcome.ok,
        ...(outcome.ret === undefined ? {} : { ret: outcome.ret }),
        ...(outcome.out === undefined ? {} : { out: { ...outcome.out } }),
        ...(outcome.message === undefined ? {} : { message: outcome.message }),
      };
    },
    [fn, args] as const,
  );
}
