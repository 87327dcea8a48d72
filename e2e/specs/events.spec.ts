import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, idle, openExplorer, test } from '../support/fixtures.ts';

/**
 * A program with a created context, two streams, a copy, an event recorded after it and a second
 * stream waiting on the event (CX-1, EV-1, EV-2, EV-3). No synchronize: at the end the copy's
 * work, and so the event, is still running.
 */
const PROGRAM = `aclInit(nullptr);
aclrtSetDevice(0);
aclrtContext ctx = nullptr;
aclrtCreateContext(&ctx, 0);
aclrtStream copies = nullptr;
aclrtStream waiter = nullptr;
aclrtCreateStream(&copies);
aclrtCreateStream(&waiter);
void* host = nullptr;
aclrtMallocHost(&host, 67108864);
void* dev = nullptr;
aclrtMalloc(&dev, 67108864, ACL_MEM_MALLOC_HUGE_FIRST);
aclrtMemcpyAsync(dev, 67108864, host, 67108864, ACL_MEMCPY_HOST_TO_DEVICE, copies);
aclrtEvent done = nullptr;
aclrtCreateEvent(&done);
aclrtRecordEvent(done, copies);
aclrtStreamWaitEvent(waiter, done);`;

/** Screenshots a person looks at (outside the repository unless PAGELENS_SHOTS says where). */
const SHOTS = process.env.PAGELENS_SHOTS ?? '/tmp/pagelens-events';

async function shot(target: Page | Locator, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const status = (page: Page): Locator => page.getByTestId('pl-status');

/** Types the program into the playground as a person would and runs it to the end (r). */
async function runProgram(page: Page): Promise<void> {
  await page.keyboard.press('6');
  await expect(page.getByTestId('playground')).toBeVisible();
  await page.getByTestId('pl-editor').locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(PROGRAM);
  await status(page).click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await idle(page);
}

test('a program with a context and an event: the timeline marks the record and the wait, the inspector shows the event', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  // The Actions panel's Call tab groups the new functions under Contexts and Events.
  await page.getByTestId('actions-tab-call').click();
  await expect(page.getByTestId('call-fn').locator('optgroup[label="Events"] option', { hasText: 'aclrtRecordEvent' })).toHaveCount(1);
  await expect(page.getByTestId('call-fn').locator('optgroup[label="Contexts"] option', { hasText: 'aclrtCreateContext' })).toHaveCount(1);
  await runProgram(page);

  // Host & copies: a record mark on the copy's stream and a wait mark on the other, from it.
  await page.getByTestId('tab-host').click();
  await expect(page.getByTestId('host-copies')).toBeVisible();
  const marks = page.getByTestId('event-mark');
  await expect(marks).toHaveCount(2);
  const record = marks.and(page.locator('[data-kind="record"]'));
  const wait = marks.and(page.locator('[data-kind="wait"]'));
  await expect(record).toHaveAttribute('data-rule', 'EV-2');
  await expect(wait).toHaveAttribute('data-rule', 'EV-3');
  const copyStream = `lane-stream-${await record.getAttribute('data-stream')}`;
  expect(await wait.getAttribute('data-stream')).not.toBe(await record.getAttribute('data-stream'));
  // The record completes when the copy does: the wait holds the second stream until then.
  expect(await wait.getAttribute('data-at')).toBe(await record.getAttribute('data-at'));
  await expect(record).toHaveAttribute('aria-label', /Event 0x[0-9a-f]+ recorded on stream #\d+: .* \(EV-2\)/);
  await expect(page.getByTestId('copy-legend')).toContainText('event recorded (EV-2)');

  // The canvas tooltip at the record mark: find the mark by its time on the plot.
  const plot = await page.getByTestId('copy-plot').boundingBox();
  const lane = await page.getByTestId(copyStream).boundingBox();
  if (plot === null || lane === null) throw new Error('timeline not laid out');
  const y = lane.y + lane.height / 2;
  let tip: string | null = null;
  for (let x = plot.x + plot.width - 2; x > plot.x && tip === null; x -= 3) {
    await page.mouse.move(x, y);
    tip = await page.evaluate(() => document.querySelector('[data-testid="mark-tooltip"]')?.textContent ?? null);
  }
  expect(tip).toMatch(/recorded on stream #\d+.*\(EV-2\)/);
  // Just before the mark on the same lane is the copy whose work the event captured.
  let copyTip: string | null = null;
  for (let x = plot.x + plot.width / 2; x > plot.x && copyTip === null; x -= 6) {
    await page.mouse.move(x, y);
    copyTip = await page.evaluate(() => document.querySelector('[data-testid="copy-tooltip"]')?.textContent ?? null);
  }
  expect(copyTip).toContain('aclrtMemcpyAsync');
  await page.mouse.move(plot.x + 5, plot.y + plot.height + 60);

  // Keyboard: Tab to the record mark and Enter selects its event in the inspector.
  await record.focus();
  await page.keyboard.press('Enter');
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-kind', 'event');
  await expect(inspector.getByTestId('fact-flags')).toContainText('ACL_EVENT_TIME_LINE');
  await expect(inspector.getByTestId('fact-recordedOn')).toContainText(`Stream #${await record.getAttribute('data-stream')}`);
  await expect(inspector.getByTestId('fact-recordedAt')).toContainText('simulator’s virtual clock');
  await expect(inspector.getByTestId('fact-status')).toContainText('not ready');
  await expect(inspector.getByTestId('fact-context')).toContainText('Context #');
  await expect(record).toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'timeline-en');
  await shot(inspector, 'inspector-event-en');

  // The event's context: created, current, with its streams and the event.
  await inspector.getByTestId('fact-context').getByRole('button').click();
  await expect(inspector).toHaveAttribute('data-kind', 'context');
  await expect(inspector.getByTestId('fact-origin')).toContainText('aclrtCreateContext');
  await expect(inspector.getByTestId('fact-current')).toContainText('current context');
  await expect(inspector.getByTestId('fact-streams')).toHaveText(/3/);
  await shot(inspector, 'inspector-context-en');

  // 中文: the same views.
  await page.getByTestId('language').selectOption('zh');
  await record.click();
  await expect(inspector).toHaveAttribute('data-kind', 'event');
  await expect(inspector.getByTestId('fact-status')).toContainText('未就绪');
  await expect(page.getByTestId('event-marks')).toContainText('Event 标记');
  await shot(page, 'timeline-zh');
  await shot(inspector, 'inspector-event-zh');
});

test('the two-streams scenario (a context, two streams, events, async copies, a wait, full teardown) runs with no ACL error and marks its events', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await page.keyboard.press('6');
  await expect(page.getByTestId('playground')).toBeVisible();
  await page.getByTestId('pl-scenario').selectOption('builtin:streams-and-events');
  await status(page).click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await expect(status(page)).toContainText('Finished: returned 0');
  // Every call is wrapped in ACL_CHECK, which returns 1 on a failure: "returned 0" with no ACL error means the
  // teardown (frees, event and stream destroys, the context, reset, finalize) succeeded too.
  await expect(page.getByTestId('pl-acl-errors')).toHaveAttribute('data-count', '0');
  await idle(page);

  // Two records on the copy stream (start, loaded) and the compute stream's wait on "loaded", from it (EV-2, EV-3).
  await page.getByTestId('tab-host').click();
  const marks = page.getByTestId('event-mark');
  await expect(marks).toHaveCount(3);
  const records = marks.and(page.locator('[data-kind="record"]'));
  const wait = marks.and(page.locator('[data-kind="wait"]'));
  await expect(records).toHaveCount(2);
  await expect(wait).toHaveCount(1);
  const loadedAt = await records.nth(1).getAttribute('data-at');
  expect(await wait.getAttribute('data-at')).toBe(loadedAt);
  expect(await wait.getAttribute('data-stream')).not.toBe(await records.nth(1).getAttribute('data-stream'));
});
