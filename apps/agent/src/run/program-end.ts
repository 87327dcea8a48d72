import { errorName, invokeCall, planTeardown } from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import type { Logger } from '../server/logger.ts';
import { findLeaks, type Leak } from './leaks.ts';
import type { ProgramSession } from './run-server.ts';

/** How a program's process ended, as its parent saw it. */
export type ExitStatus = { readonly code: number; readonly signal?: undefined } | { readonly code?: undefined; readonly signal: string };

export interface ProgramEnd {
  readonly session: ProgramSession;
  readonly status: ExitStatus | undefined;
  /** Read before the reclaim. */
  readonly leaks: readonly Leak[];
  /** The calls the reclaim made, by function. */
  readonly reclaimed: ReadonlyMap<string, number>;
}

export function describeStatus(status: ExitStatus | undefined): string {
  if (status === undefined) return 'ended (its connection closed)';
  return status.signal !== undefined ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
}

/**
 * Marks the program's process ended and reclaims what it held, as the driver does when a process
 * exits (LT-3): the teardown plan's calls run as that process, so the log shows each one.
 */
export async function endProgram(
  session: ProgramSession,
  backend: Backend,
  status: ExitStatus | undefined,
  log: Logger,
): Promise<ProgramEnd> {
  const { bridge } = session;
  const pid = bridge.process.pid;
  const leaks = findLeaks(backend.state(), pid, bridge.hostMap, bridge.record);
  const reclaimed = new Map<string, number>();
  for (const call of planTeardown(backend.state(), pid)) {
    const result = await invokeCall(bridge.process.runtime, call);
    reclaimed.set(call.fn, (reclaimed.get(call.fn) ?? 0) + 1);
    if (result.ret !== 0) log.warn(`reclaiming process ${pid}: ${call.fn} answered ${errorName(result.ret)}`);
  }
  const what = [...reclaimed].map(([fn, count]) => `${fn} ×${count}`).join(', ');
  log.info(
    `process ${pid} (${bridge.info.argv.join(' ') || 'program'}, pid ${bridge.info.pid}) ${describeStatus(status)}; ` +
      (what === '' ? 'it held nothing' : `reclaimed its memory as the driver does at process exit (LT-3): ${what}`),
  );
  return { session, status, leaks, reclaimed };
}
