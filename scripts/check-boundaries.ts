/**
 * The dependency rules of DESIGN.md, enforced: core is pure, the apps never import each other,
 * only the ACL backend touches koffi, only viz/behaviors touches the DOM parts of d3, and the web
 * app's folders import only the layers WEB_LAYERS allows.
 * Run: `pnpm boundaries`. Exit code 1 lists every violation with file, line and rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly rule: string;
}

interface Rule {
  readonly name: string;
  /** Files (paths relative to the root, with forward slashes) the rule applies to. */
  readonly appliesTo: (file: string) => boolean;
  /** True when `specifier`, imported from `file`, breaks the rule. */
  readonly forbids: (specifier: string, file: string) => boolean;
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isNodeBuiltin = (s: string): boolean => s.startsWith('node:') || NODE_BUILTINS.has(s) || NODE_BUILTINS.has(s.split('/')[0] ?? '');
const packageName = (s: string): string => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] ?? s));
const isD3 = (s: string): boolean => s === 'd3' || s.startsWith('d3-');
const D3_DOM = new Set(['d3', 'd3-selection', 'd3-zoom', 'd3-brush', 'd3-drag', 'd3-transition']);
const UI_OR_IO = new Set(['react', 'react-dom', 'ws', 'koffi', 'zustand', 'i18next', 'react-i18next']);

/** Resolves a relative specifier to a root-relative path, so "../../apps/web/x" is recognised. */
function target(specifier: string, file: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const parts = file.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/**
 * The web app's layers, lowest first: each folder of apps/web/src (and apps/web/test, the test
 * scenes) with the folders it may import besides itself. Files directly under apps/web/src
 * (main.tsx, boot.ts) are `entry`. A folder missing here is itself a violation, so a new one gets
 * a place in the table before it gets imports. apps/web/README.md shows this table.
 */
export const WEB_LAYER_ORDER = ['model', 'i18n', 'hooks', 'viz', 'store', 'net', 'components', 'app', 'styles', 'entry', 'test'] as const;
export type WebLayer = (typeof WEB_LAYER_ORDER)[number];

export const WEB_LAYERS: Readonly<Record<WebLayer, readonly WebLayer[]>> = {
  model: [],
  i18n: [],
  hooks: [],
  viz: ['model'],
  store: ['model'],
  net: ['model', 'store'],
  components: ['model', 'i18n', 'hooks', 'viz', 'store'],
  app: ['model', 'i18n', 'hooks', 'viz', 'store', 'components'],
  styles: [],
  entry: ['model', 'i18n', 'store', 'net', 'app', 'styles'],
  test: ['model', 'i18n', 'store'],
};

/**
 * What a test file (`*.test.ts(x)`) may import beyond its folder's row: the shared test scenes,
 * and the catalogues, to check that the message keys a model returns exist.
 */
export const WEB_TEST_IMPORTS: readonly WebLayer[] = ['test', 'i18n'];

const WEB_SRC = 'apps/web/src/';
const WEB_TEST = 'apps/web/test/';
const isTestFile = (f: string): boolean => /\.test\.[cm]?[jt]sx?$/.test(f) || f.startsWith(WEB_TEST);
const isWebLayer = (name: string): name is WebLayer => (WEB_LAYER_ORDER as readonly string[]).includes(name);

/** The layer row of a root-relative path inside the web app: a folder name, `entry`, or undefined outside src and test. */
export function webFolder(path: string): string | undefined {
  if (path.startsWith(WEB_TEST)) return 'test';
  if (!path.startsWith(WEB_SRC)) return undefined;
  const rest = path.slice(WEB_SRC.length).split('/');
  return rest.length === 1 ? 'entry' : rest[0];
}

/** The web folder a relative import from `file` lands in (undefined for packages and paths outside the web app). */
function importedWebFolder(specifier: string, file: string): string | undefined {
  return specifier.startsWith('.') ? webFolder(target(specifier, file)) : undefined;
}

function layerRules(): Rule[] {
  const rows = WEB_LAYER_ORDER.map(
    (layer): Rule => ({
      name: `web layers: ${layer} imports only ${WEB_LAYERS[layer].join(', ') || 'itself'} (tests also ${WEB_TEST_IMPORTS.join(', ')})`,
      appliesTo: (f) => webFolder(f) === layer,
      forbids: (s, f) => {
        const to = importedWebFolder(s, f);
        if (to === undefined || to === layer || !isWebLayer(to)) return false;
        return !WEB_LAYERS[layer].includes(to) && !(isTestFile(f) && WEB_TEST_IMPORTS.includes(to));
      },
    }),
  );
  const unplaced: Rule = {
    name: 'web layers: every folder of apps/web/src has a row in WEB_LAYERS',
    appliesTo: (f) => webFolder(f) !== undefined,
    forbids: (s, f) => {
      const from = webFolder(f) ?? '';
      const to = importedWebFolder(s, f);
      return !isWebLayer(from) || (to !== undefined && !isWebLayer(to));
    },
  };
  return [...rows, unplaced];
}

export const RULES: readonly Rule[] = [
  {
    name: 'core is pure: no Node built-ins, DOM, React, d3, ws or koffi',
    appliesTo: (f) => f.startsWith('packages/core/src/'),
    forbids: (s) => isNodeBuiltin(s) || isD3(s) || UI_OR_IO.has(packageName(s)),
  },
  {
    name: 'core never imports the apps',
    appliesTo: (f) => f.startsWith('packages/core/'),
    forbids: (s, f) => /^@pagelens\/(agent|web)/.test(s) || /^apps\//.test(target(s, f)),
  },
  {
    name: 'web never imports the agent',
    appliesTo: (f) => f.startsWith('apps/web/'),
    forbids: (s, f) => s.startsWith('@pagelens/agent') || target(s, f).startsWith('apps/agent/'),
  },
  {
    name: 'agent never imports the web app',
    appliesTo: (f) => f.startsWith('apps/agent/'),
    forbids: (s, f) => s.startsWith('@pagelens/web') || target(s, f).startsWith('apps/web/'),
  },
  {
    name: 'only apps/agent/src/backends/acl/ imports koffi',
    appliesTo: (f) => !f.startsWith('apps/agent/src/backends/acl/'),
    forbids: (s) => packageName(s) === 'koffi',
  },
  {
    name: 'only apps/web/src/viz/behaviors/ uses the DOM parts of d3',
    appliesTo: (f) => f.startsWith('apps/web/') && !f.startsWith('apps/web/src/viz/behaviors/'),
    forbids: (s) => D3_DOM.has(s),
  },
  ...layerRules(),
];

const SCANNED = ['packages', 'apps', 'e2e', 'bench'];
const SOURCE = /\.(m?[jt]sx?)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.artifacts', 'test-results', 'build']);

function* sourceFiles(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (SKIPPED_DIRS.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) yield path;
  }
}

/** Every import (static, dynamic, re-export, require) in one file, with its line number. */
export function importsOf(text: string): { specifier: string; line: number }[] {
  const info = ts.preProcessFile(text, true, true);
  const lineOf = (pos: number): number => text.slice(0, pos).split('\n').length;
  return info.importedFiles.map((ref) => ({ specifier: ref.fileName, line: lineOf(ref.pos) }));
}

/** The violations in a set of files, given as root-relative paths (forward slashes) and their text. */
export function checkFiles(files: Iterable<{ readonly file: string; readonly text: string }>): Violation[] {
  const violations: Violation[] = [];
  for (const { file, text } of files) {
    const rules = RULES.filter((rule) => rule.appliesTo(file));
    if (rules.length === 0) continue;
    for (const { specifier, line } of importsOf(text)) {
      for (const rule of rules) {
        if (rule.forbids(specifier, file)) violations.push({ file, line, specifier, rule: rule.name });
      }
    }
  }
  return violations;
}

function* treeFiles(root: string): Generator<{ file: string; text: string }> {
  for (const top of SCANNED) {
    for (const path of sourceFiles(join(root, top))) {
      yield { file: relative(root, path).split(sep).join('/'), text: readFileSync(path, 'utf8') };
    }
  }
}

export function findViolations(root: string): Violation[] {
  return checkFiles(treeFiles(root));
}

function main(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const violations = findViolations(root);
  if (violations.length === 0) {
    process.stdout.write('boundaries: every import respects the layer rules\n');
    return;
  }
  for (const v of violations) process.stderr.write(`${v.file}:${v.line}: imports "${v.specifier}": ${v.rule}\n`);
  process.stderr.write(`boundaries: ${violations.length} violation(s)\n`);
  process.exitCode = 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
