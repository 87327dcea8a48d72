import { describe, expect, it } from 'vitest';
import { type EnsureDeps, ensureChromium, INSTALL_COMMAND, locateChromium, SYSTEM_CHROMIUM } from '../chromium.ts';

const PLAYWRIGHT = '/home/me/.cache/ms-playwright/chromium-1/chrome-linux64/chrome';

/** A file system holding `present`, and an installer that records its commands and may add Playwright's Chromium. */
function world(
  present: readonly string[],
  env: Record<string, string> = {},
  install: { status: number; adds: boolean } = { status: 1, adds: false },
) {
  const files = new Set(present);
  const commands: string[] = [];
  const deps: EnsureDeps = {
    env,
    exists: (path) => files.has(path),
    playwrightPath: PLAYWRIGHT,
    install: (command) => {
      commands.push(command);
      if (install.adds) files.add(PLAYWRIGHT);
      return install.status;
    },
  };
  return { deps, commands };
}

describe('locateChromium', () => {
  it.each([
    {
      what: '$PAGELENS_CHROMIUM first',
      present: ['/opt/c/chrome', '/usr/bin/chromium'],
      env: { PAGELENS_CHROMIUM: '/opt/c/chrome' },
      kind: 'chosen',
      path: '/opt/c/chrome',
    },
    {
      what: 'a missing $PAGELENS_CHROMIUM is not replaced',
      present: ['/usr/bin/chromium'],
      env: { PAGELENS_CHROMIUM: '/opt/gone' },
      kind: 'chosen-missing',
      path: '/opt/gone',
    },
    {
      what: 'an empty $PAGELENS_CHROMIUM counts as unset',
      present: ['/usr/bin/chromium'],
      env: { PAGELENS_CHROMIUM: '' },
      kind: 'system',
      path: '/usr/bin/chromium',
    },
    {
      what: 'system browsers in list order',
      present: ['/usr/bin/google-chrome', '/usr/bin/chromium-browser'],
      env: {},
      kind: 'system',
      path: '/usr/bin/chromium-browser',
    },
    { what: "Playwright's own after the system ones", present: [PLAYWRIGHT], env: {}, kind: 'playwright', path: PLAYWRIGHT },
    {
      what: 'the candidate override replaces the list',
      present: ['/usr/bin/chromium', '/x/chrome'],
      env: { PAGELENS_CHROMIUM_CANDIDATES: '/nope:/x/chrome' },
      kind: 'system',
      path: '/x/chrome',
    },
    {
      what: 'an empty candidate override means none',
      present: ['/usr/bin/chromium'],
      env: { PAGELENS_CHROMIUM_CANDIDATES: '' },
      kind: 'none',
      path: undefined,
    },
  ])('$what', ({ present, env, kind, path }) => {
    const located = locateChromium(world(present, env).deps);
    expect(located.kind).toBe(kind);
    expect('path' in located ? located.path : undefined).toBe(path);
  });

  it('tries every system path the config and bench used before', () => {
    expect(SYSTEM_CHROMIUM).toEqual([
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
    ]);
  });
});

describe('ensureChromium', () => {
  it('uses a browser it finds without installing anything', () => {
    const { deps, commands } = world(['/usr/bin/chromium']);
    expect(ensureChromium(deps)).toEqual({ ok: true, located: { kind: 'system', path: '/usr/bin/chromium' }, installed: false });
    expect(commands).toEqual([]);
  });

  it("installs Playwright's Chromium when there is no browser, and uses it", () => {
    const { deps, commands } = world([], {}, { status: 0, adds: true });
    expect(ensureChromium(deps)).toEqual({ ok: true, located: { kind: 'playwright', path: PLAYWRIGHT }, installed: true });
    expect(commands).toEqual([INSTALL_COMMAND]);
  });

  it('names the fixes when the install fails (offline)', () => {
    const { deps, commands } = world([], {}, { status: 1, adds: false });
    const check = ensureChromium(deps);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toContain('failed (exit 1; offline?)');
    expect(check.message).toContain('sudo apt-get install chromium');
    expect(check.message).toContain('apt-get install chromium');
    expect(check.message).toContain('PAGELENS_CHROMIUM=/path/to/chromium');
    expect(check.message).toContain(`Looked for: ${SYSTEM_CHROMIUM.join(', ')}, Playwright's own Chromium (${PLAYWRIGHT}).`);
    expect(commands).toEqual([INSTALL_COMMAND]);
  });

  it('does not trust an install that reports success but leaves no browser', () => {
    const check = ensureChromium(world([], {}, { status: 0, adds: false }).deps);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain('did not install one');
  });

  it('runs the install command override instead of the real one', () => {
    const { deps, commands } = world([], { PAGELENS_CHROMIUM_INSTALL: 'false' });
    ensureChromium(deps);
    expect(commands).toEqual(['false']);
  });

  it('reports a missing $PAGELENS_CHROMIUM without installing anything', () => {
    const { deps, commands } = world(['/usr/bin/chromium'], { PAGELENS_CHROMIUM: '/opt/gone/chrome' });
    const check = ensureChromium(deps);
    expect(check).toEqual({
      ok: false,
      message: expect.stringContaining('PAGELENS_CHROMIUM is set to /opt/gone/chrome, which does not exist.'),
    });
    expect(commands).toEqual([]);
  });
});
