import { ACL_ERROR_RT_PARAM_INVALID } from '../acl/errors.ts';
import { text } from '../texts/table.ts';
import { done, fail, type OpResult, type SimContext } from './context.ts';

/** CP-5: -1 waits for ever, a positive number is milliseconds; 0 and other negatives are refused (107000). */
export function badTimeout(timeout: number): OpResult<never> | undefined {
  if (timeout === -1 || timeout > 0) return undefined;
  return fail(ACL_ERROR_RT_PARAM_INVALID, text('timeout-bad', { timeout }));
}

export interface Wait {
  /** What the host waits on, as the `sync` event names it. */
  readonly on: { readonly stream?: number; readonly device?: number };
  /** What the host waits on, for the message. */
  readonly what: 'stream' | 'device' | 'event';
  /** The code a wait that outlasts the timeout answers. */
  readonly timedOut: number;
  /** The work carries on after a timeout (said in the message). */
  readonly goesOn: boolean;
}

/** The timeout's text by what was waited on and whether its work goes on. */
const TIMEOUT_TEXTS = {
  stream: 'wait-timeout-stream',
  device: 'wait-timeout-device',
  event: 'wait-timeout-event',
} as const;
const GOES_ON_TEXTS = {
  stream: 'wait-timeout-stream-goes-on',
  device: 'wait-timeout-device-goes-on',
  event: 'wait-timeout-event-goes-on',
} as const;

/**
 * The host waits on the virtual clock until `until`, when the work is done, or gives up after
 * `timeout` ms (-1: never); a `sync` event records the wait (CP-4, CP-5, EV-4).
 */
export function waitUntil(context: SimContext, until: number, timeout: number, wait: Wait): OpResult<never> {
  const now = context.state.time;
  if (until <= now) return done();
  const deadline = timeout === -1 ? Number.POSITIVE_INFINITY : now + timeout * 1_000_000;
  context.emit({ kind: 'sync', pid: context.pid, ...wait.on, until: Math.min(until, deadline) });
  if (until <= deadline) return done();
  const code = (wait.goesOn ? GOES_ON_TEXTS : TIMEOUT_TEXTS)[wait.what];
  return fail(wait.timedOut, text(code, { ms: ((until - now) / 1e6).toFixed(3), timeout }));
}
