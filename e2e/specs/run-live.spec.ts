import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../support/agent-process.ts';
import { expect, openExplorer, snap, test } from '../support/fixtures.ts';

/*
 * Issue 14, "Done when": a C program that never heard of PageLens, built with `pagelens flags`,
 * runs under `pagelens run` with its allocations live in the browser. The program allocates one
 * device buffer per line the test writes to its stdin, so every step waits on a state, never on
 * a time. It reports to the test's agent with --agent (the agent's program socket). Simulation
 * mode: every number comes from the simulator.
 */

const BIN = join(REPO_ROOT, 'apps/agent/bin/pagelens.mjs');
const SOURCE = join(REPO_ROOT, 'apps/agent/test/run/live/steps.c');
const MiB = 1024 * 1024;

/** Compiled at test time with `pagelens flags`, as a user would. */
function buildProgram(): string {
  const flags = execFileSync(process.execPath, [BIN, 'flags'], { encoding: 'utf8' }).trim().split(/\s+/);
  const program = join(mkdtempSync(join(tmpdir(), 'pagelens-run-live-')), 'steps');
  execFileSync('cc', [...flags, SOURCE, '-o', program], { stdio: 'pipe' });
  return program;
}

/** `pagelens run --agent URL -- PROGRAM`, its stdin ours, its output collected. */
function runProgram(
  program: string,
  url: string,
): { child: ChildProcess; printed: (pattern: RegExp) => Promise<void>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, 'run', '--agent', url, '--', program], { stdio: ['pipe', 'pipe', 'pipe'] });
  let text = '';
  const waiting: { pattern: RegExp; done: () => void }[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const item of [...waiting]) if (item.pattern.test(text)) item.done();
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const printed = (pattern: RegExp) =>
    new Promise<void>((done) => {
      if (pattern.test(text)) done();
      else waiting.push({ pattern, done });
    });
  return { child, printed, exit };
}

/** The program's live device allocations as the page holds them. */
function allocationsOf(page: Page, pid: number): Promise<number[]> {
  return page.evaluate((owner) => {
    type Live = { allocations: Map<number, { pid: number; size: number }> };
    const hooks = window.__pagelens as unknown as { store: { getState(): { timeline?: { live: Live } } } };
    const live = hooks.store.getState().timeline?.live;
    return [...(live?.allocations.values() ?? [])].filter((item) => item.pid === owner).map((item) => item.size);
  }, pid);
}

test('a browser watches a program’s allocations appear while it runs, in its own process, and sees it exit', async ({ page, agent }) => {
  const program = buildProgram();
  await openExplorer(page, agent);
  const run = runProgram(program, agent.url);
  await run.printed(/steps: ready/);

  const panel = page.getByTestId('processes');
  const row = panel.getByTestId('process-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('steps');
  await expect(row).toContainText('simulated');
  await expect(row.getByTestId('process-state')).toHaveText('running');
  const pid = Number(await row.getAttribute('data-pid'));

  run.child.stdin?.write('4\n');
  await run.printed(/allocated 4 MiB/);
  await expect.poll(() => allocationsOf(page, pid)).toEqual([4 * MiB]);
  run.child.stdin?.write('6\n');
  await run.printed(/allocated 6 MiB/);
  await expect.poll(() => allocationsOf(page, pid)).toEqual([4 * MiB, 6 * MiB]);
  await expect(row.getByTestId('process-calls')).toHaveText('3 calls');

  // Choosing the program filters the log to its calls, each naming the calling thread.
  await row.getByRole('button').click();
  await expect(row.getByRole('button')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('tab-log').click();
  const rows = page.getByTestId('log-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('aclrtMalloc');
  await expect(rows.nth(1).getByTestId('log-thread')).toContainText(/thread \d+/);
  await snap(page, 'run-live-log-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('tab-address').click();
  await expect(page.getByTestId('address-space')).toHaveAttribute('data-pid', String(pid));
  await snap(page, 'run-live-address-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('tab-pages').click();
  await snap(page, 'run-live-pages-1280');

  run.child.stdin?.end();
  expect(await run.exit).toBe(7);
  await expect(row.getByTestId('process-state')).toHaveText('exited with code 7');
  await expect.poll(() => allocationsOf(page, pid)).toEqual([]);
  await snap(page, 'run-live-exited-1280');
});

test('the process filter narrows every view to one program: chip, log, page map, host and copies, Shift+P', async ({ page, agent }) => {
  const program = buildProgram();
  await openExplorer(page, agent);
  const first = runProgram(program, agent.url);
  await first.printed(/steps: ready/);
  const second = runProgram(program, agent.url);
  await second.printed(/steps: ready/);
  first.child.stdin?.write('4\n');
  await first.printed(/allocated 4 MiB/);
  second.child.stdin?.write('6\n');
  await second.printed(/allocated 6 MiB/);
  second.child.stdin?.write('2\n');
  await second.printed(/allocated 2 MiB/);

  const rows = page.getByTestId('processes').getByTestId('process-row');
  await expect(rows).toHaveCount(2);
  const [a, b] = [Number(await rows.nth(0).getAttribute('data-pid')), Number(await rows.nth(1).getAttribute('data-pid'))];
  await expect.poll(() => allocationsOf(page, a)).toEqual([4 * MiB]);
  await expect.poll(() => allocationsOf(page, b)).toEqual([6 * MiB, 2 * MiB]);
  const chip = page.getByTestId('process-filter-chip');
  await expect(chip).toHaveCount(0);

  // The page map: the other program's memory is dimmed, and the map says so.
  await rows.nth(0).getByRole('button').click();
  await expect(chip).toHaveAttribute('data-pid', String(a));
  await expect(chip).toContainText(`Showing process ${a} (steps)`);
  await expect(page.getByTestId('page-map')).toHaveAttribute('data-process', String(a));
  await expect(page.getByTestId('page-map-dimmed')).toContainText(`other than ${a}`);
  // Zoomed to the chosen program's allocation, the other's frames beside it are drawn faded (looked at in the screenshot).
  await page.evaluate((owner) => {
    type Store = {
      getState(): { timeline?: { live: { allocations: Map<number, { id: number; pid: number }> } }; select(ref: unknown): void };
    };
    const store = (window.__pagelens as unknown as { store: Store }).store;
    const mine = [...(store.getState().timeline?.live.allocations.values() ?? [])].find((item) => item.pid === owner);
    if (mine !== undefined) store.getState().select({ kind: 'allocation', id: mine.id, device: 0 });
  }, a);
  await page.keyboard.press('z');
  await snap(page, 'run-filter-pages-1280');

  // The log: only the chosen program's calls (aclrtSetDevice and one aclrtMalloc), then the other's.
  await page.getByTestId('tab-log').click();
  const logRows = page.getByTestId('log-row');
  await expect(logRows).toHaveCount(2);
  await page.keyboard.press('Shift+P');
  await expect(chip).toHaveAttribute('data-pid', String(b));
  await expect(logRows).toHaveCount(3);
  await expect(rows.nth(1).getByRole('button')).toHaveAttribute('aria-pressed', 'true');
  await snap(page, 'run-filter-log-1280');

  // Host & copies and the address space follow the same filter; the chip stays in sight above them.
  await page.getByTestId('tab-host').click();
  await expect(chip).toBeVisible();
  await page.getByTestId('tab-address').click();
  await expect(page.getByTestId('address-space')).toHaveAttribute('data-pid', String(b));

  // Past the last program Shift+P shows every process again; the chip's button does the same.
  await page.keyboard.press('Shift+P');
  await expect(chip).toHaveCount(0);
  await page.getByTestId('tab-log').click();
  await expect(logRows).toHaveCount(5);
  await page.keyboard.press('Shift+P');
  await expect(chip).toHaveAttribute('data-pid', String(a));
  await page.getByTestId('process-filter-clear').click();
  await expect(chip).toHaveCount(0);
  await expect(logRows).toHaveCount(5);

  first.child.stdin?.end();
  second.child.stdin?.end();
  expect(await first.exit).toBe(7);
  expect(await second.exit).toBe(7);
});
