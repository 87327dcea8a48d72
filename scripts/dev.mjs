#!/usr/bin/env node
// `pnpm dev`: the agent on 7070 (allowing Vite's origin) and Vite on 5173 with hot reload.
// Open the URL the agent prints, replacing port 7070 with 5173.
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const children = [
  spawn(
    process.execPath,
    ['apps/agent/bin/pagelens.mjs', '--allow-origin', 'http://localhost:5173', '--allow-origin', 'http://127.0.0.1:5173'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  ),
  spawn('pnpm', ['--filter', '@pagelens/web', 'run', 'dev'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
