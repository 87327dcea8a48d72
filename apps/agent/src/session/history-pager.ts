import type { Clock } from './clock.ts';
import { type Connection, send, sendText } from './connection.ts';
import { pageFrame, type SessionHistory } from './history.ts';

/**
 * History bytes sent in one turn of the event loop, all clients together. Between turns the agent
 * reads sockets, so a driver's calls wait behind at most this much paging however many join.
 */
export const HISTORY_TURN_BYTES = 512 * 1024;
/**
 * A client gets its next page only while less than this is queued for it: far under the outbox's
 * high-water mark (4 MiB), so history never makes a client skip live events, and a slow client's
 * pages wait for it without holding back anyone else's.
 */
export const HISTORY_LOW_WATER_BYTES = 1024 * 1024;
/** How often clients waiting on their own queue are looked at again. */
const RETRY_MS = 100;

export interface PagerOptions {
  readonly history: SessionHistory;
  readonly clock: Clock;
  readonly turnBytes?: number;
  readonly lowWaterBytes?: number;
}

/** One client's walk through the history: the base it was promised, how far it got, where it ends. */
interface Job {
  readonly connection: Connection;
  readonly generation: number;
  readonly base: number;
  readonly to: number;
  baseSent: boolean;
  /** The last seq sent. */
  next: number;
}

/**
 * Sends the history to the clients that asked for it, after each snapshot they get: a `history`
 * message at once (what is coming), then the base and the pages, oldest first, round-robin over
 * the clients, at most `turnBytes` a turn, each page only to a client with room in its queue.
 * Live events are never behind it: they go out through the fan-out as soon as they happen, and the
 * client keeps them beside the history until the history reaches them.
 */
export class HistoryPager {
  readonly #options: PagerOptions;
  readonly #jobs = new Map<Connection, Job>();
  #scheduled = false;
  readonly #stopRetry: () => void;
  #stopped = false;

  constructor(options: PagerOptions) {
    this.#options = options;
    this.#stopRetry = options.clock.every(() => this.pump(), RETRY_MS);
  }

  /** Clients paging now. */
  get paging(): number {
    return this.#jobs.size;
  }

  /**
   * `connection` was just sent the snapshot at `seq`: tell it the history up to there and start
   * paging it (replacing any paging under way).
   */
  start(connection: Connection, seq: number): void {
    if (!connection.history || this.#stopped) return;
    this.#jobs.delete(connection);
    const { history } = this.#options;
    // The hub flushes the fan-out before every snapshot, so the history reaches the snapshot's seq;
    // if it did not, the client is told there is no history rather than given one with a gap.
    const plan = history.lastSeq === seq ? history.plan() : { from: seq, to: seq, events: 0, callsBefore: 0 };
    send(connection, { type: 'history', ...plan });
    if (plan.events === 0) return;
    this.#jobs.set(connection, {
      connection,
      generation: history.generation,
      base: plan.from,
      to: plan.to,
      baseSent: false,
      next: plan.from,
    });
    this.#schedule();
  }

  cancel(connection: Connection): void {
    this.#jobs.delete(connection);
  }

  stop(): void {
    this.#stopped = true;
    this.#stopRetry();
    this.#jobs.clear();
  }

  #schedule(): void {
    if (this.#scheduled || this.#stopped) return;
    this.#scheduled = true;
    this.#options.clock.defer(() => this.pump());
  }

  /** One turn of paging: round-robin, one frame per client per round, until the turn's bytes are spent. */
  pump(): void {
    this.#scheduled = false;
    const lowWater = this.#options.lowWaterBytes ?? HISTORY_LOW_WATER_BYTES;
    let budget = this.#options.turnBytes ?? HISTORY_TURN_BYTES;
    let sent = true;
    while (sent && budget > 0 && this.#jobs.size > 0) {
      sent = false;
      for (const job of [...this.#jobs.values()]) {
        if (budget <= 0) break;
        const { connection } = job;
        if (connection.closed) {
          this.#jobs.delete(connection);
          continue;
        }
        if (connection.outbox.socket.bufferedAmount() >= lowWater) continue;
        const bytes = this.#step(job);
        if (bytes === 0) continue;
        budget -= bytes;
        sent = true;
        // To the back of the queue: the next turn starts with whoever waited longest.
        if (this.#jobs.get(connection) === job) {
          this.#jobs.delete(connection);
          this.#jobs.set(connection, job);
        }
      }
    }
    // Spent the turn with clients still able to take more: go on next turn. Clients waiting on their
    // own queues are looked at again every RETRY_MS.
    if (budget <= 0 && this.#jobs.size > 0) this.#schedule();
  }

  /** Sends the job's next frame; returns its bytes (0: nothing to send). */
  #step(job: Job): number {
    const { history } = this.#options;
    const { connection } = job;
    if (job.generation !== history.generation) {
      // A reset replaced the host (its snapshot restarted this client's paging already, or will).
      this.#jobs.delete(connection);
      return 0;
    }
    if (!job.baseSent ? history.baseSeq !== job.base : history.pageAfter(job.next) === undefined && job.next < job.to) {
      // The cap folded away what this client was to get next: start over from the base held now,
      // up to the newest event (which the client has from the live stream or will get).
      this.start(connection, history.lastSeq);
      return 0;
    }
    if (!job.baseSent) {
      const frame = history.baseFrame(connection.packedSnapshots);
      sendText(connection, frame);
      job.baseSent = true;
      return frame.length;
    }
    const page = history.pageAfter(job.next);
    if (page === undefined) return 0;
    const frame = pageFrame(page);
    sendText(connection, frame);
    job.next = page.to;
    if (job.next >= job.to) this.#jobs.delete(connection);
    return frame.length;
  }
}
