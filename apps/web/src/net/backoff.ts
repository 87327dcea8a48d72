/** Reconnect delays in milliseconds: 0.5 s doubling to a 10 s ceiling. */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 10_000;

/** Delay after `attempt` failed attempts (1-based). `jitter` in [0, 1) spreads clients apart by up to 20 %. */
export function backoffDelay(attempt: number, jitter = 0): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 16));
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** exponent);
  return Math.round(base * (1 + 0.2 * jitter));
}
