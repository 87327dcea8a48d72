/**
 * The only thing session logic knows about a connection. The server adapts a `ws` socket to it;
 * unit tests use an in-memory pair. Session code never imports `ws`.
 */
export interface PeerSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Bytes queued for sending and not yet handed to the OS (the backpressure signal). */
  bufferedAmount(): number;
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
