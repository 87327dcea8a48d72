import {
  type AclArgs,
  type AclFunctionName,
  type AclRuntime,
  type CallReply,
  errorName,
  invokeAcl,
  invokeCall,
  text,
} from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import type { JournalSink } from '../journal/entries.ts';
import type { Logger } from '../server/logger.ts';
import { type Connection, holderOf, send, sendError } from './connection.ts';
import { type CallRecorder, type DriverSession, execute, type RuntimeAnswer } from './driver-session.ts';
import { demandOf, type Limits, quotaProblem } from './quotas.ts';
import type { UsageTracker } from './usage-tracker.ts';

/** What a call's turn needs from the hub. */
export interface TurnContext {
  readonly backend: Backend;
  readonly journal: JournalSink;
  readonly log: Logger;
  readonly limits: Limits;
  readonly usage: UsageTracker;
  readonly recorders: Set<CallRecorder>;
  readonly connections: Iterable<Connection>;
}

/** Runs one call through the session's process, journals it, and collects the events it caused. */
export async function runAndJournal(
  context: Pick<TurnContext, 'backend' | 'journal' | 'recorders'>,
  session: DriverSession,
  index: number,
  id: number,
  call: { readonly fn: AclFunctionName; readonly args: Readonly<Record<string, unknown>>; readonly source: 'client' | 'teardown' },
  run: (runtime: AclRuntime) => Promise<RuntimeAnswer>,
): Promise<CallReply> {
  const { journal } = context;
  const opened = session.process(index, context.backend, journal);
  journal.write({ type: 'call', session: session.id, process: index, id, fn: call.fn, args: call.args, source: call.source });
  const result = await execute(opened, call.fn, run, context.recorders);
  journal.write({
    type: 'result',
    session: session.id,
    id,
    ret: result.ret,
    out: result.out ?? {},
    ...(result.message === undefined ? {} : { message: result.message }),
  });
  return result;
}

/**
 * A client's call in its turn: the quota check on what the session holds now, the call, and the
 * answer to whoever holds the session by then (the caller may have reconnected). A failure inside
 * the backend becomes an error reply.
 */
export async function performCall<F extends AclFunctionName>(
  context: TurnContext,
  connection: Connection,
  session: DriverSession,
  id: number,
  index: number,
  fn: F,
  args: AclArgs<F>,
): Promise<void> {
  const answerTo = (): Connection => holderOf(context.connections, session) ?? connection;
  let result: CallReply;
  try {
    const opened = session.process(index, context.backend, context.journal);
    // Quotas are judged in the call's turn, on what the session holds after every call before it.
    const wanted = demandOf(fn, args, { state: context.backend.state(), pid: opened.pid });
    const problem = quotaProblem(wanted, context.usage.usage(session.pids()), context.limits);
    if (problem !== undefined) {
      sendError(answerTo(), 'quota-exceeded', problem, { id });
      return;
    }
    result = await runAndJournal(context, session, index, id, { fn, args, source: 'client' }, (runtime) => invokeAcl(runtime, fn, args));
  } catch (error) {
    context.log.error(`${fn} failed inside the backend: ${error instanceof Error ? error.stack : String(error)}`);
    sendError(connection, 'backend-error', text('backend-failed', { fn, error: error instanceof Error ? error.message : String(error) }), {
      id,
    });
    return;
  }
  send(answerTo(), { type: 'result', id, ...result });
}

/** Releases everything the session holds, through the backend, in RULES.md order; idempotent. */
export async function tearDown(
  context: Pick<TurnContext, 'backend' | 'journal' | 'recorders' | 'log'>,
  session: DriverSession,
  reason: string,
): Promise<number> {
  let failures = 0;
  for (const { process: index, call } of session.teardownCalls(context.backend)) {
    const result = await runAndJournal(context, session, index, 0, { ...call, source: 'teardown' }, (runtime) => invokeCall(runtime, call));
    if (result.ret !== 0) {
      failures += 1;
      context.log.warn(
        `teardown (${reason}) of session ${session.id}: ${call.fn} answered ${errorName(result.ret)}${result.message === undefined ? '' : `: ${result.message}`}`,
      );
    }
  }
  context.journal.write({ type: 'session', session: session.id, action: 'teardown' });
  return failures;
}
