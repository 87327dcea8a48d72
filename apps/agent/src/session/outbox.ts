import type { PeerSocket } from './peer-socket.ts';

/** Above this many queued bytes a client stops receiving event batches and will be resynced. */
export const HIGH_WATER_BYTES = 4 * 1024 * 1024;
/** Below this it catches up with a fresh snapshot. */
export const LOW_WATER_BYTES = 1024 * 1024;
/** A client stuck above the high-water mark this long is closed (1008). */
export const STALL_LIMIT_MS = 10_000;

/**
 * One client's outgoing side. Control messages (welcome, results, errors) always go out; event
 * batches are skipped while the client cannot keep up, and it is then resynced with a snapshot.
 */
export interface Watermarks {
  readonly high: number;
  readonly low: number;
  readonly stallMs: number;
}

export const DEFAULT_WATERMARKS: Watermarks = { high: HIGH_WATER_BYTES, low: LOW_WATER_BYTES, stallMs: STALL_LIMIT_MS };

export class Outbox {
  readonly socket: PeerSocket;
  readonly #marks: Watermarks;
  /** The last event seq this client has (through events or a snapshot). */
  seq = 0;
  /** First skipped seq, while behind. */
  behindFrom: number | undefined;
  stalledSince: number | undefined;

  constructor(socket: PeerSocket, marks: Watermarks = DEFAULT_WATERMARKS) {
    this.socket = socket;
    this.#marks = marks;
  }

  control(text: string | Uint8Array): void {
    this.socket.send(text);
  }

  /** Offers a batch [from, to]; returns false when the client is (now) behind and skipped it. */
  offer(text: string | Uint8Array, from: number, to: number, now: number): boolean {
    if (to <= this.seq) return true;
    if (this.behindFrom !== undefined || this.socket.bufferedAmount() > this.#marks.high) {
      this.behindFrom ??= from;
      this.stalledSince ??= now;
      return false;
    }
    this.socket.send(text);
    this.seq = to;
    return true;
  }

  /** A behind client whose queue has drained may be resynced. */
  canCatchUp(): boolean {
    return this.behindFrom !== undefined && this.socket.bufferedAmount() < this.#marks.low;
  }

  stalledTooLong(now: number): boolean {
    if (this.stalledSince === undefined) return false;
    if (this.socket.bufferedAmount() <= this.#marks.high) {
      this.stalledSince = undefined;
      return false;
    }
    return now - this.stalledSince > this.#marks.stallMs;
  }

  caughtUp(seq: number): void {
    this.seq = seq;
    this.behindFrom = undefined;
    this.stalledSince = undefined;
  }
}
