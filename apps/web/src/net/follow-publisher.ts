import type { FollowState } from '@pagelens/core';

/** How long the driver's page gathers playground changes before it publishes the last (ms). */
export const FOLLOW_PUBLISH_MS = 100;

export interface FollowPublisherOptions {
  readonly send: (state: FollowState) => void;
  /** Runs `flush` once the coalescing window has passed; tests pass a scheduler they run by hand. */
  readonly schedule: (flush: () => void) => void;
}

/**
 * The driver's side of the follow channel: every change is offered, the last one of a window is
 * sent, and a state equal to the one sent last is not sent again. Typing a line of code costs one
 * message per window, not one per key; a step costs one message.
 */
export class FollowPublisher {
  readonly #options: FollowPublisherOptions;
  #pending: FollowState | undefined;
  #scheduled = false;
  #lastSent: string | undefined;

  constructor(options: FollowPublisherOptions) {
    this.#options = options;
  }

  offer(state: FollowState): void {
    this.#pending = state;
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#options.schedule(() => this.flush());
  }

  /** Sends what is pending, unless it is what the agent already has. */
  flush(): void {
    this.#scheduled = false;
    const state = this.#pending;
    this.#pending = undefined;
    if (state === undefined) return;
    const text = JSON.stringify(state);
    if (text === this.#lastSent) return;
    this.#lastSent = text;
    this.#options.send(state);
  }

  /** A new connection: the agent may not hold the last state (it restarted), so the next offer is sent. */
  forget(): void {
    this.#lastSent = undefined;
  }
}
