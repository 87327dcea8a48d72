import { type Hello, text } from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';
import type { JournalSink } from '../journal/entries.ts';
import type { Clock } from './clock.ts';
import { type Connection, holderOf, notice, send, sendError } from './connection.ts';
import { DriverSession } from './driver-session.ts';
import { CloseCode } from './peer-socket.ts';

export interface DriverRegistryContext {
  readonly backend: Backend;
  readonly journal: JournalSink;
  readonly clock: Clock;
  readonly connections: Iterable<Connection>;
  readonly callsPerSecond: number;
  readonly allowTakeover: boolean;
  readonly resumeGraceMs: number;
  /** The session's driver did not come back in time: tear it down. */
  readonly expired: (session: DriverSession) => void;
}

/**
 * The one driver session and who holds it: a new session, a resume with a single-use token, a
 * takeover when allowed, and the grace period a disconnected driver has to come back.
 */
export class DriverRegistry {
  readonly #context: DriverRegistryContext;
  #driver: DriverSession | undefined;
  #nextSession = 1;

  constructor(context: DriverRegistryContext) {
    this.#context = context;
  }

  get driver(): DriverSession | undefined {
    return this.#driver;
  }

  /** The session ended (torn down): the next driver starts a new one. */
  ended(session: DriverSession): void {
    if (this.#driver === session) this.#driver = undefined;
  }

  /** Gives the connection the driver session (new, resumed or taken over); false when refused. */
  attach(connection: Connection, hello: Hello): boolean {
    const { journal, clock } = this.#context;
    const current = this.#driver;
    if (current !== undefined) {
      const holder = holderOf(this.#context.connections, current);
      const resuming = hello.resume !== undefined && current.resumes(hello.resume);
      // A resume takes the session from a connection that stopped answering heartbeats (half-open);
      // from one that still answers, only a takeover may.
      const holderAnswering = holder !== undefined && (holder.outbox.socket.answering?.() ?? true);
      if (resuming && !holderAnswering) {
        if (holder !== undefined) holder.outbox.socket.close(CloseCode.policyViolation, 'session resumed from another connection');
        this.#take(connection, current, 'resume');
        return true;
      }
      if (!this.#context.allowTakeover) {
        const why =
          holder === undefined
            ? text('driver-busy-grace', { seconds: Math.ceil((current.graceEndsAt - clock.now()) / 1000) })
            : resuming
              ? text('driver-busy-answering', { remote: holder.remote })
              : text('driver-busy', { remote: holder.remote });
        sendError(connection, 'driver-busy', why);
        connection.outbox.socket.close(CloseCode.policyViolation, 'driver busy');
        return false;
      }
      this.#take(connection, current, resuming ? 'resume' : 'takeover');
      return true;
    }
    if (hello.resume !== undefined) {
      send(connection, notice('warn', 'resume-expired', text('resume-expired')));
    }
    const session = new DriverSession(`s${this.#nextSession++}`, this.#context.callsPerSecond, () => clock.now());
    this.#driver = session;
    connection.session = session;
    journal.write({ type: 'session', session: session.id, action: 'open' });
    session.process(0, this.#context.backend, journal);
    return true;
  }

  #take(connection: Connection, session: DriverSession, action: 'resume' | 'takeover'): void {
    if (session.graceTimer !== undefined) this.#context.clock.clearTimeout(session.graceTimer);
    session.graceTimer = undefined;
    session.rotateResumeToken();
    for (const other of this.#context.connections) {
      if (other.session !== session || other === connection) continue;
      other.session = undefined;
      other.role = 'viewer';
      send(other, notice('warn', 'taken-over', text('taken-over', { remote: connection.remote })));
    }
    connection.session = session;
    this.#context.journal.write({ type: 'session', session: session.id, action });
  }

  /** The connection holding `session` closed: the session waits for its driver for the grace period. */
  detached(session: DriverSession): void {
    const { clock, journal, resumeGraceMs } = this.#context;
    journal.write({ type: 'session', session: session.id, action: 'detach' });
    session.graceEndsAt = clock.now() + resumeGraceMs;
    session.graceTimer = clock.setTimeout(() => {
      session.graceTimer = undefined;
      this.#context.expired(session);
    }, resumeGraceMs);
  }

  /** Stops waiting: the agent is shutting down. */
  stopWaiting(): void {
    const session = this.#driver;
    if (session?.graceTimer !== undefined) this.#context.clock.clearTimeout(session.graceTimer);
    if (session !== undefined) session.graceTimer = undefined;
  }
}
