import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', root: './packages/core', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'agent', root: './apps/agent', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'web', root: './apps/web', include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'], environment: 'node' } },
      { test: { name: 'scripts', root: './scripts', include: ['test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'e2e-support', root: './e2e', include: ['test/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
