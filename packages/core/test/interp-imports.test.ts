import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The interpreter's modules form a graph without cycles: a lower module that must call back up
 * (the evaluator running a call) gets the upper one passed in instead of importing it. This reads
 * the import lines themselves, so a cycle cannot come back unnoticed. Type-only imports count too.
 */

const INTERP = join(dirname(fileURLToPath(import.meta.url)), '../src/interp');

/** `import … from './x.ts'`, `export … from './x.ts'` (across lines) and bare `import './x.ts'`. */
const RELATIVE_IMPORT = /^\s*(?:(?:import|export)\b[^;'"]*?\bfrom\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

function relativeImports(source: string): string[] {
  return [...source.matchAll(RELATIVE_IMPORT)].map((match) => match[1] ?? '');
}

/** Each interp module (a file name such as `eval.ts`) with the interp modules it imports. */
function interpGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(INTERP).filter((name) => name.endsWith('.ts'))) {
    const imports = relativeImports(readFileSync(join(INTERP, file), 'utf8'))
      .map((specifier) => normalize(join(INTERP, specifier)))
      .filter((path) => dirname(path) === INTERP)
      .map((path) => path.slice(INTERP.length + 1));
    graph.set(file, imports);
  }
  return graph;
}

/** Depth-first search; every back edge closes a cycle, returned as its path (first node repeated at the end). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): void => {
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const open = path.indexOf(next);
      if (open >= 0) cycles.push([...path.slice(open), next]);
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(node);
  };
  for (const node of graph.keys()) if (!done.has(node)) visit(node);
  return cycles;
}

describe('findCycles', () => {
  it('finds a cycle of three and a module importing itself', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', ['d.ts']],
    ]);
    expect(findCycles(graph)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['d.ts', 'd.ts'],
    ]);
  });

  it('finds none in a diamond, where two paths meet without looping', () => {
    const graph = new Map([
      ['top.ts', ['left.ts', 'right.ts']],
      ['left.ts', ['leaf.ts']],
      ['right.ts', ['leaf.ts']],
      ['leaf.ts', []],
    ]);
    expect(findCycles(graph)).toEqual([]);
  });
});

describe('interp imports', () => {
  it('reads import lines, multi-line ones included', () => {
    const source = [
      "import type { A } from './a.ts';",
      'import {',
      '  b,',
      '  c,',
      "} from '../acl/b.ts';",
      "export { d } from './d.ts';",
      "import './e.ts';",
      "const text = 'not an import from ./f.ts';",
    ].join('\n');
    expect(relativeImports(source)).toEqual(['./a.ts', '../acl/b.ts', './d.ts', './e.ts']);
  });

  it('sees the edges it checks (execution.ts imports machine.ts)', () => {
    expect(interpGraph().get('execution.ts')).toContain('machine.ts');
  });

  it('has no import cycle among the interp modules', () => {
    expect(findCycles(interpGraph())).toEqual([]);
  });
});
