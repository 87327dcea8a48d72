// `tsx e2e/check-browser.ts`: exits 0 when the browser tests have a Chromium (installing Playwright's
// when there is none), else prints what to do and exits 1. `npm test` runs it before anything else.
import { ensureBrowser } from './browser.ts';

const check = ensureBrowser();
if (check.ok) {
  if (check.installed) process.stderr.write(`[pagelens] installed Playwright's Chromium: ${check.located.path}\n`);
} else {
  process.stderr.write(`${check.message.replace(/^/gm, '[pagelens] ')}\n`);
  process.exitCode = 1;
}
