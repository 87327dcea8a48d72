import { defineConfig } from 'vitest/config';

/**
 * A test's time limit guards against a hang; it is never an assertion. Property and fuzz tests do
 * seconds of CPU work, which a busy 2-core machine can stretch several times over.
 */
const HANG_GUARD_MS = 120_000;

export default defineConfig({
  test: {
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    projects: [
      {
        extends: true,
        test: { name: 'core', root: './packages/core', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'agent', root: './apps/agent', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'web', root: './apps/web', include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      { extends: true, test: { name: 'scripts', root: './scripts', include: ['test/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'e2e-support', root: './e2e', include: ['test/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
