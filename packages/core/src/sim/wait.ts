import { ACL_ERROR_RT_PARAM_INVALID } from '../acl/errors.ts';
import { done, fail, type OpResult, type SimContext } from './context.ts';

/** CP-5: -1 waits for ever, a positive number is milliseconds; 0 and other negatives are refused (107000). */
export function badTimeout(timeout: number): OpResult<never> | undefined {
  if (timeout === -1 || timeout > 0) return undefined;
  return fail(ACL_ERROR_RT_PARAM_INVALID, `timeout must be -1 (wait for ever) or a number of milliseconds above 0, not ${timeout} (CP-5)`);
}

export interface Wait {
  /** What the host waits on, as the `sync` event names it. */
  readonly on: { readonly stream?: number; readonly device?: number };
  /** "stream", "device" or "event", for the message. */
  readonly what: string;
  /** The code a wait that outlasts the timeout answers. */
  readonly timedOut: number;
  /** The work carries on after a timeout (said in the message). */
  readonly goesOn: boolean;
}

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
  return fail(
    wait.timedOut,
    `the ${wait.what}'s work runs ${((until - now) / 1e6).toFixed(3)} ms more, past the ${timeout} ms timeout${wait.goesOn ? '; it goes on' : ''} (CP-5)`,
  );
}
