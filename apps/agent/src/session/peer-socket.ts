/**
 * The only thing session logic knows about a connection. The server adapts a `ws` socket to it;
 * unit tests use an in-memory pair. Session code never imports `ws`.
 */
export interface PeerSocket {
  /** Sends one text frame: a string, or its UTF-8 bytes when one text goes to many clients. */
  send(text: string | Uint8Array): void;
  close(code: number, reason: string): void;
  /** Bytes queued for sending and not yet handed to the OS (the backpressure signal). */
  bufferedAmount(): number;
  /**
   * Hands what was sent so far to the OS now rather than at the end of this turn (the server
   * gathers a turn's messages into one write). Used before long synchronous work, such as
   * building a large snapshot, so that what precedes it is not held back.
   */
  flush(): void;
  /**
   * False once the peer has left a heartbeat unanswered for a while (a half-open connection);
   * a resume may then take the session from it. Sockets without a heartbeat are always answering.
   */
  answering?(): boolean;
}

/** What the server tells a session about its socket. */
export interface PeerHandler {
  message(text: string): void;
  closed(code: number, reason: string): void;
}

/** WebSocket close codes the agent uses. */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  protocolError: 1002,
  policyViolation: 1008,
  tooBig: 1009,
} as const;
