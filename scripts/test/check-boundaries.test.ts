import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFiles, findViolations, importsOf, WEB_LAYER_ORDER, WEB_LAYERS, webFolder } from '../check-boundaries.ts';

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

/** The rules the in-memory files break, by name. */
function broken(files: Record<string, string>): string[] {
  return checkFiles(Object.entries(files).map(([file, text]) => ({ file, text }))).map((v) => `${v.file}:${v.line} ${v.rule}`);
}

describe('web layers', () => {
  it('reports a component importing from app/ (the edge shortcuts and the client context used to make)', () => {
    const found = broken({
      'apps/web/src/components/actions/ActionsPanel.tsx':
        "import { a } from '../../model/x.ts';\nimport { useShortcut } from '../../app/shortcuts.ts';\n",
    });
    expect(found).toEqual([
      'apps/web/src/components/actions/ActionsPanel.tsx:2 web layers: components imports only model, i18n, hooks, viz, store (tests also test, i18n)',
    ]);
  });

  it('accepts the edges the table allows', () => {
    expect(
      broken({
        'apps/web/src/components/actions/ActionsPanel.tsx': [
          "import { useShortcut } from '../../hooks/shortcuts.ts';",
          "import { useAgent } from '../../store/ClientContext.tsx';",
          "import { drawX } from '../../viz/draw/x.ts';",
          "import { m } from '../../model/actions/m.ts';",
          "import { Other } from '../shell/Other.tsx';",
          "import './actions.css';",
          "import { useTranslation } from 'react-i18next';",
        ].join('\n'),
        'apps/web/src/app/App.tsx': "import { Header } from '../components/shell/Header.tsx';\n",
        'apps/web/src/net/agent-client.ts': "import type { AppStore } from '../store/app-store.ts';\n",
        'apps/web/src/main.tsx': "import { App } from './app/App.tsx';\nimport './styles/app.css';\n",
        'apps/web/src/boot.ts': "void import('./main.tsx');\n",
      }),
    ).toEqual([]);
  });

  it.each([
    ['apps/web/src/model/page-map/layout.ts', "import { useAppStore } from '../../store/useAppStore.ts';", 'model imports only itself'],
    ['apps/web/src/model/page-map/layout.ts', "import { t } from '../../i18n/setup.ts';", 'model imports only itself'],
    ['apps/web/src/viz/draw/page-map-draw.ts', "import type { AppState } from '../../store/app-store.ts';", 'viz imports only model'],
    ['apps/web/src/store/ui-slice.ts', "import { Header } from '../components/shell/Header.tsx';", 'store imports only model'],
    ['apps/web/src/net/agent-client.ts', "import { App } from '../app/App.tsx';", 'net imports only model, store'],
    ['apps/web/src/hooks/useThrottled.ts', "import { useAppStore } from '../store/useAppStore.ts';", 'hooks imports only itself'],
    ['apps/web/src/components/log/LogRow.tsx', "import { AgentClient } from '../../net/agent-client.ts';", 'components imports only'],
    ['apps/web/src/components/log/LogRow.tsx', "import { logScene } from '../../../test/log-scene.ts';", 'components imports only'],
    ['apps/web/src/model/log/rows.ts', "export { scene } from '../../../test/log-scene.ts';", 'model imports only itself'],
    ['apps/web/src/widgets/Button.tsx', "import { useState } from 'react';", 'every folder of apps/web/src has a row'],
    [
      'apps/web/src/components/log/LogRow.tsx',
      "import { Button } from '../../widgets/Button.tsx';",
      'every folder of apps/web/src has a row',
    ],
  ])('%s: %s breaks "%s"', (file, text, rule) => {
    const found = broken({ [file]: `${text}\n` });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.startsWith(`${file}:1 `))).toBe(true);
    expect(found.some((v) => v.includes(rule))).toBe(true);
  });

  it('lets tests use the scenes and the catalogues, but not a higher layer', () => {
    expect(
      broken({
        'apps/web/src/model/actions/policies.test.ts':
          "import { scene } from '../../../test/acl-scene.ts';\nimport { actions } from '../../i18n/messages/actions.ts';\n",
        'apps/web/test/log-scene.ts': "import { Timeline } from '../src/model/timeline.ts';\n",
      }),
    ).toEqual([]);
    expect(broken({ 'apps/web/src/model/log/rows.test.ts': "import { useAppStore } from '../../store/useAppStore.ts';\n" })).toEqual([
      'apps/web/src/model/log/rows.test.ts:1 web layers: model imports only itself (tests also test, i18n)',
    ]);
  });

  it('places files by folder: entry for files directly under src, test for the scenes, nothing outside', () => {
    expect(webFolder('apps/web/src/main.tsx')).toBe('entry');
    expect(webFolder('apps/web/src/viz/draw/x.ts')).toBe('viz');
    expect(webFolder('apps/web/test/acl-scene.ts')).toBe('test');
    expect(webFolder('apps/web/vite.config.ts')).toBeUndefined();
    expect(webFolder('apps/agent/src/main.ts')).toBeUndefined();
  });

  it('is a layering: every allowed edge goes to a layer listed before it, so no two layers import each other', () => {
    const upward = WEB_LAYER_ORDER.flatMap((from) =>
      WEB_LAYERS[from].filter((to) => WEB_LAYER_ORDER.indexOf(to) >= WEB_LAYER_ORDER.indexOf(from)).map((to) => `${from} → ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it('has a row for every folder of apps/web/src, and the web README shows the same table', () => {
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    const folders = readdirSync(join(repo, 'apps/web/src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((name) => !(WEB_LAYER_ORDER as readonly string[]).includes(name))).toEqual([]);
    // README rows look like: | `components` | … | `model`, `i18n`, … |
    const readme = readFileSync(join(repo, 'apps/web/README.md'), 'utf8');
    const rows = Object.fromEntries(
      [...readme.matchAll(/^\| `([a-z0-9]+)`[^|]*\|[^|]*\| ([^|]*)\|$/gm)].map((m) => [
        m[1],
        [...(m[2] ?? '').matchAll(/`([a-z0-9]+)`/g)].map((n) => n[1]),
      ]),
    );
    expect(rows).toEqual(WEB_LAYERS);
  });
});
