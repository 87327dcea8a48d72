import type { FunctionCategory } from '@pagelens/core';

/**
 * The order the function picker groups the catalogue in. Every category exactly once: a
 * category core adds without one here fails the type check, so no function goes missing.
 */
const ORDER = {
  'device-memory': true,
  'host-memory': true,
  copy: true,
  vmm: true,
  share: true,
  stream: true,
  context: true,
  event: true,
  device: true,
  info: true,
  peer: true,
  process: true,
  error: true,
} as const satisfies Readonly<Record<FunctionCategory, true>>;

export const FUNCTION_CATEGORIES = Object.keys(ORDER) as readonly FunctionCategory[];
