import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT } from '../support/agent-process.ts';
import { expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

/** A built-in scenario's C code, read from core's source (the editor only renders the lines in view). */
function scenarioCode(file: string): string {
  const source = readFileSync(join(REPO_ROOT, 'packages/core/src/scenarios', `${file}.ts`), 'utf8');
  const match = /const CODE = `([\s\S]*?)`;/.exec(source);
  if (match?.[1] === undefined) throw new Error(`no CODE in ${file}`);
  return match[1];
}

/** The 1-based line of the first line of `code` containing `text`. */
function lineIn(code: string, text: string): number {
  const index = code.split('\n').findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`no line contains ${text}`);
  return index + 1;
}

/** The gutter mark of `line` (rendered while the line is in view). */
const markOf = (page: Page, line: number): Locator => page.getByTestId('pl-editor').locator(`.pl-mark[data-line="${line}"]`);

/** Brings `line` into view the way a person would: into the editor, to the top, down with the arrow key. */
async function revealLine(page: Page, line: number): Promise<void> {
  await page.getByTestId('pl-editor').locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < line; i += 1) await page.keyboard.press('ArrowDown');
}

/** The playground tab, by its key (6), as the help overlay lists it. */
async function openPlayground(page: Page): Promise<void> {
  await page.keyboard.press('6');
  await expect(page.getByTestId('playground')).toBeVisible();
}

async function pickScenario(page: Page, id: string): Promise<void> {
  await page.getByTestId('pl-scenario').selectOption(`builtin:${id}`);
  // A person clicks away from the picker before using the keys (a focused <select> would eat them).
  await page.getByTestId('pl-status').click();
}

const status = (page: Page): Locator => page.getByTestId('pl-status');

/** Replaces the editor's code as a person would: click into it, select all, type. */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByTestId('pl-editor').locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

test('steps through the seed device-memory sample line by line while the views follow', async ({ page, agent }) => {
  const code = scenarioCode('seed-device-memory');
  const lineOf = async (text: string) => lineIn(code, text);
  await openExplorer(page, agent);
  await openPlayground(page);
  await pickScenario(page, 'seed-device-memory');
  const poolsBefore = await Promise.all(['normal', 'huge', 'giant'].map((pool) => page.getByTestId(`pool-${pool}`).getAttribute('title')));
  await expect(status(page)).toHaveAttribute('data-state', 'idle');
  await snap(page, 'playground-device-idle');

  // Step (n): the first step stops before the first statement.
  await page.keyboard.press('n');
  await expect(status(page)).toHaveAttribute('data-state', 'paused');
  await expect(status(page)).toHaveAttribute('data-line', String(await lineOf('int32_t deviceId')));

  // Then one key press per statement until STEP 3 is done: the code pauses before STEP 4's first copy.
  const step4 = await lineOf('aclrtMemcpy(deviceA');
  const lines: number[] = [];
  for (let guard = 0; guard < 40; guard += 1) {
    const line = Number(await status(page).getAttribute('data-line'));
    lines.push(line);
    if (line === step4) break;
    await page.keyboard.press('n');
    await expect(status(page)).not.toHaveAttribute('data-line', String(line));
    await expect(status(page)).toHaveAttribute('data-state', 'paused');
  }
  expect(lines.at(-1)).toBe(step4);
  // Every statement line was visited in order, skipping comments, blank lines and the "..." placeholder.
  expect(lines).toEqual([...lines].sort((a, b) => a - b));
  expect(lines).toContain(await lineOf('aclrtMalloc(&deviceOut'));
  expect(lines).not.toContain(await lineOf('...'));
  await idle(page);

  // Executed lines carry marks: aclrtMalloc succeeded; the placeholder line is a note.
  const mallocLine = await lineOf('aclrtMalloc(&deviceA');
  await expect(markOf(page, mallocLine)).toHaveAttribute('data-kind', 'ok');
  await expect(markOf(page, mallocLine)).toHaveAttribute('title', /aclrtMalloc → ACL_SUCCESS/);
  await expect(page.getByTestId('pl-variables').locator('tr[data-name="deviceA"]')).toContainText(/0x[0-9a-f]+/);
  await expect(page.getByTestId('device-objects')).toContainText('3 allocations');
  // A pointer variable selects its allocation in every view: the inspector tells its story.
  await page.getByTestId('pl-var-object-deviceA').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-kind', 'allocation');
  await expect(page.getByTestId('pl-variables').locator('tr[data-name="deviceA"]')).toHaveClass(/selected/);
  await page.getByTestId('pl-status').click();
  await snap(page, 'playground-device-step3');

  // The operation log shows the three aclrtMalloc calls with ACL_SUCCESS.
  await page.keyboard.press('5');
  const mallocRows = page.getByTestId('log-row').filter({ hasText: 'aclrtMalloc(' });
  await expect(mallocRows).toHaveCount(3);
  for (const row of await mallocRows.all()) await expect(row.getByTestId('log-ret')).toHaveText('ACL_SUCCESS (0)');
  await snap(page, 'playground-device-step3-log');

  // The page map shows three normal pages in use.
  await page.keyboard.press('1');
  await expect(page.getByTestId('legend-count-pages')).toHaveText(/^3 \//);
  await snap(page, 'playground-device-step3-pages');

  // Back in the playground, the run is still paused where it was; Run (r) goes to the end.
  await page.keyboard.press('6');
  await expect(status(page)).toHaveAttribute('data-line', String(step4));
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await expect(page.getByTestId('pl-acl-errors')).toHaveAttribute('data-count', '0');
  await idle(page);
  // The final state is empty: no allocations, every pool back where it started.
  await expect(page.getByTestId('device-objects')).toContainText(/nothing allocated/);
  const poolsAfter = await Promise.all(['normal', 'huge', 'giant'].map((pool) => page.getByTestId(`pool-${pool}`).getAttribute('title')));
  expect(poolsAfter).toEqual(poolsBefore);
  await snap(page, 'playground-device-finished');

  // Clicking the marker of an executed line moves the time cursor to the state right after it.
  await revealLine(page, mallocLine + 2);
  await markOf(page, mallocLine + 2).click();
  await expect(page.getByTestId('pl-time-note')).toHaveAttribute('data-line', String(mallocLine + 2));
  await expect(page.getByTestId('device-objects')).toContainText('3 allocations');
  await snap(page, 'playground-device-time-cursor');
  await page.getByTestId('pl-time-note').getByRole('button').click();
  await expect(page.getByTestId('device-objects')).toContainText(/nothing allocated/);
});

test('the seed VMM sample runs to completion; run to cursor shows the mapping in the address space', async ({ page, agent }) => {
  const code = scenarioCode('seed-vmm');
  await openExplorer(page, agent);
  await openPlayground(page);
  await pickScenario(page, 'seed-vmm');
  // The setup the sample needs (it never calls aclInit) is shown above the code.
  await expect(page.getByTestId('pl-inputs')).toContainText('setup: aclInit(nullptr); aclrtSetDevice(0);');
  // Run to the cursor from inside the editor (Ctrl/Cmd+F10): stop once the access is set.
  // The cursor on the blank line after aclrtMemSetAccess: the run stops before the next statement.
  const access = lineIn(code, 'aclrtMemSetAccess(virPtr');
  await revealLine(page, access + 1);
  await page.keyboard.press('ControlOrMeta+F10');
  await expect(status(page)).toHaveAttribute('data-line', String(lineIn(code, 'int *hostPtr;')));
  await expect(markOf(page, lineIn(code, 'aclrtMapMem('))).toHaveAttribute('title', /aclrtMapMem → ACL_SUCCESS/);
  await expect(page.getByTestId('pl-variables').locator('tr[data-name="alignedSize"]')).toContainText('2097152');
  await idle(page);
  await snap(page, 'playground-vmm-mapped');
  // Out of the editor (its keys are its own), then to the address space (2).
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('2');
  await expect(page.getByTestId('mapping-table')).toContainText('2 MiB');
  await snap(page, 'playground-vmm-address-space');
  await page.keyboard.press('6');
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await expect(page.getByTestId('pl-acl-errors')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('pl-status')).toContainText('ACL calls');
  await idle(page);
  await expect(page.getByTestId('device-objects')).toContainText(/nothing allocated/);
  await snap(page, 'playground-vmm-finished');
});

test('errors: an undeclared name offers "add as input", a runtime error stops on its line, ACL codes show on hover', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await openPlayground(page);
  await typeCode(
    page,
    'aclInit(nullptr);\naclrtSetDevice(0);\nvoid* p = nullptr;\naclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);\naclrtFree(nullptr);\nint zero = 0;\nint x = 1 / zero;\naclrtFree(p);',
  );
  // Compile error: the name is pointed out at line:column, with the way to fix it.
  const problem = page.getByTestId('pl-problem').first();
  await expect(problem).toContainText('line 4, column 17');
  await expect(problem).toContainText('"bytes" is not declared');
  await expect(page.getByTestId('pl-run')).toBeDisabled();
  await snap(page, 'playground-error-undeclared');
  await page.getByTestId('pl-add-input').click();
  await expect(page.getByTestId('pl-input-bytes')).toHaveValue('4 MiB');
  await expect(page.getByTestId('pl-run')).toBeEnabled();
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  // The division by zero stops the run on line 7 and says why, under the line.
  await expect(status(page)).toHaveAttribute('data-state', 'error');
  await expect(status(page)).toContainText('line 7');
  await expect(page.getByTestId('pl-editor').locator('.pl-line-error-message')).toContainText('division by zero');
  await expect(page.getByTestId('pl-problem').first()).toContainText('line 7');
  // aclrtFree(nullptr) failed: its code name and number on hover, and the count in the status.
  await expect(markOf(page, 5)).toHaveAttribute('data-kind', 'acl-error');
  await expect(markOf(page, 5)).toHaveAttribute('title', /aclrtFree → ACL_ERROR_INVALID_PARAM \(100000\)/);
  await expect(page.getByTestId('pl-acl-errors')).toHaveAttribute('data-count', '1');
  await markOf(page, 5).hover();
  await snap(page, 'playground-error-runtime');
  // Reset offers to tear down what the run left (one allocation), only after confirming.
  await page.keyboard.press('Shift+R');
  await expect(status(page)).toHaveAttribute('data-state', 'idle');
  await page.getByTestId('pl-reset-host').click();
  await snap(page, 'playground-reset-host-confirm');
  await page.getByTestId('pl-reset-host-confirm').click();
  await idle(page);
  await expect(page.getByTestId('device-objects')).toContainText(/nothing allocated/);

  // Several functions and no main: the error says so, and the user picks the one to run.
  await typeCode(page, 'void prepare(void) { aclInit(nullptr); }\nvoid teardown(void) { aclFinalize(); }');
  await expect(page.getByTestId('pl-problem').first()).toContainText('no main');
  await page.getByTestId('pl-entry').selectOption('prepare');
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await expect(status(page)).toContainText('1 ACL call');
});

test('a long run keeps the page responsive, shows its progress, and stops on p', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await openPlayground(page);
  await typeCode(
    page,
    'aclInit(nullptr);\naclrtSetDevice(0);\nfor (int i = 0; i < 20000; i++) {\n    void* p = nullptr;\n    aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);\n    aclrtFree(p);\n}',
  );
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'running');
  // Progress: the statement count grows while the calls go through the agent.
  await expect(status(page)).toContainText(/Running… [\d,]{3,} statements/);
  // The page still answers: the help overlay opens and closes during the run.
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-overlay')).toContainText('Stop the run');
  await snap(page, 'playground-long-run-help');
  await page.keyboard.press('Escape');
  await page.keyboard.press('p');
  await expect(status(page)).toHaveAttribute('data-state', 'paused');
  const line = Number(await status(page).getAttribute('data-line'));
  expect([3, 4, 5, 6]).toContain(line);
  await snap(page, 'playground-long-run-stopped');

  // A runaway loop stops at the step limit with an error that says so.
  await page.keyboard.press('Shift+R');
  await typeCode(page, 'int i = 0;\nwhile (1) {\n    i++;\n}');
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(page.getByTestId('pl-problem').first()).toContainText('stopped after 100,000 statements, the step limit');
});

test('share a scenario as a URL: a viewer opens it read-only; a damaged link says what is wrong', async ({ page, agent, context }) => {
  await openExplorer(page, agent);
  await openPlayground(page);
  await pickScenario(page, 'seed-host-register');
  await typeCode(page, '// 我的片段\nvoid *hostPtr = malloc(size);\nfree(hostPtr);');
  await page.getByTestId('pl-inputs').locator('summary').click();
  await page.getByTestId('pl-input-size').fill('8 MiB');
  await page.getByTestId('pl-share').click();
  const url = await page.getByTestId('pl-share-url').inputValue();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#playground=z[A-Za-z0-9_-]+$/);
  expect(url).not.toContain('token');
  await snap(page, 'playground-share');

  // Opened on the agent's own URL (with a token) by a viewer: the playground shows the shared code, read-only.
  const hash = new URL(url).hash;
  const viewer = await context.newPage();
  await viewer.goto(`${agent.url}&role=viewer${hash}`);
  await expect(viewer.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await expect(viewer.getByTestId('playground')).toBeVisible();
  await expect(viewer.getByTestId('pl-link-note')).toContainText('Opened');
  await expect(viewer.getByTestId('pl-editor')).toContainText('free(hostPtr);');
  await expect(viewer.getByTestId('pl-input-size')).toHaveValue('8 MiB');
  await expect(viewer.getByTestId('pl-run')).toBeDisabled();
  await expect(viewer.getByTestId('pl-step')).toBeDisabled();
  await expect(viewer.getByTestId('playground')).toContainText('only the driver runs code');
  expect(new URL(viewer.url()).hash).toBe('');
  await snap(viewer, 'playground-shared-viewer');
  await viewer.close();

  // A link cut short is refused with the reason.
  await page.getByTestId('pl-open-link').click();
  await page.getByTestId('pl-open-input').fill(`${url.slice(0, url.length - 40)}$$`);
  await page.getByTestId('pl-open-panel').getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('pl-open-error')).toContainText('damaged');
  await page.getByTestId('pl-open-input').fill(url);
  await page.getByTestId('pl-open-panel').getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('pl-link-note')).toContainText('Opened');
});

test('saved scenarios survive a reload; rename and delete them; the view in Chinese and dark', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await openPlayground(page);
  await typeCode(page, 'aclInit(nullptr);\naclrtSetDevice(0);\nprintf("hello %d\\n", 42);');
  await page.getByTestId('pl-save').click();
  await page.getByTestId('pl-save-name').fill('hello workshop');
  await page.getByTestId('pl-save-panel').getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('pl-save-message')).toContainText('Saved “hello workshop”');
  await page.reload();
  await expect(page.locator('.explorer')).toHaveAttribute('data-ready', 'true');
  await openPlayground(page);
  await page.getByTestId('pl-scenario').selectOption({ label: 'hello workshop' });
  await expect(page.getByTestId('pl-editor')).toContainText('printf("hello %d\\n", 42);');
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await expect(page.getByTestId('pl-output')).toContainText('hello 42');
  await page.getByTestId('pl-saved').click();
  const item = page.getByTestId('pl-saved-item');
  await expect(item).toHaveCount(1);
  await item.getByRole('button', { name: 'Rename' }).click();
  await item.getByRole('textbox').fill('hello, renamed');
  await item.getByRole('button', { name: 'Rename' }).click();
  await expect(item).toContainText('hello, renamed');
  await snap(page, 'playground-saved');
  await item.getByRole('button', { name: 'Delete' }).click();
  await item.getByRole('button', { name: 'Delete' }).click();
  await expect(item).toHaveCount(0);

  await page.getByTestId('language').selectOption('zh');
  await page.keyboard.press('t');
  await pickScenario(page, 'seed-device-memory');
  await page.keyboard.press('c');
  await expect(status(page)).toHaveAttribute('data-state', 'paused');
  await snap(page, 'playground-zh-dark');
});

test('a pasted program that calls aclInit itself runs under a scenario setup with no false error; hover tells an allocation’s pages; ? lists every playground key', async ({
  page,
  agent,
}) => {
  await openExplorer(page, agent);
  await openPlayground(page);
  // The VMM sample's setup calls aclInit and aclrtSetDevice: the pasted code does too.
  await pickScenario(page, 'seed-vmm');
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  for (const label of ['Run the code to the end', 'Step: run one statement', 'Stop the run', 'Reset the execution'])
    await expect(help).toContainText(label);
  await page.keyboard.press('Escape');
  await typeCode(
    page,
    [
      '#include "acl/acl.h"',
      '#define CHECK_ACL(x) do { auto __ret = x; if (__ret != ACL_SUCCESS) { printf("error %d\\n", __ret); return __ret; } } while (0)',
      'namespace {',
      'struct Session { void* dev; size_t bytes; };',
      '}',
      'int main() {',
      '    CHECK_ACL(aclInit(NULL));',
      '    CHECK_ACL(aclrtSetDevice(0));',
      '    Session s = {nullptr, 1024 * 1024};',
      '    CHECK_ACL(aclrtMalloc(&s.dev, s.bytes, ACL_MEM_MALLOC_HUGE_FIRST));',
      '    float host[4] = {1, 2, 3, 4};',
      '    CHECK_ACL(aclrtMemcpy(s.dev, s.bytes, host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));',
      '    CHECK_ACL(aclrtFree(s.dev));',
      '    CHECK_ACL(aclrtResetDevice(0));',
      '    return 0;',
      '}',
    ].join('\n'),
  );
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  await expect(status(page)).toHaveAttribute('data-state', 'finished');
  await expect(status(page)).toContainText('Finished: returned 0');
  await expect(page.getByTestId('pl-acl-errors')).toHaveAttribute('data-count', '0');
  // 1 MiB + 32 B of padding is more than 1 MiB: HUGE_FIRST takes a 2 MiB huge page (DM-3, DM-4).
  await expect(markOf(page, 10)).toHaveAttribute('title', /aclrtMalloc: .*HUGE_FIRST takes 2 MiB huge pages/);
  await markOf(page, 10).hover();
  await snap(page, 'playground-pasted-program-effect');
});
