/**
 * Chromium for the web suites: Playwright comes from the e2e package (bench adds no dependency) and
 * is typed here by the few calls the suites make; the web app is built into a directory of its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, findChromium } from '../../e2e/browser.ts';
import type { CdpSession } from './renderer-memory.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchPage {
  addInitScript(script: string): Promise<void>;
  goto(url: string): Promise<unknown>;
  click(selector: string): Promise<void>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  waitForFunction<A>(fn: (arg: A) => unknown, arg: A, options?: { timeout?: number; polling?: 'raf' | number }): Promise<unknown>;
  mouse: {
    move(x: number, y: number, options?: { steps?: number }): Promise<void>;
    down(): Promise<void>;
    up(): Promise<void>;
    wheel(dx: number, dy: number): Promise<void>;
  };
  /** A file chosen in an <input type=file>, by its path (Chromium reads it from disk, as it would a user's). */
  setInputFiles(selector: string, files: string): Promise<void>;
  keyboard: { press(key: string): Promise<void> };
  context(): { newCDPSession(page: BenchPage): Promise<CdpSession> };
  close(): Promise<void>;
}

export interface BenchBrowser {
  newPage(options: { viewport: { width: number; height: number }; deviceScaleFactor: number }): Promise<BenchPage>;
  close(): Promise<void>;
}

interface Playwright {
  chromium: { launch(options: { headless: boolean; executablePath?: string; args: string[] }): Promise<BenchBrowser> };
}

/** Headless Chromium: the system one when found (as the e2e specs use), else Playwright's own. */
export function launchChromium(): Promise<BenchBrowser> {
  const require = createRequire(join(REPO_ROOT, 'e2e', 'package.json'));
  const playwright: Playwright = require('@playwright/test');
  const executablePath = findChromium();
  return playwright.chromium.launch({ headless: true, ...(executablePath === undefined ? {} : { executablePath }), args: CHROMIUM_ARGS });
}

/** The flags the browser runs with, for the figures' details. */
export const BROWSER_FLAGS = CHROMIUM_ARGS.join(' ');

/**
 * A production build of the web app in a directory of its own (never the shared apps/web/dist), or
 * $PAGELENS_WEB_DIR. `minify: false` keeps function names, for a CPU profile a person can read.
 */
export function buildWeb(options: { minify?: boolean } = {}): { dir: string; cleanup: () => void } {
  const given = process.env.PAGELENS_WEB_DIR;
  if (given !== undefined && given !== '') return { dir: given, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-bench-web-'));
  const minify = options.minify === false ? ['--minify', 'false'] : [];
  const built = spawnSync('pnpm', ['--filter', '@pagelens/web', 'exec', 'vite', 'build', '--outDir', dir, '--emptyOutDir', ...minify], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`web build failed:\n${built.stdout}\n${built.stderr}`);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** tsx (esbuild, keepNames) wraps named functions in __name(); functions sent to the page need it defined. */
export const NAME_SHIM = 'globalThis.__name = (target) => target;';
