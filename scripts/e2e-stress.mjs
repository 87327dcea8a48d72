#!/usr/bin/env node
// `pnpm test:e2e:stress`: the Playwright suite several times in a row while busy-loop processes keep
// the CPU loaded, to shake out tests and views that race (an action landing before the view settled,
// a late effect undoing it). Not part of `npm test`: it takes several times as long as one e2e run.
//
//   pnpm test:e2e:stress [--runs K] [--hogs N] [--verbose] [-- <playwright test arguments>]
//
// Builds the web app once, into a directory of its own (so a build someone else starts meanwhile
// cannot swap files under the agents), starts N hogs, runs the suite K times, prints one line per
// run and a final "N passed, M failed" line, and exits non-zero when any run failed. The hogs are
// killed on every way out (success, failure, Ctrl-C); they also exit by themselves when this process
// disappears without cleaning up (SIGKILL). Each run's full output: e2e/.artifacts/stress/run-<i>.log.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const LOGS = join(ROOT, 'e2e', '.artifacts', 'stress');
const USAGE = 'usage: pnpm test:e2e:stress [--runs K (default 5)] [--hogs N (default 2)] [--verbose] [-- <playwright test arguments>]';

// Busy for half a second at a time, then checks that the stress script is still there.
const HOG = `const parent = ${process.pid};
for (;;) {
  const until = Date.now() + 500;
  while (Date.now() < until) {}
  try { process.kill(parent, 0); } catch { process.exit(0); }
}`;

function say(message) {
  process.stdout.write(`[stress] ${message}\n`);
}

function parseArgs(argv) {
  const options = { runs: 5, hogs: 2, verbose: false, playwright: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const count = (name) => {
      const value = Number(argv[i + 1]);
      i += 1;
      if (!Number.isInteger(value) || value < 0) fail(`${name} needs a whole number, got ${argv[i] ?? 'nothing'}\n${USAGE}`);
      return value;
    };
    if (arg === '--runs') options.runs = count('--runs');
    else if (arg === '--hogs') options.hogs = count('--hogs');
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--') options.playwright = argv.slice(i + 1);
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else fail(`unknown argument ${arg}\n${USAGE}`);
    if (arg === '--') break;
  }
  if (options.runs < 1) fail('--runs must be at least 1');
  return options;
}

function fail(message) {
  process.stderr.write(`[stress] ${message}\n`);
  process.exit(2);
}

const hogs = new Set();
let current;
let webDir;

function cleanUp() {
  for (const hog of hogs) hog.kill('SIGKILL');
  hogs.clear();
  if (webDir !== undefined) rmSync(webDir, { recursive: true, force: true });
  webDir = undefined;
}

function startHogs(count) {
  for (let i = 0; i < count; i += 1) {
    const hog = spawn(process.execPath, ['-e', HOG], { stdio: 'ignore' });
    hogs.add(hog);
    hog.on('exit', () => hogs.delete(hog));
  }
}

process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    say(`${signal}: stopping`);
    current?.kill('SIGTERM');
    cleanUp();
    process.exit(130);
  });
}

/** Runs one suite; resolves with its exit status and the JSON report's figures. */
function runSuite(index, options) {
  const log = join(LOGS, `run-${index}.log`);
  const report = join(LOGS, `run-${index}.json`);
  rmSync(report, { force: true });
  const args = ['--filter', '@pagelens/e2e', 'exec', 'playwright', 'test', '--reporter=list,json', ...options.playwright];
  return new Promise((resolve) => {
    // Written as it comes, so `tail -f` on the log follows a run.
    const out = createWriteStream(log);
    const child = spawn('pnpm', args, {
      cwd: ROOT,
      env: { ...process.env, PAGELENS_WEB_DIR: webDir, PLAYWRIGHT_JSON_OUTPUT_NAME: report, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    current = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        out.write(chunk);
        if (options.verbose) process.stdout.write(chunk);
      });
    }
    child.on('close', (code, signal) => {
      current = undefined;
      out.end(() => resolve({ status: code ?? (signal === null ? 1 : 128), log, figures: readReport(report) }));
    });
  });
}

/** Test counts and the titles of failed and flaky tests, from Playwright's JSON report. */
function readReport(path) {
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const failed = [];
  const flaky = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`;
        if (test.status === 'unexpected') failed.push(name);
        else if (test.status === 'flaky') flaky.push(name);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of parsed.suites ?? []) visit(suite, []);
  const stats = parsed.stats ?? {};
  return {
    passed: stats.expected ?? 0,
    failed: stats.unexpected ?? 0,
    flaky: stats.flaky ?? 0,
    skipped: stats.skipped ?? 0,
    failedTitles: failed,
    flakyTitles: flaky,
  };
}

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  mkdirSync(LOGS, { recursive: true });

  // The browser check the suite would do anyway, once, before spending minutes on builds and hogs.
  const check = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/check-browser.ts'], { cwd: ROOT, stdio: 'inherit' });
  if (check.status !== 0) process.exit(check.status ?? 1);

  webDir = mkdtempSync(join(tmpdir(), 'pagelens-stress-web-'));
  say(`building the web app into ${webDir}…`);
  const build = spawnSync(
    'pnpm',
    ['--filter', '@pagelens/web', 'exec', 'vite', 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) {
    say('the web build failed; see above');
    process.exit(build.status ?? 1);
  }

  startHogs(options.hogs);
  say(`${options.runs} run(s) of the e2e suite with ${options.hogs} busy-loop process(es) on ${availableParallelism()} core(s)`);
  const results = [];
  const began = Date.now();
  for (let index = 1; index <= options.runs; index += 1) {
    const started = Date.now();
    const { status, log, figures } = await runSuite(index, options);
    const ms = Date.now() - started;
    const ok = status === 0;
    results.push(ok);
    const counts =
      figures === undefined
        ? 'no report (see the log)'
        : `${figures.passed} passed, ${figures.failed} failed, ${figures.flaky} flaky, ${figures.skipped} skipped`;
    say(
      `run ${index}/${options.runs}: ${ok ? 'PASSED' : `FAILED (exit ${status})`} in ${seconds(ms)}: ${counts}; log ${relative(ROOT, log)}`,
    );
    for (const title of figures?.failedTitles ?? []) say(`  failed: ${title}`);
    for (const title of figures?.flakyTitles ?? []) say(`  flaky: ${title}`);
  }
  cleanUp();
  const passed = results.filter(Boolean).length;
  const failedRuns = results.length - passed;
  say(`${passed} passed, ${failedRuns} failed (${results.length} runs in ${seconds(Date.now() - began)})`);
  process.exit(failedRuns === 0 ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`[stress] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  cleanUp();
  process.exit(1);
});
