/**
 * Which Chromium the browser tests use, and what to do when there is none: the one lookup behind
 * the Playwright config, the e2e global setup, `check-browser.ts` (which `npm test` runs before
 * anything else) and the bench's browser (all through browser.ts). Pure: the environment, the file
 * system and the installer are passed in, so every branch is unit-tested (test/chromium.test.ts).
 */

/** System browsers tried after $PAGELENS_CHROMIUM, in this order. */
export const SYSTEM_CHROMIUM: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** What runs when no browser is found: Playwright's own Chromium, downloaded into its cache. */
export const INSTALL_COMMAND = 'pnpm --filter @pagelens/e2e exec playwright install chromium';

/**
 * For tests of this lookup (test/check-browser.test.ts), not for everyday use:
 * PAGELENS_CHROMIUM_CANDIDATES replaces SYSTEM_CHROMIUM (paths separated by ":"; empty: none) and
 * PAGELENS_CHROMIUM_INSTALL replaces INSTALL_COMMAND (run by the shell). Playwright's own
 * PLAYWRIGHT_BROWSERS_PATH moves where its Chromium is looked for.
 */
export const CANDIDATES_OVERRIDE = 'PAGELENS_CHROMIUM_CANDIDATES';
export const INSTALL_OVERRIDE = 'PAGELENS_CHROMIUM_INSTALL';

export type Env = Readonly<Record<string, string | undefined>>;

export function systemCandidates(env: Env): readonly string[] {
  const override = env[CANDIDATES_OVERRIDE];
  if (override === undefined) return SYSTEM_CHROMIUM;
  return override.split(':').filter((path) => path !== '');
}

export function installCommand(env: Env): string {
  const override = env[INSTALL_OVERRIDE];
  return override === undefined || override === '' ? INSTALL_COMMAND : override;
}

export type Located =
  /** $PAGELENS_CHROMIUM, a system browser, or Playwright's own (already downloaded). */
  | { readonly kind: 'chosen' | 'system' | 'playwright'; readonly path: string }
  /** $PAGELENS_CHROMIUM names a file that is not there: never silently replaced by another browser. */
  | { readonly kind: 'chosen-missing'; readonly path: string }
  | { readonly kind: 'none' };

export interface Lookup {
  readonly env: Env;
  readonly exists: (path: string) => boolean;
  /** Where Playwright keeps its own Chromium (`chromium.executablePath()`), downloaded or not. */
  readonly playwrightPath: string;
}

export function locateChromium({ env, exists, playwrightPath }: Lookup): Located {
  const chosen = env.PAGELENS_CHROMIUM;
  if (chosen !== undefined && chosen !== '')
    return exists(chosen) ? { kind: 'chosen', path: chosen } : { kind: 'chosen-missing', path: chosen };
  const system = systemCandidates(env).find((path) => exists(path));
  if (system !== undefined) return { kind: 'system', path: system };
  return exists(playwrightPath) ? { kind: 'playwright', path: playwrightPath } : { kind: 'none' };
}

/** The executable to hand Playwright: a chosen or system browser; undefined lets Playwright use its own. */
export function executableFor(located: Located): string | undefined {
  return located.kind === 'chosen' || located.kind === 'system' ? located.path : undefined;
}

export type BrowserCheck =
  | { readonly ok: true; readonly located: Exclude<Located, { kind: 'chosen-missing' | 'none' }>; readonly installed: boolean }
  | { readonly ok: false; readonly message: string };

export interface EnsureDeps extends Lookup {
  /** Runs the install command (its output goes to the terminal); returns its exit status. */
  readonly install: (command: string) => number;
}

/**
 * Finds a browser; when there is none at all, installs Playwright's Chromium once and looks again.
 * When that fails too (offline), the answer is one message naming the fixes, for the caller to
 * print before a single test starts.
 */
export function ensureChromium(deps: EnsureDeps): BrowserCheck {
  const found = locateChromium(deps);
  switch (found.kind) {
    case 'chosen':
    case 'system':
    case 'playwright':
      return { ok: true, located: found, installed: false };
    case 'chosen-missing':
      return { ok: false, message: chosenMissingMessage(found.path) };
    case 'none': {
      const command = installCommand(deps.env);
      const status = deps.install(command);
      const after = locateChromium(deps);
      if (status === 0 && after.kind === 'playwright') return { ok: true, located: after, installed: true };
      return { ok: false, message: noBrowserMessage(deps, command, status) };
    }
    default:
      return assertNever(found);
  }
}

export function chosenMissingMessage(path: string): string {
  return [
    `PAGELENS_CHROMIUM is set to ${path}, which does not exist.`,
    'Point it at a Chromium or Chrome executable (e.g. PAGELENS_CHROMIUM=/usr/bin/chromium), or unset it to use a system Chromium.',
  ].join('\n');
}

function noBrowserMessage({ env, playwrightPath }: Lookup, command: string, status: number): string {
  const tried = [...systemCandidates(env), `Playwright's own Chromium (${playwrightPath})`];
  return [
    `No Chromium for the browser tests, and \`${command}\` ${status === 0 ? 'did not install one' : `failed (exit ${status}; offline?)`}.`,
    'Fix it with one of:',
    '  sudo apt-get install chromium                 (Debian/Ubuntu; as root: apt-get install chromium)',
    '  PAGELENS_CHROMIUM=/path/to/chromium npm test  (any Chromium or Chrome executable)',
    `  ${INSTALL_COMMAND}   (needs internet)`,
    `Looked for: ${tried.join(', ')}.`,
  ].join('\n');
}

function assertNever(value: never): never {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
}
