import { fingerprint, type HostState } from '@pagelens/core';

/** Undefined when two states are identical; otherwise a short window around the first difference. */
export function stateDifference(a: HostState, b: HostState): string | undefined {
  const x = fingerprint(a);
  const y = fingerprint(b);
  if (x === y) return undefined;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i += 1;
  return `states differ at ${i}: …${x.slice(Math.max(0, i - 120), i + 80)}… vs …${y.slice(Math.max(0, i - 120), i + 80)}…`;
}
