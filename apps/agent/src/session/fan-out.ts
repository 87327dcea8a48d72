import type { AgentMessage, MemoryEvent } from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import type { JournalSink } from '../journal/entries.ts';
import type { Clock, TimerHandle } from './clock.ts';
import { type Connection, send, sendText } from './connection.ts';
import { eventsFrameText } from './event-frames.ts';
import type { SessionHistory } from './history.ts';
import { CloseCode } from './peer-socket.ts';
import { SnapshotTexts } from './snapshot-texts.ts';

/** Largest event batch in one frame. */
export const EVENTS_PER_FRAME = 2000;
/** Presence messages are coalesced over this long. */
export const PRESENCE_MS = 50;
/** How often clients that fell behind are looked at (resync when drained, close when stuck). */
const CATCH_UP_MS = 250;

export interface FanOutContext {
  readonly backend: Backend;
  readonly journal: JournalSink;
  readonly clock: Clock;
  readonly connections: Iterable<Connection>;
  /** What the presence message says now. */
  readonly presence: () => Extract<AgentMessage, { type: 'presence' }>;
  /** Every event sent is recorded here, in the frames' JSON. */
  readonly history: SessionHistory;
  /** A snapshot at `seq` was just sent to the client (its history follows). */
  readonly snapshotSent: (connection: Connection, seq: number) => void;
}

/**
 * The agent's outgoing stream: every event batch, serialised once and offered to every client
 * (skipped for one that cannot keep up, which is resynced with a snapshot when it drains); snapshots
 * and presence, whose bytes all clients share; the journal's copy of the events; and the history's.
 */
export class FanOut {
  readonly #context: FanOutContext;
  readonly #snapshots = new SnapshotTexts();
  #pending: MemoryEvent[] = [];
  #flushScheduled = false;
  #presenceTimer: TimerHandle | undefined;
  #stopped = false;
  readonly #stopCatchUp: () => void;

  constructor(context: FanOutContext) {
    this.#context = context;
    this.#stopCatchUp = context.clock.every(() => this.flush(), CATCH_UP_MS);
  }

  /** Events from the backend: sent at the end of the turn, or at once when many are waiting. */
  push(events: readonly MemoryEvent[]): void {
    for (const event of events) this.#pending.push(event);
    if (this.#pending.length >= EVENTS_PER_FRAME * 4) this.flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      this.#context.clock.defer(() => this.flush());
    }
  }

  /** Forgets events not yet sent (a reset replaced the host they describe). */
  discardPending(): void {
    this.#pending = [];
  }

  sendSnapshot(connection: Connection, reset: boolean): void {
    const state = this.#context.backend.state();
    sendText(connection, this.#snapshots.bytes(state, connection.packedSnapshots, reset));
    connection.outbox.caughtUp(state.seq);
    this.#context.snapshotSent(connection, state.seq);
  }

  /**
   * Presence changes are told at most once per PRESENCE_MS, in one text shared by everyone: a
   * hundred viewers joining would otherwise cost ten thousand messages.
   */
  presenceChanged(): void {
    if (this.#presenceTimer !== undefined || this.#stopped) return;
    this.#presenceTimer = this.#context.clock.setTimeout(() => {
      this.#presenceTimer = undefined;
      const bytes = Buffer.from(JSON.stringify(this.#context.presence()));
      for (const c of this.#context.connections) if (c.role !== undefined) sendText(c, bytes);
    }, PRESENCE_MS);
  }

  /** Sends pending events in frames of at most EVENTS_PER_FRAME, and resyncs clients that caught up. */
  flush(): void {
    this.#flushScheduled = false;
    const { clock, journal, connections, backend, history } = this.#context;
    const now = clock.now();
    const events = this.#pending;
    this.#pending = [];
    // Each frame's events are serialized once, for every client and for the journal.
    const journaled: string[] = [];
    for (let start = 0; start < events.length; start += EVENTS_PER_FRAME) {
      const chunk = events.slice(start, start + EVENTS_PER_FRAME);
      const from = chunk[0]?.seq ?? 0;
      const to = chunk[chunk.length - 1]?.seq ?? 0;
      const array = JSON.stringify(chunk);
      if (journal.path !== undefined) journaled.push(array);
      history.record(chunk, array);
      let frame: Buffer | undefined;
      for (const c of connections) {
        if (c.role === undefined || c.closed) continue;
        if (c.outbox.seq >= from && c.outbox.seq < to) {
          // Joined in the middle of this batch: send only what it lacks.
          const rest = chunk.filter((e) => e.seq > c.outbox.seq);
          c.outbox.offer(JSON.stringify({ type: 'events', from: rest[0]?.seq ?? to, to, events: rest }), rest[0]?.seq ?? to, to, now);
          continue;
        }
        frame ??= Buffer.from(eventsFrameText(from, to, array));
        c.outbox.offer(frame, from, to, now);
      }
    }
    journal.writeEvents(journaled);
    for (const c of connections) {
      if (c.role === undefined || c.closed) continue;
      if (c.outbox.stalledTooLong(now)) {
        c.outbox.socket.close(CloseCode.policyViolation, 'client too slow: it did not read for 10 s');
        continue;
      }
      if (c.outbox.canCatchUp()) {
        const state = backend.state();
        send(c, {
          type: 'resync',
          reason: 'this client fell behind; a fresh snapshot follows',
          skippedFrom: c.outbox.behindFrom ?? state.seq,
          skippedTo: state.seq,
        });
        this.sendSnapshot(c, false);
      }
    }
  }

  /** Stops the timers; what is pending is flushed first. */
  stop(): void {
    this.#stopped = true;
    this.#stopCatchUp();
    if (this.#presenceTimer !== undefined) this.#context.clock.clearTimeout(this.#presenceTimer);
    this.#presenceTimer = undefined;
    this.flush();
  }
}
