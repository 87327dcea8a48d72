/**
 * The dependency rules of DESIGN.md, enforced: core is pure, the apps never import each other,
 * only the ACL backend touches koffi, and only viz/behaviors touches the DOM parts of d3.
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

export function findViolations(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const top of SCANNED) {
    for (const path of sourceFiles(join(root, top))) {
      const file = relative(root, path).split(sep).join('/');
      const rules = RULES.filter((rule) => rule.appliesTo(file));
      if (rules.length === 0) continue;
      for (const { specifier, line } of importsOf(readFileSync(path, 'utf8'))) {
        for (const rule of rules) {
          if (rule.forbids(specifier, file)) violations.push({ file, line, specifier, rule: rule.name });
        }
      }
    }
  }
  return violations;
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
