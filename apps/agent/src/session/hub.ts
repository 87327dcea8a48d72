import {
  type AgentMessage,
  type Call,
  text as coded,
  type Hello,
  type MemoryEvent,
  PROTOCOL_VERSION,
  type PublishFollowState,
  type Reset,
} from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import type { JournalSink } from '../journal/entries.ts';
import type { Logger } from '../server/logger.ts';
import { admit } from './admission.ts';
import { type Clock, systemClock } from './clock.ts';
import { type Connection, holderOf, notice, send, sendError } from './connection.ts';
import { DriverRegistry } from './driver-registry.ts';
import type { CallRecorder, DriverSession } from './driver-session.ts';
import { FanOut } from './fan-out.ts';
import { FollowRelay } from './follow-relay.ts';
import { DEFAULT_HISTORY_CAPS, type HistoryCaps, SessionHistory } from './history.ts';
import { HistoryPager } from './history-pager.ts';
import { parseInbound } from './inbound.ts';
import { DEFAULT_WATERMARKS, Outbox, type Watermarks } from './outbox.ts';
import { CloseCode, type PeerHandler, type PeerSocket } from './peer-socket.ts';
import { performCall, type TurnContext, tearDown } from './perform.ts';
import type { Limits } from './quotas.ts';
import { resetRefusal } from './reset-check.ts';
import { UsageTracker } from './usage-tracker.ts';

export { type Clock, systemClock } from './clock.ts';
export { EVENTS_PER_FRAME, PRESENCE_MS } from './fan-out.ts';

export interface HubOptions {
  readonly backend: Backend;
  readonly journal: JournalSink;
  readonly log: Logger;
  readonly limits: Limits;
  readonly allowTakeover: boolean;
  readonly resumeGraceMs: number;
  readonly helloTimeoutMs?: number;
  readonly clock?: Clock;
  readonly watermarks?: Watermarks;
  /** How much history late joiners can get (DEFAULT_HISTORY_CAPS). */
  readonly historyCaps?: HistoryCaps;
  /** History bytes paged out per event-loop turn, all clients together (HISTORY_TURN_BYTES). */
  readonly historyTurnBytes?: number;
  /** What a client gets after its snapshot besides the stream (the runs of `pagelens run`). */
  readonly greeting?: () => readonly AgentMessage[];
  /** Told after a reset replaced the host (the runs registry marks its runs as before the reset). */
  readonly onReset?: () => void;
}

export const RESUME_GRACE_MS = 30_000;
/** A client with this much unread in its socket that sends again is closed (replies are never dropped). */
export const UNREAD_REPLIES_LIMIT = 16 * 1024 * 1024;

/**
 * Everyone connected to the agent: one driver session that may call, any number of viewers that
 * watch, all fed the same event stream. The hub reads each message and hands it on: calls are
 * admitted (admission.ts) and run in their session's turn (perform.ts), the driver session is
 * kept across reconnects (driver-registry.ts), and the stream goes out through the fan-out.
 */
export class Hub {
  readonly #options: HubOptions;
  readonly #clock: Clock;
  readonly #connections = new Set<Connection>();
  /** The calls running now, each picking its events out of the stream. */
  readonly #recorders = new Set<CallRecorder>();
  /** Drivers whose hello came while the session was being torn down (DriverSession.ending), in order. */
  readonly #afterTeardown: { readonly connection: Connection; readonly hello: Hello }[] = [];
  readonly #usage = new UsageTracker();
  readonly #registry: DriverRegistry;
  readonly #fanOut: FanOut;
  readonly #history: SessionHistory;
  readonly #pager: HistoryPager;
  readonly #follow: FollowRelay;
  readonly #turn: TurnContext;
  #stopped = false;
  readonly #unsubscribe: () => void;

  constructor(options: HubOptions) {
    this.#options = options;
    const clock = options.clock ?? systemClock;
    this.#clock = clock;
    const { backend, journal } = options;
    const connections = this.#connections;
    this.#registry = new DriverRegistry({
      backend,
      journal,
      clock,
      connections,
      callsPerSecond: options.limits.callsPerSecond,
      allowTakeover: options.allowTakeover,
      resumeGraceMs: options.resumeGraceMs,
      expired: (session) => void this.#endSession(session, 'its driver did not come back within the grace period'),
    });
    this.#history = new SessionHistory(backend.state(), options.historyCaps ?? DEFAULT_HISTORY_CAPS);
    this.#pager = new HistoryPager({
      history: this.#history,
      clock,
      ...(options.historyTurnBytes === undefined ? {} : { turnBytes: options.historyTurnBytes }),
    });
    this.#fanOut = new FanOut({
      backend,
      journal,
      clock,
      connections,
      presence: () => this.#presence(),
      history: this.#history,
      snapshotSent: (connection, seq) => this.#pager.start(connection, seq),
    });
    this.#follow = new FollowRelay({ clock, connections });
    this.#turn = {
      backend,
      journal,
      log: options.log,
      limits: options.limits,
      usage: this.#usage,
      recorders: this.#recorders,
      connections,
    };
    this.#unsubscribe = backend.subscribe((events) => this.#onEvents(events));
    journal.write({ type: 'header', version: 1, created: new Date().toISOString(), config: backend.config() });
  }

  get backend(): Backend {
    return this.#options.backend;
  }

  /** A new authorised socket. */
  connect(socket: PeerSocket, remote: string): PeerHandler {
    const connection: Connection = {
      outbox: new Outbox(socket, this.#options.watermarks ?? DEFAULT_WATERMARKS),
      remote,
      role: undefined,
      session: undefined,
      helloTimer: undefined,
      packedSnapshots: false,
      history: false,
      client: undefined,
      closed: false,
    };
    this.#connections.add(connection);
    connection.helloTimer = this.#clock.setTimeout(() => {
      if (connection.role === undefined) socket.close(CloseCode.policyViolation, 'no hello within 10 s');
    }, this.#options.helloTimeoutMs ?? 10_000);
    return {
      message: (text) => this.#receive(connection, text),
      closed: () => this.#disconnected(connection),
    };
  }

  #receive(connection: Connection, text: string): void {
    if (this.#stopped) return;
    // Replies always go out; a client that keeps asking without reading them would grow them without bound.
    if (connection.outbox.socket.bufferedAmount() > UNREAD_REPLIES_LIMIT) {
      connection.outbox.socket.close(CloseCode.policyViolation, 'client keeps sending but does not read its replies');
      return;
    }
    const parsed = parseInbound(text);
    if (!parsed.ok) {
      sendError(connection, 'bad-message', parsed.message, parsed.field === undefined ? {} : { field: parsed.field });
      return;
    }
    const message = parsed.value;
    if (message.type !== 'hello' && connection.role === undefined) {
      sendError(connection, 'hello-required', coded('hello-required', { protocol: PROTOCOL_VERSION }));
      return;
    }
    switch (message.type) {
      case 'hello':
        this.#hello(connection, message);
        return;
      case 'ping':
        send(connection, { type: 'pong', time: this.#clock.now(), ...(message.id === undefined ? {} : { id: message.id }) });
        return;
      case 'call':
        this.#call(connection, message, text.length);
        return;
      case 'reset':
        void this.#reset(connection, message);
        return;
      case 'followState':
        this.#followState(connection, message);
        return;
    }
  }

  #followState(connection: Connection, message: PublishFollowState): void {
    if (connection.session === undefined) {
      sendError(connection, 'not-driver', coded('viewer-cannot-publish'));
      return;
    }
    this.#follow.publish(message.state, connection.client);
  }

  #hello(connection: Connection, hello: Hello): void {
    if (connection.role !== undefined) {
      sendError(connection, 'already-greeted', coded('already-greeted'));
      return;
    }
    if (hello.protocol !== PROTOCOL_VERSION) {
      sendError(connection, 'protocol-mismatch', coded('protocol-mismatch', { agent: PROTOCOL_VERSION, client: hello.protocol }), {
        field: 'protocol',
      });
      connection.outbox.socket.close(CloseCode.protocolError, 'protocol mismatch');
      return;
    }
    if (connection.helloTimer !== undefined) this.#clock.clearTimeout(connection.helloTimer);
    if (hello.role === 'driver' && this.#registry.driver?.ending === true) {
      // Neither resumed nor taken over: the session is going. This driver gets a new one once it has ended.
      if (!this.#afterTeardown.some((waiting) => waiting.connection === connection)) this.#afterTeardown.push({ connection, hello });
      send(connection, notice('info', 'driver-after-teardown', coded('driver-after-teardown')));
      return;
    }
    if (hello.role === 'driver' && !this.#registry.attach(connection, hello)) return;
    // Events still waiting go out (and into the history) first, so the history reaches the snapshot's seq.
    this.#fanOut.flush();
    connection.role = hello.role;
    connection.packedSnapshots = hello.snapshots === 'packed';
    connection.history = hello.history === true;
    connection.client = hello.client;
    this.#welcome(connection);
    this.#follow.joined(connection);
    this.#fanOut.presenceChanged();
  }

  #welcome(connection: Connection): void {
    const { backend, limits } = { backend: this.backend, limits: this.#options.limits };
    const state = backend.state();
    const session = connection.session;
    send(connection, {
      type: 'welcome',
      protocol: PROTOCOL_VERSION,
      sessionId: session?.id ?? `viewer-${this.#connections.size}`,
      role: connection.role ?? 'viewer',
      ...(session === undefined ? {} : { resumeToken: session.resumeToken }),
      backend: backend.name,
      host: backend.host,
      devices: backend.devices(),
      functions: [...backend.functions],
      limits,
      seq: state.seq,
    });
    // The welcome leaves before the snapshot is built (100 ms and more for a large host), so the
    // client sets up its views meanwhile.
    connection.outbox.socket.flush();
    this.#fanOut.sendSnapshot(connection, false);
    for (const message of this.#options.greeting?.() ?? []) send(connection, message);
  }

  /** A message for every client that said hello (the runs list when it changed). */
  broadcast(message: AgentMessage): void {
    if (this.#stopped) return;
    for (const connection of this.#connections) if (connection.role !== undefined && !connection.closed) send(connection, message);
  }

  #presence(): Extract<AgentMessage, { type: 'presence' }> {
    const driver = this.#registry.driver;
    let viewers = 0;
    for (const c of this.#connections) if (c.role === 'viewer') viewers += 1;
    return {
      type: 'presence',
      driver: driver !== undefined && holderOf(this.#connections, driver) !== undefined,
      driverWaiting: driver !== undefined && driver.graceTimer !== undefined,
      driverEnding: driver?.ending === true,
      viewers,
    };
  }

  #call(connection: Connection, message: Call, bytes: number): void {
    const admitted = admit(connection.session, message, bytes, { backendName: this.backend.name, limits: this.#options.limits });
    if (!admitted.ok) {
      sendError(connection, admitted.code, admitted.message, {
        id: message.id,
        ...(admitted.field === undefined ? {} : { field: admitted.field }),
      });
      return;
    }
    const { session, process } = admitted;
    const task = admitted.with((fn, args) => () => performCall(this.#turn, connection, session, message.id, process, fn, args));
    session.schedule(task, bytes);
  }

  async #reset(connection: Connection, reset: Reset): Promise<void> {
    const session = connection.session;
    const refused = resetRefusal(reset, session !== undefined, this.backend);
    const answers = reset.id === undefined ? {} : { id: reset.id };
    if (refused !== undefined) {
      sendError(connection, refused.code, refused.why, { ...answers, ...(refused.field === undefined ? {} : { field: refused.field }) });
      return;
    }
    // resetRefusal refuses a connection without the session; this only narrows the type.
    if (session === undefined) return;
    await session.enqueue(async () => {
      await tearDown(this.#turn, session, 'reset');
      this.#fanOut.flush();
      try {
        await this.backend.reset({
          ...(reset.profile === undefined ? {} : { profile: reset.profile }),
          ...(reset.devices === undefined ? {} : { devices: reset.devices }),
          ...(reset.seed === undefined ? {} : { seed: reset.seed }),
        });
      } catch (error) {
        sendError(connection, 'invalid-argument', error instanceof Error ? error.message : String(error), answers);
      }
      this.#fanOut.discardPending();
      this.#usage.clear();
      session.dropProcesses();
      this.#options.journal.write({ type: 'reset', config: this.backend.config() });
      session.process(0, this.backend, this.#options.journal);
      this.#fanOut.discardPending();
      this.#history.reset(this.backend.state());
      this.#options.onReset?.();
      const host = { type: 'host', host: this.backend.host, devices: this.backend.devices() } as const;
      for (const c of this.#connections) {
        if (c.role === undefined) continue;
        send(c, host);
        send(
          c,
          notice('info', 'reset', coded('host-reset', { profile: this.backend.config().profile, devices: this.backend.config().devices })),
        );
        this.#fanOut.sendSnapshot(c, true);
      }
    });
  }

  #disconnected(connection: Connection): void {
    connection.closed = true;
    this.#connections.delete(connection);
    this.#pager.cancel(connection);
    if (connection.helloTimer !== undefined) this.#clock.clearTimeout(connection.helloTimer);
    const session = connection.session;
    if (session !== undefined && !this.#stopped && holderOf(this.#connections, session) === undefined) this.#registry.detached(session);
    this.#fanOut.presenceChanged();
  }

  async #endSession(session: DriverSession, reason: string): Promise<void> {
    session.ending = true;
    this.#fanOut.presenceChanged();
    await session.enqueue(() => tearDown(this.#turn, session, reason));
    this.#registry.ended(session);
    this.#follow.ended();
    this.#fanOut.flush();
    this.#fanOut.presenceChanged();
    // The drivers that said hello meanwhile, in order: the first gets the new session, the rest are refused as busy.
    const waiting = this.#afterTeardown.splice(0);
    for (const { connection, hello } of waiting) if (!connection.closed && !this.#stopped) this.#hello(connection, hello);
  }

  #onEvents(events: readonly MemoryEvent[]): void {
    this.#usage.apply(events);
    for (const recorder of this.#recorders) recorder.observe(events);
    this.#fanOut.push(events);
  }

  /** SIGINT/SIGTERM: tear down the driver session (bounded by `deadlineMs`) and close everyone. */
  async shutdown(deadlineMs = 5000): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#registry.stopWaiting();
    const session = this.#registry.driver;
    if (session !== undefined) {
      let timer: ReturnType<Clock['setTimeout']> | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = this.#clock.setTimeout(() => resolve('late'), deadlineMs);
      });
      const outcome = await Promise.race([session.enqueue(() => tearDown(this.#turn, session, 'agent shutting down')), deadline]);
      if (timer !== undefined) this.#clock.clearTimeout(timer);
      if (outcome === 'late') this.#options.log.warn(`teardown did not finish within ${deadlineMs} ms`);
      this.#registry.ended(session);
    }
    this.#fanOut.stop();
    this.#pager.stop();
    this.#unsubscribe();
    for (const c of this.#connections) c.outbox.socket.close(CloseCode.goingAway, 'agent shutting down');
    await this.#options.journal.close();
  }
}
