#!/usr/bin/env node
// The entry behind `npm start`, `npm test` and `npm run bench` on a machine that has only Node 20+.
// It finds pnpm 12.4.2 (or runs it through npx), installs the workspace from the lockfile when the
// lockfile or a manifest changed, builds the web app when its sources are newer than the build,
// and then runs the real command. Plain JavaScript on purpose: nothing is installed yet when it runs.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const PNPM_VERSION = '12.4.2';
const INSTALL_MARKER = join(ROOT, 'node_modules', '.pagelens-install');
const MANIFESTS = [
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'packages/core/package.json',
  'apps/agent/package.json',
  'apps/web/package.json',
  'e2e/package.json',
  'bench/package.json',
];

function say(message) {
  process.stderr.write(`[pagelens] ${message}\n`);
}

function pnpmCommand() {
  const found = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
  if (found.status === 0 && found.stdout.trim() === PNPM_VERSION) return ['pnpm'];
  return ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function installHash() {
  const hash = createHash('sha256');
  for (const file of MANIFESTS) {
    const path = join(ROOT, file);
    hash.update(file);
    hash.update(existsSync(path) ? readFileSync(path) : '');
  }
  return hash.digest('hex');
}

function ensureInstalled(pnpm) {
  const wanted = installHash();
  if (existsSync(INSTALL_MARKER) && readFileSync(INSTALL_MARKER, 'utf8') === wanted) return;
  say(`installing dependencies with pnpm ${PNPM_VERSION} (frozen lockfile)…`);
  const status = run(pnpm[0], [...pnpm.slice(1), 'install', '--frozen-lockfile']);
  if (status !== 0) {
    say('dependency install failed; see the output above');
    process.exit(status);
  }
  writeFileSync(INSTALL_MARKER, wanted);
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function ensureWebBuilt(pnpm) {
  const built = join(ROOT, 'apps/web/dist/index.html');
  const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/core/src'];
  const newestSource = Math.max(...sources.map((source) => newestMtime(join(ROOT, source))));
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource) return;
  say('building the web app…');
  const status = run(pnpm[0], [...pnpm.slice(1), '--filter', '@pagelens/web', 'run', 'build']);
  if (status !== 0) process.exit(status);
}

function startAgent(args) {
  const child = spawn(process.execPath, [join(ROOT, 'apps/agent/bin/pagelens.mjs'), ...args], { cwd: ROOT, stdio: 'inherit' });
  // The terminal sends Ctrl-C to both processes; the agent shuts itself down, and we wait for it.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const [command = 'start', ...rest] = process.argv.slice(2);
const pnpm = pnpmCommand();
ensureInstalled(pnpm);
switch (command) {
  case 'start':
    ensureWebBuilt(pnpm);
    startAgent(rest);
    break;
  case 'test': {
    // Before typecheck, lint and unit tests: a Chromium for the browser tests (installing Playwright's
    // when there is none), or one message saying how to get one (e2e/chromium.ts decides).
    const browser = run(process.execPath, ['--import', 'tsx', 'e2e/check-browser.ts']);
    if (browser !== 0) process.exit(browser);
    process.exit(run(pnpm[0], [...pnpm.slice(1), 'run', 'check']));
    break;
  }
  case 'bench':
    ensureWebBuilt(pnpm);
    process.exit(run(pnpm[0], [...pnpm.slice(1), 'run', 'bench:run', ...rest]));
    break;
  default:
    say(`unknown command "${command}"; use start, test or bench`);
    process.exit(2);
}
