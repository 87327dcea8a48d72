import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findViolations, importsOf } from '../check-boundaries.ts';

const roots: string[] = [];

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pagelens-boundaries-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('boundary check', () => {
  it('finds static, dynamic, re-export and require imports with their lines', () => {
    const found = importsOf("import a from 'x';\nexport { b } from './y.ts';\nconst c = await import('z');\nrequire('w');\n");
    expect(found).toEqual([
      { specifier: 'x', line: 1 },
      { specifier: './y.ts', line: 2 },
      { specifier: 'z', line: 3 },
      { specifier: 'w', line: 4 },
    ]);
  });

  it('accepts a tree that follows the rules', () => {
    const root = tree({
      'packages/core/src/a.ts': "import { z } from 'zod';\nimport { b } from './b.ts';\n",
      'apps/web/src/viz/behaviors/zoom.ts': "import { zoom } from 'd3-zoom';\n",
      'apps/web/src/model/scale.ts': "import { scaleLinear } from 'd3-scale';\nimport { x } from '@pagelens/core';\n",
      'apps/agent/src/backends/acl/lib.ts': "import koffi from 'koffi';\n",
    });
    expect(findViolations(root)).toEqual([]);
  });

  it.each([
    ['packages/core/src/bad.ts', "import { readFileSync } from 'node:fs';", 'core is pure'],
    ['packages/core/src/bad.ts', "import fs from 'fs';", 'core is pure'],
    ['packages/core/src/bad.ts', "import React from 'react';", 'core is pure'],
    ['packages/core/src/bad.ts', "import { scaleLinear } from 'd3-scale';", 'core is pure'],
    ['packages/core/src/bad.ts', "import { WebSocket } from 'ws';", 'core is pure'],
    ['packages/core/src/bad.ts', "const k = await import('koffi');", 'core is pure'],
    ['packages/core/src/bad.ts', "import { main } from '@pagelens/agent';", 'core never imports the apps'],
    ['apps/web/src/bad.ts', "import { main } from '@pagelens/agent';", 'web never imports the agent'],
    ['apps/web/src/bad.ts', "import { x } from '../../agent/src/x.ts';", 'web never imports the agent'],
    ['apps/agent/src/bad.ts', "export { App } from '@pagelens/web';", 'agent never imports the web app'],
    ['apps/agent/src/server/bad.ts', "import koffi from 'koffi';", 'only apps/agent/src/backends/acl/ imports koffi'],
    ['apps/web/src/components/Bad.tsx', "import { select } from 'd3-selection';", 'only apps/web/src/viz/behaviors/'],
  ])('%s: %s breaks "%s"', (file, text, rule) => {
    const root = tree({ [file]: `${text}\n` });
    const violations = findViolations(root);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.file === file && v.line === 1)).toBe(true);
    expect(violations.map((v) => v.rule).some((name) => name.includes(rule))).toBe(true);
  });

  it('passes on this repository', () => {
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    expect(findViolations(repo)).toEqual([]);
  });
});
