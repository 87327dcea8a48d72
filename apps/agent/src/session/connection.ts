import type { AgentMessage, ErrorCode, Role } from '@pagelens/core';
import type { TimerHandle } from './clock.ts';
import type { DriverSession } from './driver-session.ts';
import type { Outbox } from './outbox.ts';

/** One client of the agent, from its socket's upgrade until it closes. */
export interface Connection {
  readonly outbox: Outbox;
  readonly remote: string;
  role: Role | undefined;
  session: DriverSession | undefined;
  helloTimer: TimerHandle | undefined;
  /** The snapshot form the client asked for in its hello. */
  packedSnapshots: boolean;
  /** The client asked for the session's history after each snapshot (history-pager.ts). */
  history: boolean;
  /** The hello's free-text label ("trainer laptop"), relayed with a driver's follow state. */
  client: string | undefined;
  closed: boolean;
}

/** Sends a text (or bytes shared with other clients) unless the connection has closed. */
export function sendText(connection: Connection, text: string | Uint8Array): void {
  if (!connection.closed) connection.outbox.control(text);
}

export function send(connection: Connection, message: AgentMessage): void {
  sendText(connection, JSON.stringify(message));
}

export interface ErrorDetail {
  readonly id?: number;
  readonly field?: string;
}

export function sendError(connection: Connection, code: ErrorCode, message: string, extra: ErrorDetail = {}): void {
  send(connection, { type: 'error', code, message, ...extra });
}

/** The connection that holds `session` now, if any. */
export function holderOf(connections: Iterable<Connection>, session: DriverSession): Connection | undefined {
  for (const c of connections) if (c.session === session) return c;
  return undefined;
}
