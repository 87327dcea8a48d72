import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const E2E = join(ROOT, 'e2e');

let scratch: string | undefined;
afterEach(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/**
 * A machine without a browser: no $PAGELENS_CHROMIUM, no system candidates, an empty Playwright
 * browser cache, and an install command that records it ran and fails like an offline download.
 */
function noBrowserEnv(extra: Record<string, string> = {}): { env: NodeJS.ProcessEnv; installed: string } {
  scratch = mkdtempSync(join(tmpdir(), 'pagelens-check-browser-'));
  const installed = join(scratch, 'install-ran');
  const { PAGELENS_CHROMIUM: _unset, ...rest } = process.env;
  const env = {
    ...rest,
    PAGELENS_CHROMIUM_CANDIDATES: '',
    PLAYWRIGHT_BROWSERS_PATH: join(scratch, 'browsers'),
    PAGELENS_CHROMIUM_INSTALL: `node -e "require('node:fs').writeFileSync(process.argv[1], 'ran'); process.exit(3)" ${JSON.stringify(installed)}`,
    FORCE_COLOR: '0',
    ...extra,
  };
  return { env, installed };
}

function checkBrowser(env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'e2e/check-browser.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
}

// Each case starts Node with tsx and loads Playwright: seconds each on a busy machine.
describe('check-browser.ts (what npm test runs first)', { timeout: 60_000 }, () => {
  it('tries the install, then stops with one message naming the fixes', () => {
    const { env, installed } = noBrowserEnv();
    const result = checkBrowser(env);
    expect(result.status).toBe(1);
    expect(readFileSync(installed, 'utf8')).toBe('ran');
    expect(result.stderr).toContain('No Chromium for the browser tests');
    expect(result.stderr).toContain('failed (exit 3; offline?)');
    expect(result.stderr).toContain('sudo apt-get install chromium');
    expect(result.stderr).toContain('PAGELENS_CHROMIUM=/path/to/chromium');
    expect(result.stderr.match(/No Chromium/g)).toHaveLength(1);
  });

  it('stops on a $PAGELENS_CHROMIUM that does not exist, without installing anything', () => {
    const { env, installed } = noBrowserEnv({ PAGELENS_CHROMIUM: '/nowhere/chromium' });
    const result = checkBrowser(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PAGELENS_CHROMIUM is set to /nowhere/chromium, which does not exist.');
    expect(existsSync(installed)).toBe(false);
  });

  it('passes quietly when a candidate exists', () => {
    // Any existing file stands in for the browser: the check only looks, it does not launch.
    const { env, installed } = noBrowserEnv({ PAGELENS_CHROMIUM_CANDIDATES: `/nowhere:${process.execPath}` });
    const result = checkBrowser(env);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(existsSync(installed)).toBe(false);
  });
});

describe('the Playwright suite without a browser', () => {
  it('fails once in the global setup with the same message, before any spec runs', () => {
    const { env, installed } = noBrowserEnv();
    const result = spawnSync(join(E2E, 'node_modules', '.bin', 'playwright'), ['test', 'specs/connection.spec.ts'], {
      cwd: E2E,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = `${result.stdout}${result.stderr}`;
    expect(result.status).not.toBe(0);
    expect(existsSync(installed)).toBe(true);
    expect(output).toContain('No Chromium for the browser tests');
    expect(output).not.toContain("Executable doesn't exist");
    expect(output).not.toMatch(/\d+ (passed|failed)/);
  }, 130_000);
});
