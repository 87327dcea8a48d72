import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import {
  type BrowserCheck,
  chosenMissingMessage,
  type Env,
  ensureChromium,
  executableFor,
  type Lookup,
  locateChromium,
} from './chromium.ts';

/** Flags for Chromium on a machine with a closed network: no background traffic, no sandbox as root. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where Playwright's own Chromium is or would be (it honours PLAYWRIGHT_BROWSERS_PATH), present or not. */
function playwrightChromium(): string {
  try {
    return chromium.executablePath();
  } catch {
    // Playwright has no Chromium build for this platform: nothing to find there.
    return '';
  }
}

function lookup(env: Env, exists: (path: string) => boolean): Lookup {
  return { env, exists, playwrightPath: playwrightChromium() };
}

/**
 * The browser to test with: $PAGELENS_CHROMIUM, else a system Chromium or Chrome, else undefined,
 * which lets Playwright use its own downloaded browser. Throws when $PAGELENS_CHROMIUM names a
 * missing file.
 */
export function findChromium(env: Env = process.env, exists: (path: string) => boolean = existsSync): string | undefined {
  const located = locateChromium(lookup(env, exists));
  if (located.kind === 'chosen-missing') throw new Error(chosenMissingMessage(located.path));
  return executableFor(located);
}

/** As findChromium, but never throws: the config only chooses, the global setup reports. */
export function chromiumForConfig(env: Env = process.env): string | undefined {
  return executableFor(locateChromium(lookup(env, existsSync)));
}

/** Finds a browser, installing Playwright's Chromium when there is none (see ensureChromium). */
export function ensureBrowser(env: Env = process.env): BrowserCheck {
  return ensureChromium({
    ...lookup(env, existsSync),
    install: (command) => {
      process.stderr.write(`[pagelens] no Chromium found; trying: ${command}\n`);
      const result = spawnSync(command, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: 'inherit', shell: true });
      return result.status ?? 1;
    },
  });
}
