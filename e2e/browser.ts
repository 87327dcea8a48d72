import { existsSync } from 'node:fs';

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

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/**
 * The browser to test with: $PAGELENS_CHROMIUM, else a system Chromium or Chrome, else undefined,
 * which lets Playwright use its own downloaded browser.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): string | undefined {
  const chosen = env.PAGELENS_CHROMIUM;
  if (chosen !== undefined && chosen !== '') {
    if (!exists(chosen)) throw new Error(`PAGELENS_CHROMIUM is set to ${chosen}, which does not exist`);
    return chosen;
  }
  return CANDIDATES.find((path) => exists(path));
}
