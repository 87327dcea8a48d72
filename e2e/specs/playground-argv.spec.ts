import type { Locator, Page } from '@playwright/test';
import { expect, openExplorer, snap, test } from '../support/fixtures.ts';

// Issue 15: the playground's Command line field gives main(int argc, char** argv) its arguments;
// a following viewer sees the driver's command line read-only.

const PRINT_ARGV = [
  'int main(int argc, char** argv) {',
  '    for (int i = 0; i < argc; ++i) printf("argv[%d] = %s\\n", i, argv[i]);',
  '    return 0;',
  '}',
].join('\n');

async function openPlayground(page: Page): Promise<void> {
  await page.keyboard.press('6');
  await expect(page.getByTestId('playground')).toBeVisible();
}

/** Replaces the editor's code as a person would: click into it, select all, type. */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByTestId('pl-editor').locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

const argsField = (page: Page): Locator => page.getByRole('textbox', { name: 'Command line' });

test('the Command line field reaches main as argv, and a following viewer sees it read-only', async ({ page, agent, context }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openExplorer(page, agent);
  await openPlayground(page);
  await typeCode(page, PRINT_ARGV);

  // The field appears for a main that takes a command line; it is reached with the keyboard and typed into.
  await expect(argsField(page)).toBeVisible();
  await argsField(page).focus();
  await expect(argsField(page)).toBeFocused();
  await page.keyboard.type('--device_id 0 --model "resnet 50.om"');
  await expect(page.getByTestId('pl-args-argv')).toHaveText('argv: ./main --device_id 0 --model "resnet 50.om"');

  await page.getByTestId('pl-status').click();
  await page.keyboard.press('r');
  await expect(page.getByTestId('pl-status')).toHaveAttribute('data-state', 'finished');
  const output = page.getByTestId('pl-output');
  await expect(output).toContainText('argv[0] = ./main');
  await expect(output).toContainText('argv[2] = 0');
  await expect(output).toContainText('argv[4] = resnet 50.om');
  await snap(page, 'playground-argv-1280');

  // `?` lists the playground's keys (issue 15, "Also").
  await page.getByTestId('pl-status').click();
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help).toContainText('Run the code to the end');
  await expect(help).toContainText('Step: run one statement');
  await page.keyboard.press('Escape');
  await expect(help).not.toBeVisible();

  // An unclosed quote is said, with its column, and the field is marked invalid.
  await argsField(page).fill('--model "a b');
  await expect(page.getByRole('alert').filter({ hasText: 'column 9' })).toBeVisible();
  await expect(argsField(page)).toHaveAttribute('aria-invalid', 'true');
  await argsField(page).fill('--device_id 0');

  const viewer = await context.newPage();
  await viewer.setViewportSize({ width: 1440, height: 900 });
  await openExplorer(viewer, agent, 'viewer');
  await openPlayground(viewer);
  await expect(viewer.getByTestId('pl-follow')).toHaveAttribute('data-mode', 'following');
  const followed = argsField(viewer);
  await expect(followed).toHaveValue('--device_id 0');
  await expect(followed).toHaveAttribute('readonly', '');
  await expect(viewer.getByTestId('pl-args')).toContainText("The driver's command line (read-only).");
  await snap(viewer, 'playground-argv-viewer-1440');
});
