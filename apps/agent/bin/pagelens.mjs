#!/usr/bin/env node
// The agent runs from its TypeScript sources (no build step, no stale output):
// tsx compiles each module as it is loaded.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
