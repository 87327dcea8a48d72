import {
  type AclArgs,
  type AclFunctionName,
  argsAreValid,
  type Call,
  type ErrorCode,
  isAclFunctionName,
  normalizeArgs,
  type Text,
  text,
} from '@pagelens/core';
import { type DriverSession, MAX_PROCESSES, MAX_QUEUED_BYTES, MAX_QUEUED_CALLS } from './driver-session.ts';
import type { Limits } from './quotas.ts';

export interface Refusal {
  readonly ok: false;
  readonly code: ErrorCode;
  /** Why, as a text of core's table, or plain English for the argument checks' own texts. */
  readonly message: Text | string;
  readonly field?: string;
}

/** A visitor of an admitted call: its function and its arguments, typed together. */
export type CallVisitor<R> = <F extends AclFunctionName>(fn: F, args: AclArgs<F>) => R;

export interface Admitted {
  readonly ok: true;
  readonly session: DriverSession;
  /** The session's process it runs in. */
  readonly process: number;
  /** Hands the call, its arguments normalised and validated (trusted from here on), to `visit`. */
  with<R>(visit: CallVisitor<R>): R;
}

export interface AdmissionContext {
  readonly backendName: string;
  readonly limits: Limits;
}

const refuse = (code: ErrorCode, message: Text | string, field?: string): Refusal =>
  field === undefined ? { ok: false, code, message } : { ok: false, code, message, field };

function admitArgs<F extends AclFunctionName>(fn: F, raw: unknown): { ok: true; with<R>(visit: CallVisitor<R>): R } | Refusal {
  const normalized = normalizeArgs(fn, raw);
  if (!normalized.ok) return refuse('invalid-argument', normalized.message, `args.${normalized.field}`);
  const args = normalized.value;
  let refusal: Refusal | undefined;
  // An inline callback: tsx (esbuild keepNames) calls __name() on a named one (`const invalid = …`) each time it is made.
  if (!argsAreValid(fn, args, (field, message) => (refusal = refuse('invalid-argument', message, `args.${field}`)))) {
    return refusal ?? refuse('invalid-argument', text('args-invalid', { fn }));
  }
  return { ok: true, with: (visit) => visit(fn, args) };
}

/**
 * Whether a client's call may join its session's queue: this is where untrusted arguments are
 * validated, once (the backend trusts what passes). Quotas on what the session holds are judged
 * later, in the call's turn (quotas.ts); what is judged here cannot change while the call waits.
 */
export function admit(session: DriverSession | undefined, message: Call, bytes: number, context: AdmissionContext): Admitted | Refusal {
  if (session === undefined) {
    return refuse('not-driver', text('viewer-cannot-call'));
  }
  if (!isAclFunctionName(message.fn)) {
    return refuse('unknown-function', text('unknown-function', { fn: message.fn }), 'fn');
  }
  const admitted = admitArgs(message.fn, message.args);
  if (!admitted.ok) return admitted;
  const index = message.process ?? 0;
  if (index > 0 && context.backendName !== 'sim') {
    return refuse('not-allowed', text('processes-sim-only'), 'process');
  }
  if (index >= MAX_PROCESSES) return refuse('invalid-argument', text('process-range', { last: MAX_PROCESSES - 1 }), 'process');
  if (!session.rate.take()) {
    return refuse('rate-limited', text('rate-calls', { perSecond: context.limits.callsPerSecond }));
  }
  if (session.queued >= MAX_QUEUED_CALLS) {
    return refuse('rate-limited', text('rate-queued-calls', { calls: MAX_QUEUED_CALLS }));
  }
  if (session.queuedBytes + bytes > MAX_QUEUED_BYTES) {
    return refuse('rate-limited', text('rate-queued-bytes', { bytes: session.queuedBytes }));
  }
  return { ok: true, session, process: index, with: admitted.with };
}
