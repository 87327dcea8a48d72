import { type AgentMessage, type ErrorCode, type Role, type Text, withText } from '@pagelens/core';
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

/** A notice: `code` is the notice's own (scripts branch on it), the text is sent in English and as its code. */
export function notice(level: 'info' | 'warn', code: string, why: Text): AgentMessage {
  return { type: 'notice', level, code, ...withText(why) };
}

/** `why` is a text of core's table (sent as its English message and its code) or, for texts from elsewhere, plain English. */
export function sendError(connection: Connection, code: ErrorCode, why: Text | string, extra: ErrorDetail = {}): void {
  send(connection, { type: 'error', code, ...(typeof why === 'string' ? { message: why } : withText(why)), ...extra });
}

/** The connection that holds `session` now, if any. */
export function holderOf(connections: Iterable<Connection>, session: DriverSession): Connection | undefined {
  for (const c of connections) if (c.session === session) return c;
  return undefined;
}
