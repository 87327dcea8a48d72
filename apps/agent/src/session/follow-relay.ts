import type { FollowState } from '@pagelens/core';
import type { Clock } from './clock.ts';
import { type Connection, sendText } from './connection.ts';

export interface FollowRelayContext {
  readonly clock: Clock;
  readonly connections: Iterable<Connection>;
}

/**
 * The follow channel's agent side (issue 17 item 1): keeps the driver's latest playground state,
 * relays it to every viewer and hands it to each viewer that joins. States published in one turn of
 * the event loop are coalesced into one relay of the last, so a driver that publishes in a burst
 * costs each viewer one message; the driver's page coalesces its own publishing too.
 */
export class FollowRelay {
  readonly #context: FollowRelayContext;
  /** The text of the latest relay (serialised once, shared by every viewer). */
  #latest: Buffer | undefined;
  #scheduled = false;

  constructor(context: FollowRelayContext) {
    this.#context = context;
  }

  /** The latest relay, as a viewer gets it (undefined when there is nothing to follow). */
  get latest(): string | undefined {
    return this.#latest?.toString('utf8');
  }

  /** The driver (labelled `driver` if its hello gave one) published `state`: relayed at the end of the turn. */
  publish(state: FollowState, driver: string | undefined): void {
    this.#latest = Buffer.from(JSON.stringify({ type: 'followState', state, ...(driver === undefined ? {} : { driver }) }));
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#context.clock.defer(() => this.#relay());
  }

  /** A viewer joined: it gets the latest state right after its snapshot. */
  joined(connection: Connection): void {
    if (this.#latest !== undefined && connection.role === 'viewer') sendText(connection, this.#latest);
  }

  /** The driver session ended: viewers are told there is nothing to follow, and no state is kept. */
  ended(): void {
    if (this.#latest === undefined) return;
    this.#latest = Buffer.from(JSON.stringify({ type: 'followState', state: null }));
    this.#relay();
    this.#latest = undefined;
  }

  #relay(): void {
    this.#scheduled = false;
    const bytes = this.#latest;
    if (bytes === undefined) return;
    for (const c of this.#context.connections) if (c.role === 'viewer') sendText(c, bytes);
  }
}
