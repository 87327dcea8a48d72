import { z } from 'zod';
import { ErrorMessage } from './errors.ts';
import { DriverFollowState, PublishFollowState } from './follow-messages.ts';
import { Hello, HostMessage, Welcome } from './handshake.ts';
import { HistoryBaseMessage, HistoryMessage, HistoryPageMessage } from './history-messages.ts';
import type { PackedSnapshot } from './packed-snapshot.ts';
import {
  Call,
  EventsMessage,
  Notice,
  Ping,
  Pong,
  Presence,
  Reset,
  Result,
  Resync,
  RunsMessage,
  SnapshotMessage,
} from './session-messages.ts';

/** Parsed values are mutable; what a sender builds may be readonly. Both satisfy the readonly form. */
type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Every message a client may send. */
export const ClientMessage = z.discriminatedUnion('type', [Hello, Call, Reset, Ping, PublishFollowState]);
export type ClientMessage = DeepReadonly<z.infer<typeof ClientMessage>>;

/** Every message the agent may send. */
export const AgentMessage = z.discriminatedUnion('type', [
  Welcome,
  HostMessage,
  ErrorMessage,
  Result,
  EventsMessage,
  SnapshotMessage,
  Resync,
  Pong,
  Notice,
  Presence,
  RunsMessage,
  HistoryMessage,
  HistoryBaseMessage,
  HistoryPageMessage,
  DriverFollowState,
]);
export type AgentMessage = DeepReadonly<z.infer<typeof AgentMessage>>;

/**
 * What the agent sends for a snapshot when it packs it in columns (packed-snapshot.ts): parsing
 * rebuilds the rows, so receivers see a plain `snapshot` message.
 */
export interface PackedSnapshotMessage {
  readonly type: 'snapshot';
  readonly seq: number;
  readonly reset: boolean;
  readonly packed: PackedSnapshot;
}

/** A history base packed the same way. */
export interface PackedHistoryBaseMessage {
  readonly type: 'historyBase';
  readonly seq: number;
  readonly packed: PackedSnapshot;
}
