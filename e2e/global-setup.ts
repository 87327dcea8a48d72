import { ensureBrowser } from './browser.ts';

/** Before any spec: a browser, or one message saying how to get one (not one failure per test). */
export default function globalSetup(): void {
  const check = ensureBrowser();
  if (!check.ok) throw new Error(check.message);
}
