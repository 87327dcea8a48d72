import {
  type AclArgs,
  type AclFunctionName,
  type AgentMessage,
  argsAreValid,
  BUILTIN_PROFILES,
  type Call,
  type ErrorCode,
  errorName,
  findProfile,
  formatBytes,
  type Hello,
  invokeAcl,
  invokeCall,
  isAclFunctionName,
  type MemoryEvent,
  normalizeArgs,
  PROTOCOL_VERSION,
  type Reset,
  type Role,
} from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import type { JournalSink } from '../journal/entries.ts';
import type { Logger } from '../server/logger.ts';
import {
  type CallRecorder,
  DriverSession,
  type Executed,
  execute,
  MAX_PROCESSES,
  MAX_QUEUED_BYTES,
  MAX_QUEUED_CALLS,
} from './driver-session.ts';
import { eventsFrameText } from './event-frames.ts';
import { parseInbound } from './inbound.ts';
import { DEFAULT_WATERMARKS, Outbox, type Watermarks } from './outbox.ts';
import { CloseCode, type PeerHandler, type PeerSocket } from './peer-socket.ts';
import { demandOf, type Limits, quotaProblem } from './quotas.ts';
import { SnapshotTexts } from './snapshot-texts.ts';
import { UsageTracker } from './usage-tracker.ts';

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimeout(handle: ReturnType<typeof setTimeout>): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};

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
}

/** Largest event batch in one frame. */
export const EVENTS_PER_FRAME = 2000;
export const RESUME_GRACE_MS = 30_000;
/** A client with this much unread in its socket that sends again is closed (replies are never dropped). */
export const UNREAD_REPLIES_LIMIT = 16 * 1024 * 1024;
/** Presence messages are coalesced over this long. */
export const PRESENCE_MS = 50;

interface Connection {
  readonly outbox: Outbox;
  readonly remote: string;
  role: Role | undefined;
  session: DriverSession | undefined;
  helloTimer: ReturnType<typeof setTimeout> | undefined;
  /** The snapshot form the client asked for in its hello. */
  packedSnapshots: boolean;
  closed: boolean;
}

/**
 * Everyone connected to the agent: one driver session that may call, any number of viewers that
 * watch, all fed the same event stream. Owns the driver's session across reconnects, tears it down
 * when it ends, and keeps the journal.
 */
export class Hub {
  readonly #options: HubOptions;
  readonly #clock: Clock;
  readonly #connections = new Set<Connection>();
  /** The calls running now, each picking its events out of the stream. */
  readonly #recorders = new Set<CallRecorder>();
  #driver: DriverSession | undefined;
  readonly #usage = new UsageTracker();
  #nextSession = 1;
  #pending: MemoryEvent[] = [];
  readonly #snapshots = new SnapshotTexts();
  #flushScheduled = false;
  #presenceTimer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  readonly #unsubscribe: () => void;
  readonly #catchUpTimer: ReturnType<typeof setInterval>;

  constructor(options: HubOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#unsubscribe = options.backend.subscribe((events) => this.#onEvents(events));
    options.journal.write({ type: 'header', version: 1, created: new Date().toISOString(), config: options.backend.config() });
    this.#catchUpTimer = setInterval(() => this.#flush(), 250);
    this.#catchUpTimer.unref();
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

  #connectionOf(session: DriverSession): Connection | undefined {
    for (const c of this.#connections) if (c.session === session) return c;
    return undefined;
  }

  #send(connection: Connection, message: AgentMessage): void {
    this.#sendText(connection, JSON.stringify(message));
  }

  #sendText(connection: Connection, text: string | Uint8Array): void {
    if (!connection.closed) connection.outbox.control(text);
  }

  #error(connection: Connection, code: ErrorCode, message: string, extra: { id?: number; field?: string } = {}): void {
    this.#send(connection, { type: 'error', code, message, ...extra });
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
      this.#error(connection, 'bad-message', parsed.message, parsed.field === undefined ? {} : { field: parsed.field });
      return;
    }
    const message = parsed.value;
    if (message.type !== 'hello' && connection.role === undefined) {
      this.#error(connection, 'hello-required', `say hello first: {"type":"hello","protocol":${PROTOCOL_VERSION},"role":"driver"}`);
      return;
    }
    switch (message.type) {
      case 'hello':
        this.#hello(connection, message);
        return;
      case 'ping':
        this.#send(connection, { type: 'pong', time: this.#clock.now(), ...(message.id === undefined ? {} : { id: message.id }) });
        return;
      case 'call':
        this.#call(connection, message, text.length);
        return;
      case 'reset':
        void this.#reset(connection, message);
        return;
    }
  }

  #hello(connection: Connection, hello: Hello): void {
    if (connection.role !== undefined) {
      this.#error(connection, 'already-greeted', 'hello was already accepted on this connection');
      return;
    }
    if (hello.protocol !== PROTOCOL_VERSION) {
      this.#error(
        connection,
        'protocol-mismatch',
        `this agent speaks PageLens protocol ${PROTOCOL_VERSION} but the client sent protocol ${hello.protocol}; use a client and agent from the same release (reload the page the agent serves)`,
        { field: 'protocol' },
      );
      connection.outbox.socket.close(CloseCode.protocolError, 'protocol mismatch');
      return;
    }
    if (hello.role === 'driver' && !this.#attachDriver(connection, hello)) return;
    if (connection.helloTimer !== undefined) this.#clock.clearTimeout(connection.helloTimer);
    connection.role = hello.role;
    connection.packedSnapshots = hello.snapshots === 'packed';
    this.#welcome(connection);
    this.#presence();
  }

  /** Gives the connection the driver session (new, resumed or taken over); false when refused. */
  #attachDriver(connection: Connection, hello: Hello): boolean {
    const current = this.#driver;
    if (current !== undefined) {
      const holder = this.#connectionOf(current);
      const resuming = hello.resume !== undefined && current.resumes(hello.resume);
      // A resume takes the session from a connection that stopped answering heartbeats (half-open);
      // from one that still answers, only a takeover may.
      const holderAnswering = holder !== undefined && (holder.outbox.socket.answering?.() ?? true);
      if (resuming && !holderAnswering) {
        if (holder !== undefined) holder.outbox.socket.close(CloseCode.policyViolation, 'session resumed from another connection');
        this.#takeSession(connection, current, 'resume');
        return true;
      }
      if (!this.#options.allowTakeover) {
        const waiting =
          holder === undefined
            ? ` (its driver has ${Math.ceil((current.graceEndsAt - this.#clock.now()) / 1000)} s left to reconnect)`
            : resuming
              ? ` (it is still driven from ${holder.remote}, which answers; close that tab first)`
              : ` (from ${holder.remote})`;
        this.#error(
          connection,
          'driver-busy',
          `another driver session is active${waiting}; connect as a viewer (role "viewer"), or start the agent with --allow-takeover`,
        );
        connection.outbox.socket.close(CloseCode.policyViolation, 'driver busy');
        return false;
      }
      this.#takeSession(connection, current, resuming ? 'resume' : 'takeover');
      return true;
    }
    if (hello.resume !== undefined) {
      this.#send(connection, {
        type: 'notice',
        level: 'warn',
        code: 'resume-expired',
        message: 'your earlier session ended (its grace period passed) and was torn down; this is a new session',
      });
    }
    const session = new DriverSession(`s${this.#nextSession++}`, this.#options.limits.callsPerSecond, () => this.#clock.now());
    this.#driver = session;
    connection.session = session;
    this.#options.journal.write({ type: 'session', session: session.id, action: 'open' });
    session.process(0, this.backend, this.#options.journal);
    return true;
  }

  #takeSession(connection: Connection, session: DriverSession, action: 'resume' | 'takeover'): void {
    if (session.graceTimer !== undefined) this.#clock.clearTimeout(session.graceTimer);
    session.graceTimer = undefined;
    session.rotateResumeToken();
    for (const other of this.#connections) {
      if (other.session !== session || other === connection) continue;
      other.session = undefined;
      other.role = 'viewer';
      this.#send(other, {
        type: 'notice',
        level: 'warn',
        code: 'taken-over',
        message: `another client (${connection.remote}) took over the driver session; you are now a viewer`,
      });
    }
    connection.session = session;
    this.#options.journal.write({ type: 'session', session: session.id, action });
  }

  #welcome(connection: Connection): void {
    const { backend, limits } = { backend: this.backend, limits: this.#options.limits };
    const state = backend.state();
    const session = connection.session;
    this.#send(connection, {
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
    this.#sendSnapshot(connection, false);
  }

  #sendSnapshot(connection: Connection, reset: boolean): void {
    const state = this.backend.state();
    this.#sendText(connection, this.#snapshots.bytes(state, connection.packedSnapshots, reset));
    connection.outbox.caughtUp(state.seq);
  }

  /**
   * Presence changes are told at most once per PRESENCE_MS, in one text shared by everyone: a
   * hundred viewers joining would otherwise cost ten thousand messages.
   */
  #presence(): void {
    if (this.#presenceTimer !== undefined || this.#stopped) return;
    this.#presenceTimer = this.#clock.setTimeout(() => {
      this.#presenceTimer = undefined;
      this.#sendPresence();
    }, PRESENCE_MS);
  }

  #sendPresence(): void {
    const driver = this.#driver;
    let viewers = 0;
    for (const c of this.#connections) if (c.role === 'viewer') viewers += 1;
    const message: AgentMessage = {
      type: 'presence',
      driver: driver !== undefined && this.#connectionOf(driver) !== undefined,
      driverWaiting: driver !== undefined && driver.graceTimer !== undefined,
      viewers,
    };
    const bytes = Buffer.from(JSON.stringify(message));
    for (const c of this.#connections) if (c.role !== undefined) this.#sendText(c, bytes);
  }

  #call(connection: Connection, call: Call, bytes: number): void {
    const session = connection.session;
    if (session === undefined) {
      this.#error(connection, 'not-driver', 'viewers watch and cannot call; connect with role "driver" to drive the agent', {
        id: call.id,
      });
      return;
    }
    if (!isAclFunctionName(call.fn)) {
      this.#error(
        connection,
        'unknown-function',
        `"${call.fn}" is not an ACL function PageLens knows; the welcome message lists them in "functions"`,
        {
          id: call.id,
          field: 'fn',
        },
      );
      return;
    }
    this.#runCall(connection, session, call, call.fn, bytes);
  }

  #runCall<F extends AclFunctionName>(connection: Connection, session: DriverSession, call: Call, fn: F, bytes: number): void {
    const normalized = normalizeArgs(fn, call.args);
    if (!normalized.ok) {
      this.#error(connection, 'invalid-argument', normalized.message, { id: call.id, field: `args.${normalized.field}` });
      return;
    }
    const args = normalized.value;
    // An inline callback: tsx (esbuild keepNames) calls __name() on a named one (`const invalid = …`) each time it is made.
    if (!argsAreValid(fn, args, (field, message) => this.#invalid(connection, call.id, field, message))) return;
    const index = call.process ?? 0;
    if (index > 0 && this.backend.name !== 'sim') {
      this.#error(
        connection,
        'not-allowed',
        'only the simulator runs more than one process; on real hardware the agent is the only process',
        { id: call.id, field: 'process' },
      );
      return;
    }
    if (index >= MAX_PROCESSES) return;
    if (!session.rate.take()) {
      this.#error(
        connection,
        'rate-limited',
        `more than ${this.#options.limits.callsPerSecond} calls per second (--max-calls-per-sec); slow down`,
        { id: call.id },
      );
      return;
    }
    if (session.queued >= MAX_QUEUED_CALLS) {
      this.#error(connection, 'rate-limited', `${MAX_QUEUED_CALLS} calls are already waiting; wait for results before sending more`, {
        id: call.id,
      });
      return;
    }
    if (session.queuedBytes + bytes > MAX_QUEUED_BYTES) {
      this.#error(
        connection,
        'rate-limited',
        `${formatBytes(session.queuedBytes)} of calls are already waiting; wait for results before sending more`,
        { id: call.id },
      );
      return;
    }
    session.schedule(() => this.#perform(connection, session, call.id, index, fn, args), bytes);
  }

  #invalid(connection: Connection, id: number, field: string, message: string): void {
    this.#error(connection, 'invalid-argument', message, { id, field: `args.${field}` });
  }

  /** Runs a validated call in its turn and answers it; a failure inside the backend becomes an error reply. */
  async #perform<F extends AclFunctionName>(
    connection: Connection,
    session: DriverSession,
    id: number,
    index: number,
    fn: F,
    args: AclArgs<F>,
  ): Promise<void> {
    const journal = this.#options.journal;
    let result: Executed;
    try {
      const opened = session.process(index, this.backend, journal);
      // Quotas are judged in the call's turn, on what the session holds after every call before it.
      const wanted = demandOf(fn, args, { state: this.backend.state(), pid: opened.pid });
      const problem = quotaProblem(wanted, this.#usage.usage(session.pids()), this.#options.limits);
      if (problem !== undefined) {
        this.#error(this.#connectionOf(session) ?? connection, 'quota-exceeded', problem, { id });
        return;
      }
      journal.write({ type: 'call', session: session.id, process: index, id, fn, args, source: 'client' });
      result = await execute(opened, fn, (runtime) => invokeAcl(runtime, fn, args), this.#recorders);
      journal.write({
        type: 'result',
        session: session.id,
        id,
        ret: result.ret,
        out: result.out,
        ...(result.message === undefined ? {} : { message: result.message }),
      });
    } catch (error) {
      this.#options.log.error(`${fn} failed inside the backend: ${error instanceof Error ? error.stack : String(error)}`);
      this.#error(
        connection,
        'backend-error',
        `${fn} failed inside the backend: ${error instanceof Error ? error.message : String(error)}`,
        {
          id,
        },
      );
      return;
    }
    // The answer goes to whoever holds the session now (the caller may have reconnected).
    this.#send(this.#connectionOf(session) ?? connection, {
      type: 'result',
      id,
      fn,
      ret: result.ret,
      retName: errorName(result.ret),
      out: result.out,
      ...(result.message === undefined ? {} : { message: result.message }),
      events: result.events,
      durationNs: result.durationNs,
    });
  }

  async #reset(connection: Connection, reset: Reset): Promise<void> {
    const session = connection.session;
    if (session === undefined) {
      this.#error(connection, 'not-driver', 'only the driver may reset the host');
      return;
    }
    if (reset.profile !== undefined && findProfile(reset.profile) === undefined) {
      this.#error(
        connection,
        'invalid-argument',
        `unknown profile "${reset.profile}"; a reset may choose ${BUILTIN_PROFILES.map((p) => p.name).join(', ')}`,
        {
          field: 'profile',
        },
      );
      return;
    }
    await session.enqueue(async () => {
      await this.#teardown(session, 'reset');
      this.#flush();
      try {
        await this.backend.reset({
          ...(reset.profile === undefined ? {} : { profile: reset.profile }),
          ...(reset.devices === undefined ? {} : { devices: reset.devices }),
          ...(reset.seed === undefined ? {} : { seed: reset.seed }),
        });
      } catch (error) {
        this.#error(connection, 'invalid-argument', error instanceof Error ? error.message : String(error));
      }
      this.#pending = [];
      this.#usage.clear();
      session.dropProcesses();
      this.#options.journal.write({ type: 'reset', config: this.backend.config() });
      session.process(0, this.backend, this.#options.journal);
      this.#pending = [];
      for (const c of this.#connections) {
        if (c.role === undefined) continue;
        this.#send(c, {
          type: 'notice',
          level: 'info',
          code: 'reset',
          message: `the host was reset (${this.backend.config().profile} × ${this.backend.config().devices})`,
        });
        this.#sendSnapshot(c, true);
      }
    });
  }

  /** Releases everything the session holds, through the backend, in RULES.md order; idempotent. */
  async #teardown(session: DriverSession, reason: string): Promise<number> {
    const journal = this.#options.journal;
    let failures = 0;
    for (const { process: index, call } of session.teardownCalls(this.backend)) {
      const opened = session.process(index, this.backend, journal);
      journal.write({ type: 'call', session: session.id, process: index, id: 0, fn: call.fn, args: call.args, source: 'teardown' });
      const result = await execute(opened, call.fn, (runtime) => invokeCall(runtime, call), this.#recorders);
      journal.write({
        type: 'result',
        session: session.id,
        id: 0,
        ret: result.ret,
        out: result.out,
        ...(result.message === undefined ? {} : { message: result.message }),
      });
      if (result.ret !== 0) {
        failures += 1;
        this.#options.log.warn(
          `teardown (${reason}) of session ${session.id}: ${call.fn} answered ${errorName(result.ret)}${result.message === undefined ? '' : `: ${result.message}`}`,
        );
      }
    }
    journal.write({ type: 'session', session: session.id, action: 'teardown' });
    return failures;
  }

  #disconnected(connection: Connection): void {
    connection.closed = true;
    this.#connections.delete(connection);
    if (connection.helloTimer !== undefined) this.#clock.clearTimeout(connection.helloTimer);
    const session = connection.session;
    if (session !== undefined && !this.#stopped && this.#connectionOf(session) === undefined) {
      this.#options.journal.write({ type: 'session', session: session.id, action: 'detach' });
      session.graceEndsAt = this.#clock.now() + this.#options.resumeGraceMs;
      session.graceTimer = this.#clock.setTimeout(() => {
        session.graceTimer = undefined;
        void this.#endSession(session, 'its driver did not come back within the grace period');
      }, this.#options.resumeGraceMs);
    }
    this.#presence();
  }

  async #endSession(session: DriverSession, reason: string): Promise<void> {
    await session.enqueue(() => this.#teardown(session, reason));
    if (this.#driver === session) this.#driver = undefined;
    this.#flush();
    this.#presence();
  }

  #onEvents(events: readonly MemoryEvent[]): void {
    this.#usage.apply(events);
    for (const recorder of this.#recorders) recorder.observe(events);
    for (const event of events) this.#pending.push(event);
    if (this.#pending.length >= EVENTS_PER_FRAME * 4) this.#flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  /** Sends pending events in frames of at most EVENTS_PER_FRAME, and resyncs clients that caught up. */
  #flush(): void {
    this.#flushScheduled = false;
    const now = this.#clock.now();
    const events = this.#pending;
    this.#pending = [];
    const journal = this.#options.journal;
    // Each frame's events are serialized once, for every client and for the journal.
    const journaled: string[] = [];
    for (let start = 0; start < events.length; start += EVENTS_PER_FRAME) {
      const chunk = events.slice(start, start + EVENTS_PER_FRAME);
      const from = chunk[0]?.seq ?? 0;
      const to = chunk[chunk.length - 1]?.seq ?? 0;
      let array = journal.path === undefined ? undefined : JSON.stringify(chunk);
      if (array !== undefined) journaled.push(array);
      let frame: Buffer | undefined;
      for (const c of this.#connections) {
        if (c.role === undefined || c.closed) continue;
        if (c.outbox.seq >= from && c.outbox.seq < to) {
          // Joined in the middle of this batch: send only what it lacks.
          const rest = chunk.filter((e) => e.seq > c.outbox.seq);
          c.outbox.offer(JSON.stringify({ type: 'events', from: rest[0]?.seq ?? to, to, events: rest }), rest[0]?.seq ?? to, to, now);
          continue;
        }
        array ??= JSON.stringify(chunk);
        frame ??= Buffer.from(eventsFrameText(from, to, array));
        c.outbox.offer(frame, from, to, now);
      }
    }
    journal.writeEvents(journaled);
    for (const c of this.#connections) {
      if (c.role === undefined || c.closed) continue;
      if (c.outbox.stalledTooLong(now)) {
        c.outbox.socket.close(CloseCode.policyViolation, 'client too slow: it did not read for 10 s');
        continue;
      }
      if (c.outbox.canCatchUp()) {
        const state = this.backend.state();
        this.#send(c, {
          type: 'resync',
          reason: 'this client fell behind; a fresh snapshot follows',
          skippedFrom: c.outbox.behindFrom ?? state.seq,
          skippedTo: state.seq,
        });
        this.#sendSnapshot(c, false);
      }
    }
  }

  /** SIGINT/SIGTERM: tear down the driver session (bounded by `deadlineMs`) and close everyone. */
  async shutdown(deadlineMs = 5000): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#catchUpTimer);
    if (this.#presenceTimer !== undefined) this.#clock.clearTimeout(this.#presenceTimer);
    const session = this.#driver;
    if (session !== undefined) {
      if (session.graceTimer !== undefined) this.#clock.clearTimeout(session.graceTimer);
      const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), deadlineMs).unref());
      const outcome = await Promise.race([session.enqueue(() => this.#teardown(session, 'agent shutting down')), deadline]);
      if (outcome === 'late') this.#options.log.warn(`teardown did not finish within ${deadlineMs} ms`);
      this.#driver = undefined;
    }
    this.#flush();
    this.#unsubscribe();
    for (const c of this.#connections) c.outbox.socket.close(CloseCode.goingAway, 'agent shutting down');
    await this.#options.journal.close();
  }
}
